"""The in-world calendar's page (every member reads it; GMs advance or set the date, add events
and define the months), a session's answers ("will you come?") and the member's calendar
feed: its page, where she renews or revokes it, and the feed itself (no sign-in: the token is
the key)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.typing import AuthedRequest
from apibase.numbers import object_id
from campaign.models import Membership
from campaign.permissions import campaign_for

from .. import calendar_feed, rsvp, world
from .. import sessions as session_services
from ..forms import (
    CalendarDefineForm,
    DateAdvanceForm,
    DateSetForm,
    RsvpForm,
    WorldEventForm,
    add_service_errors,
)
from ..models import WorldEvent

ACTIONS = ("advance", "set", "event", "define", "delete")


@login_required
@require_http_methods(["GET", "POST"])
def calendar(request: AuthedRequest, pk: int) -> HttpResponse:
    """The current date, this month's days with their events, every event; GM forms."""
    campaign, access = campaign_for(request.user, pk, manage=request.method == "POST")
    row = world.calendar_row(campaign.pk)
    today = world.world_date(campaign.pk, row)
    action = request.POST.get("action", "") if request.method == "POST" else ""
    data = request.POST if action else None
    bound: dict[str, forms.Form] = {
        "advance": DateAdvanceForm(data if action == "advance" else None, auto_id="advance-%s"),
        "set": DateSetForm(
            data if action == "set" else None,
            auto_id="set-%s",
            initial={"year": today.year, "month": today.month, "day": today.day},
        ),
        "event": WorldEventForm(
            data if action == "event" else None,
            campaign_id=campaign.pk,
            entries=world.entry_choices(access) if access.can_manage else [],
            auto_id="event-%s",
            initial={"year": today.year, "month": today.month, "day": today.day},
        ),
        "define": CalendarDefineForm(
            data if action == "define" else None,
            auto_id="define-%s",
            initial={
                "months": "\n".join(
                    f"{m['name']}, {m['days']}, {m.get('season', '')}".rstrip(", ")
                    for m in row.months
                    if isinstance(m, dict)
                ),
                "weekdays": "\n".join(str(w) for w in row.weekdays),
            },
        ),
    }
    if action == "delete":
        event = world.event_for(access, request.POST.get("event", ""))
        world.event_delete(event=event, by=access)
        messages.success(request, f"“{event.title}” removed from the calendar.")
        return redirect("gmtools:calendar", campaign.pk)
    form = bound.get(action)
    if form is not None and form.is_valid():
        done = _act(request, action, form, campaign, access)
        if done:
            messages.success(request, done)
            return redirect("gmtools:calendar", campaign.pk)
    events = list(world.events_visible_to(access))
    month_events: dict[int, list[WorldEvent]] = {}
    for e in events:
        if (e.year, e.month) == (today.year, today.month):
            month_events.setdefault(e.day, []).append(e)
    cal = today.calendar
    shown = world.event_entries(access, events)
    days = [
        {
            "day": d,
            "weekday": cal.weekday(today.year, today.month, d),
            "today": d == today.day,
            "events": month_events.get(d, []),
        }
        for d in range(1, cal.month_days(today.year, today.month) + 1)
    ]
    context: dict[str, Any] = {
        "campaign": campaign,
        "access": access,
        "today": today,
        "days": days,
        # each event with its wiki entry's (title, url) when the viewer may see the entry
        "events": [(world.event_words(e, cal), e, shown.get(e.wiki_entry_id or 0)) for e in events],
        "months": list(enumerate(cal.months, start=1)),
        "forms": bound,
        "custom": not cal.gregorian,
    }
    failed = form is not None and bool(form.errors)
    return render(request, "gmtools/calendar.html", context, status=400 if failed else 200)


def _act(request: AuthedRequest, action: str, form: forms.Form, campaign: Any, access: Any) -> str:
    """Carry out a GM's form; the words to show, or "" when the service refused."""
    data = form.cleaned_data
    try:
        if action == "advance":
            today = world.date_advance(campaign=campaign, by=access, days=data["days"])
            return gettext("The date is now %(date)s.") % {"date": today.words}
        if action == "set":
            today = world.date_set(
                campaign=campaign,
                by=access,
                year=data["year"],
                month=data["month"],
                day=data["day"],
            )
            return gettext("The date is now %(date)s.") % {"date": today.words}
        if action == "event":
            event = world.event_add(
                campaign=campaign,
                by=access,
                created_by=request.user,
                year=data["year"],
                month=data["month"],
                day=data["day"],
                title=data["title"],
                body=data["body"],
                gm_only=data["gm_only"],
                session=data["session"],
                wiki_entry=data["wiki_entry"],
            )
            return gettext("“%(title)s” is on the calendar and the timeline.") % {
                "title": event.title
            }
        world.calendar_define(
            campaign=campaign, by=access, months=data["months"], weekdays=data["weekdays"]
        )
        return gettext("The calendar's months and weekdays are saved.")
    except ValidationError as exc:
        add_service_errors(form, exc)
        return ""


# --------------------------------------------------------------------------- answers


@login_required
@require_POST
def session_rsvp(request: AuthedRequest, pk: int, session_id: int) -> HttpResponse:
    """A member answers for herself; back to the session's page."""
    campaign, access = campaign_for(request.user, pk)
    session = session_services.session_for(campaign, session_id)
    form = RsvpForm(request.POST)
    if form.is_valid():
        try:
            rsvp.rsvp_answer(
                session=session,
                by=access,
                user=request.user,
                answer=form.cleaned_data["answer"],
                note=form.cleaned_data["note"],
            )
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        else:
            messages.success(request, gettext("Your answer is saved."))
    else:
        messages.error(
            request, gettext("Choose yes, maybe or no (and a note of at most 200 characters).")
        )
    return redirect("gmtools:session_detail", campaign.pk, session.pk)


# --------------------------------------------------------------------------- the feed


@login_required
@require_http_methods(["GET", "POST"])
def feed_page(request: AuthedRequest) -> HttpResponse:
    """Her feed's address, with renew and revoke."""
    if request.method == "POST":
        if request.POST.get("action") == "revoke":
            calendar_feed.feed_revoke(request.user)
            messages.success(request, gettext("Your calendar address no longer works."))
        else:
            calendar_feed.feed_renew(request.user)
            messages.success(
                request, gettext("Your calendar has a new address; the old one stops working.")
            )
        back = object_id(request.POST.get("campaign", ""))
        if back and Membership.objects.filter(campaign_id=back, user=request.user).exists():
            return redirect("campaign:detail", back)
        return redirect("gmtools:calendar_feed")
    feed = calendar_feed.feed_of(request.user)
    url = request.build_absolute_uri(calendar_feed.feed_path(feed)) if feed else ""
    return render(request, "gmtools/calendar_feed.html", {"feed": feed, "feed_url": url})


@require_GET
def feed_ics(request: HttpRequest, token: str) -> HttpResponse:
    """The feed (RFC 5545). An unknown, revoked or renewed token answers 404."""
    feed = calendar_feed.feed_by_token(token)
    if feed is None or not feed.user.is_active:
        raise Http404(gettext("No such calendar."))
    base = request.build_absolute_uri("/").rstrip("/")
    response = HttpResponse(
        calendar_feed.feed_ics(feed.user, base), content_type="text/calendar; charset=utf-8"
    )
    response["Cache-Control"] = "private, max-age=300"
    response["X-Robots-Tag"] = "noindex"
    return response
