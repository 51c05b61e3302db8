"""A member's calendar feed: her campaigns' sessions as iCalendar (RFC 5545), at a secret URL.

The URL carries a random token (:class:`~gmtools.models.CalendarFeed`), so a calendar app can
subscribe without signing in. She revokes it (the row goes: the address answers 404) or renews
it (a new token: the old address answers 404) from her campaign's page or the feed page. The
feed lists the sessions of the campaigns she is a member of *now*, from
:data:`FEED_PAST` ago onwards, each with her own answer and the answers' counts.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Final

import icalendar
from django.db import transaction
from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone

from campaign.models import Membership

from .models import CalendarFeed, GameSession, RsvpAnswer, feed_token
from .sessions import session_path

if TYPE_CHECKING:
    from accounts.models import User

#: Sessions older than this are left out of the feed; at most MAX_FEED_SESSIONS are listed.
FEED_PAST: Final = timedelta(days=180)
MAX_FEED_SESSIONS: Final = 500
#: A session has no end time here: calendars show it this long.
SESSION_LENGTH: Final = timedelta(hours=3)


def feed_of(user: User) -> CalendarFeed | None:
    return CalendarFeed.objects.filter(user=user).first()


@transaction.atomic
def feed_renew(user: User) -> CalendarFeed:
    """Give her a feed address, or a new one (the old address stops working)."""
    feed, created = CalendarFeed.objects.select_for_update().get_or_create(user=user)
    if not created:
        feed.token = feed_token()
        feed.save()
    return feed


def feed_revoke(user: User) -> bool:
    """Her feed address stops working; returns whether she had one."""
    deleted, _ = CalendarFeed.objects.filter(user=user).delete()
    return bool(deleted)


def feed_path(feed: CalendarFeed) -> str:
    return reverse("gmtools:calendar_feed_ics", args=[feed.token])


def feed_by_token(token: str) -> CalendarFeed | None:
    if not token or len(token) > 64:
        return None
    return CalendarFeed.objects.filter(token=token).select_related("user").first()


def feed_sessions(user: User, now: datetime | None = None) -> list[GameSession]:
    """Her campaigns' sessions for the feed, with the answers counted (one query)."""
    now = now or timezone.now()
    campaigns = Membership.objects.filter(user=user).values("campaign_id")
    return list(
        GameSession.objects.filter(campaign_id__in=campaigns, starts_at__gte=now - FEED_PAST)
        .select_related("campaign")
        .annotate(
            n_yes=Count("rsvps", filter=Q(rsvps__answer=RsvpAnswer.YES)),
            n_maybe=Count("rsvps", filter=Q(rsvps__answer=RsvpAnswer.MAYBE)),
            n_no=Count("rsvps", filter=Q(rsvps__answer=RsvpAnswer.NO)),
        )
        .order_by("starts_at", "pk")[:MAX_FEED_SESSIONS]
    )


def feed_ics(user: User, base_url: str, now: datetime | None = None) -> bytes:
    """The feed's text. ``base_url`` (``https://host``) makes the sessions' links absolute."""
    now = now or timezone.now()
    sessions = feed_sessions(user, now)
    answers = dict(user.rsvps.filter(session__in=sessions).values_list("session_id", "answer"))
    words = dict(RsvpAnswer.choices)
    cal = icalendar.Calendar()
    cal.add("prodid", "-//Western Roses//Sessions//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", "Western Roses sessions")
    host = base_url.split("//", 1)[-1] or "westernroses"
    for s in sessions:
        event = icalendar.Event()
        event.add("uid", f"session-{s.pk}@{host}")
        event.add("dtstamp", now)
        event.add("dtstart", s.starts_at)
        event.add("dtend", s.starts_at + SESSION_LENGTH)
        event.add("summary", f"{s.title} ({s.campaign.name})")
        mine = answers.get(s.pk)
        lines = [
            f"Your answer: {words[mine]}" if mine else "You have not answered yet.",
            f"Answers: {s.n_yes} coming, {s.n_maybe} maybe, {s.n_no} not coming.",  # type: ignore[attr-defined]
        ]
        if s.agenda:
            lines.append(s.agenda)
        event.add("description", "\n".join(lines))
        event.add("url", base_url + session_path(s))
        cal.add_component(event)
    return bytes(cal.to_ical())
