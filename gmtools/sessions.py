"""Game sessions: schedule, move, summarise, take attendance, cancel.

Scheduling goes through the notification service's session reminders
(:func:`notifications.session_reminders_schedule`): the campaign hears about the
session at once (``session_scheduled``) and is reminded a day and an hour before
(``session_reminder``, fired by the ``send_scheduled_notifications`` beat task). Moving the
session re-arms both reminders (and tells the campaign the new time); cancelling drops the
reminders not yet sent. Reminder keys are ``session:<pk>:day`` / ``session:<pk>:hour``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Prefetch, QuerySet
from django.http import Http404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from apibase.words import quoted
from campaign.members import campaign_touch
from campaign.models import Campaign, Membership
from notifications import scheduled_notifications_cancel, session_reminders_schedule
from notifications.reminders import SESSION_REMINDERS

from .models import Attendance, AttendanceStatus, GameSession

if TYPE_CHECKING:
    from accounts.models import User
    from campaign.permissions import CampaignAccess


def _check_manager(campaign_id: int, by: CampaignAccess) -> None:
    if not by.can_manage or by.campaign_id != campaign_id:
        raise PermissionDenied(gettext("Only the campaign's game masters manage sessions."))


def session_path(session: GameSession) -> str:
    return reverse("gmtools:session_detail", args=[session.campaign_id, session.pk])


def session_reminders_arrange(session: GameSession, now: datetime | None = None) -> None:
    """Tell the campaign and arm the day/hour-before reminders, for a session still ahead."""
    now = now or timezone.now()
    if session.starts_at <= now:
        scheduled_notifications_cancel(key_prefix=f"session:{session.pk}:")
        return
    session_reminders_schedule(
        campaign=session.campaign,
        session_key=str(session.pk),
        starts_at=session.starts_at,
        title=session.title,
        url=session_path(session),
        now=now,
    )


def session_scheduled_words(session: GameSession, now: datetime | None = None) -> str:
    """What scheduling ``session`` did, in words: a session in the past tells and reminds
    nobody; one ahead tells the campaign now and arms the reminders whose time is still to
    come (as :func:`session_reminders_arrange` does)."""
    now = now or timezone.now()
    name = quoted(session.title)
    if session.starts_at <= now:
        return gettext(
            "%(name)s is recorded; it starts in the past, so nobody is told or reminded "
            "(schedule a time ahead to tell the players)."
        ) % {"name": name}
    ahead = [phrase for _, before, phrase in SESSION_REMINDERS if session.starts_at - before > now]
    words = {
        ("tomorrow", "in an hour"): gettext(
            "%(name)s scheduled; the players are told now and reminded a day and an hour before."
        ),
        ("tomorrow",): gettext(
            "%(name)s scheduled; the players are told now and reminded a day before."
        ),
        ("in an hour",): gettext(
            "%(name)s scheduled; the players are told now and reminded an hour before."
        ),
    }.get(tuple(ahead))
    if words is None:
        words = gettext("%(name)s scheduled; the players are told now (it starts within the hour).")
    return words % {"name": name}


def _validate(title: str | None, starts_at: datetime | None) -> None:
    errors: dict[str, list[str]] = {}
    if title is not None and not title.strip():
        errors["title"] = [gettext("Give the session a title.")]
    if starts_at is not None and timezone.is_naive(starts_at):
        errors["starts_at"] = [gettext("Give a date and time with a time zone.")]
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def session_schedule(
    *,
    campaign: Campaign,
    by: CampaignAccess,
    created_by: User,
    title: str,
    starts_at: datetime,
    agenda: str = "",
    now: datetime | None = None,
) -> GameSession:
    """Schedule a session (GMs only) and arrange its notifications (module docstring)."""
    _check_manager(campaign.pk, by)
    _validate(title, starts_at)
    session = GameSession.objects.create(
        campaign=campaign,
        title=title.strip(),
        starts_at=starts_at,
        agenda=agenda,
        created_by=created_by,
    )
    session_reminders_arrange(session, now)
    campaign_touch(campaign.pk)
    return session


@transaction.atomic
def session_update(
    *,
    session: GameSession,
    by: CampaignAccess,
    title: str | None = None,
    starts_at: datetime | None = None,
    agenda: str | None = None,
    summary: str | None = None,
    now: datetime | None = None,
) -> GameSession:
    """Change a session (GMs only); ``None`` leaves a part as it is. A new time or title
    re-arms the reminders; writing the summary after play changes nothing else."""
    _check_manager(session.campaign_id, by)
    _validate(title, starts_at)
    session = GameSession.objects.select_for_update().select_related("campaign").get(pk=session.pk)
    rearm = (starts_at is not None and starts_at != session.starts_at) or (
        title is not None and title.strip() != session.title
    )
    if title is not None:
        session.title = title.strip()
    if starts_at is not None:
        if starts_at != session.starts_at:
            session.rsvp_reminded_at = None  # the members who have not answered are asked anew
        session.starts_at = starts_at
    if agenda is not None:
        session.agenda = agenda
    if summary is not None:
        session.summary = summary
    session.save()
    if rearm:
        session_reminders_arrange(session, now)
    campaign_touch(session.campaign_id)
    return session


@transaction.atomic
def session_cancel(*, session: GameSession, by: CampaignAccess) -> None:
    """Delete a session and the reminders it had not sent yet (GMs only)."""
    _check_manager(session.campaign_id, by)
    scheduled_notifications_cancel(key_prefix=f"session:{session.pk}:")
    campaign_id = session.campaign_id
    session.delete()
    campaign_touch(campaign_id)


@transaction.atomic
def attendance_set(
    *, session: GameSession, by: CampaignAccess, statuses: Mapping[int, str | None]
) -> list[Attendance]:
    """Record who came (GMs only): ``{user_id: "present" | "absent" | "excused" | None}``;
    None clears a member's record. Every user must be a member (or have a record already,
    should they have left since). All or nothing: one bad entry changes nothing."""
    _check_manager(session.campaign_id, by)
    members = set(
        Membership.objects.filter(campaign_id=session.campaign_id).values_list("user_id", flat=True)
    )
    recorded = set(session.attendance.values_list("user_id", flat=True))
    errors: list[str] = []
    for user_id, status in statuses.items():
        if user_id not in members and user_id not in recorded:
            errors.append(
                gettext("User %(id)s is not a member of this campaign.") % {"id": user_id}
            )
        if status is not None and status not in AttendanceStatus.values:
            errors.append(
                gettext("“%(status)s” is not one of %(known)s.")
                % {"status": status, "known": ", ".join(AttendanceStatus.values)}
            )
    if errors:
        raise ValidationError({"attendance": errors})
    for user_id, status in statuses.items():
        if status is None:
            Attendance.objects.filter(session=session, user_id=user_id).delete()
        else:
            Attendance.objects.update_or_create(
                session=session, user_id=user_id, defaults={"status": status}
            )
    campaign_touch(session.campaign_id)
    return list(session.attendance.select_related("user").order_by("user__username"))


# --------------------------------------------------------------------------- reads


def sessions_of(campaign_id: int) -> QuerySet[GameSession]:
    """A campaign's sessions, latest first, with attendance (two queries)."""
    return GameSession.objects.filter(campaign_id=campaign_id).prefetch_related(
        Prefetch("attendance", queryset=Attendance.objects.select_related("user"))
    )


def session_upcoming(campaign_id: int, now: datetime | None = None) -> GameSession | None:
    """The next session that has not started yet."""
    now = now or timezone.now()
    return (
        GameSession.objects.filter(campaign_id=campaign_id, starts_at__gt=now)
        .order_by("starts_at", "pk")
        .first()
    )


def session_for(campaign: Campaign, pk: int | str) -> GameSession:
    try:
        session = sessions_of(campaign.pk).get(pk=int(pk))
    except (GameSession.DoesNotExist, ValueError, TypeError):
        raise Http404(gettext("No such session.")) from None
    session.campaign = campaign
    return session


@transaction.atomic
def session_record(
    *,
    session: GameSession,
    by: CampaignAccess,
    summary: str,
    statuses: Mapping[int, str | None],
) -> GameSession:
    """After play: the summary and the attendance together, all or nothing (GMs only)."""
    session = session_update(session=session, by=by, summary=summary)
    attendance_set(session=session, by=by, statuses=statuses)
    return session
