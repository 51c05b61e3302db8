"""Session pages: every member sees the schedule, agendas, summaries and attendance; GMs
schedule, move, write the summary, take attendance and cancel."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from accounts.typing import AuthedRequest
from campaign import selectors
from campaign.permissions import campaign_for
from campaign.registry import mentioned_in

from .. import rsvp
from .. import sessions as session_services
from ..forms import RsvpForm, SessionForm, SessionRecordForm, add_service_errors


@login_required
@require_http_methods(["GET", "POST"])
def session_list(request: AuthedRequest, pk: int) -> HttpResponse:
    """Upcoming and past sessions; GMs schedule a new one here (POST)."""
    campaign, access = campaign_for(request.user, pk, manage=request.method == "POST")
    form = SessionForm(request.POST or None) if access.can_manage else None
    if request.method == "POST" and form is not None and form.is_valid():
        try:
            session = session_services.session_schedule(
                campaign=campaign,
                by=access,
                created_by=request.user,
                title=form.cleaned_data["title"],
                starts_at=form.cleaned_data["starts_at"],
                agenda=form.cleaned_data["agenda"],
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, session_services.session_scheduled_words(session))
            if request.POST.get("next") == "dashboard":
                return redirect("gmtools:dashboard", campaign.pk)
            return redirect("gmtools:session_detail", campaign.pk, session.pk)
    now = timezone.now()
    sessions = list(session_services.sessions_of(campaign.pk))
    context = {
        "campaign": campaign,
        "access": access,
        "form": form,
        "upcoming": sorted((s for s in sessions if s.starts_at > now), key=lambda s: s.starts_at),
        "past": [s for s in sessions if s.starts_at <= now],
    }
    status = 400 if form is not None and form.errors else 200
    return render(request, "gmtools/sessions.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def session_detail(request: HttpRequest, pk: int, session_id: int) -> HttpResponse:
    """A session; GMs record the summary and attendance here (POST)."""
    campaign, access = campaign_for(request.user, pk, manage=request.method == "POST")
    session = session_services.session_for(campaign, session_id)
    members = list(selectors.campaign_members(campaign))
    attendance = {a.user_id: a.status for a in session.attendance.all()}
    form = None
    if access.can_manage:
        form = SessionRecordForm(
            request.POST or None,
            members=members,
            attendance=attendance,
            initial={"summary": session.summary},
        )
    if request.method == "POST" and form is not None and form.is_valid():
        try:
            session_services.session_record(
                session=session,
                by=access,
                summary=form.cleaned_data["summary"],
                statuses=form.statuses(),
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, gettext("Summary and attendance saved."))
            return redirect("gmtools:session_detail", campaign.pk, session.pk)
    answers = rsvp.rsvps_of(session)
    mine = next((a for a in answers if a.user_id == request.user.pk), None)
    upcoming = session.starts_at > timezone.now()
    context = {
        "campaign": campaign,
        # the wiki entries that mention it, as this viewer may see them (campaign.registry)
        "linked": mentioned_in(access=access, key="session", pk=session.pk),
        "access": access,
        "session": session,
        "form": form,
        "attendance": session.attendance.all(),
        "upcoming": upcoming,
        "answers": answers,
        "counts": rsvp.rsvp_counts(session),
        "rsvp_form": RsvpForm(
            initial={"answer": mine.answer, "note": mine.note} if mine else None,
            auto_id="rsvp-%s",
        )
        if upcoming
        else None,
    }
    status = 400 if form is not None and form.errors else 200
    return render(request, "gmtools/session_detail.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def session_edit(request: HttpRequest, pk: int, session_id: int) -> HttpResponse:
    """GMs move or rename a session (the reminders follow) or change its agenda."""
    campaign, access = campaign_for(request.user, pk, manage=True)
    session = session_services.session_for(campaign, session_id)
    form = SessionForm(
        request.POST or None,
        initial={"title": session.title, "starts_at": session.starts_at, "agenda": session.agenda},
    )
    if request.method == "POST" and form.is_valid():
        try:
            session_services.session_update(
                session=session,
                by=access,
                title=form.cleaned_data["title"],
                starts_at=form.cleaned_data["starts_at"],
                agenda=form.cleaned_data["agenda"],
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, gettext("Session saved."))
            return redirect("gmtools:session_detail", campaign.pk, session.pk)
    context = {"campaign": campaign, "access": access, "session": session, "form": form}
    return render(request, "gmtools/session_edit.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def session_delete(request: HttpRequest, pk: int, session_id: int) -> HttpResponse:
    campaign, access = campaign_for(request.user, pk, manage=True)
    session = session_services.session_for(campaign, session_id)
    session_services.session_cancel(session=session, by=access)
    messages.success(request, gettext("Session cancelled; its reminders will not be sent."))
    return redirect("gmtools:sessions", campaign.pk)
