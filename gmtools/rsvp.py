"""Answers to "will you come?" for a session (yes, maybe or no, with a note), their counts, and
the reminder to the members who have not answered.

Each member answers for herself, until the session starts. The counts show on the session's
page, on the GM dashboard's next session and in the members' calendar feeds. The
``gmtools.send_rsvp_reminders`` beat task asks, once per session, every member who has not
answered when the session is :data:`RSVP_ASK_BEFORE` away: the session row is locked (SKIP
LOCKED) and marked in the transaction that raises the notifications, and each carries a dedupe
key, so overlapping beat runs never ask twice. The ask is a ``session_scheduled`` notification
(not urgent), so each member's digest and quiet hours apply. Moving the session re-arms it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Final

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext

from campaign.members import campaign_touch
from campaign.models import Membership
from notifications import EventType, notify, texts

from .models import GameSession, RsvpAnswer, SessionRsvp
from .sessions import session_path

if TYPE_CHECKING:
    from accounts.models import User
    from campaign.permissions import CampaignAccess

#: How long before a session the members who have not answered are asked.
RSVP_ASK_BEFORE: Final = timedelta(days=2)
MAX_NOTE: Final = 200


@dataclass(frozen=True, slots=True)
class RsvpCounts:
    yes: int = 0
    maybe: int = 0
    no: int = 0
    unanswered: int = 0

    @property
    def words(self) -> str:
        parts = [
            gettext("%(count)s coming") % {"count": self.yes},
            gettext("%(count)s maybe") % {"count": self.maybe},
            gettext("%(count)s not coming") % {"count": self.no},
        ]
        if self.unanswered:
            parts.append(gettext("%(count)s not answered") % {"count": self.unanswered})
        return gettext(", ").join(parts)

    def as_dict(self) -> dict[str, int]:
        return {
            "yes": self.yes,
            "maybe": self.maybe,
            "no": self.no,
            "unanswered": self.unanswered,
        }


@transaction.atomic
def rsvp_answer(
    *,
    session: GameSession,
    by: CampaignAccess,
    user: User,
    answer: str,
    note: str = "",
    now: datetime | None = None,
) -> SessionRsvp:
    """``user`` answers for herself (members only, before the session starts)."""
    now = now or timezone.now()
    if not by.is_member or by.campaign_id != session.campaign_id or by.user_id != user.pk:
        raise PermissionDenied(gettext("Only the campaign's members answer, each for herself."))
    errors: dict[str, list[str]] = {}
    if answer not in RsvpAnswer.values:
        errors["answer"] = [
            gettext("Answer one of %(answers)s.")
            % {"answers": ", ".join(str(label) for label in RsvpAnswer.labels)}
        ]
    if len(note) > MAX_NOTE:
        errors["note"] = [gettext("A note is at most %(most)s characters.") % {"most": MAX_NOTE}]
    if session.starts_at <= now:
        errors["answer"] = [gettext("The session has started: answers are closed.")]
    if errors:
        raise ValidationError(errors)
    rsvp, _ = SessionRsvp.objects.update_or_create(
        session=session, user=user, defaults={"answer": answer, "note": note.strip()}
    )
    campaign_touch(session.campaign_id)
    return rsvp


def rsvps_of(session: GameSession) -> list[SessionRsvp]:
    return list(session.rsvps.select_related("user").order_by("user__username"))


def rsvp_counts(session: GameSession) -> RsvpCounts:
    """The current members' answers to ``session`` counted, and how many have not answered
    (two queries; a member who left no longer counts)."""
    members = Membership.objects.filter(campaign_id=session.campaign_id).values("user_id")
    counted = dict(
        SessionRsvp.objects.filter(session=session, user_id__in=members)
        .values("answer")
        .annotate(n=Count("pk"))
        .values_list("answer", "n")
    )
    return RsvpCounts(
        yes=counted.get(RsvpAnswer.YES, 0),
        maybe=counted.get(RsvpAnswer.MAYBE, 0),
        no=counted.get(RsvpAnswer.NO, 0),
        unanswered=max(0, members.count() - sum(counted.values())),
    )


def rsvp_reminders_send(*, now: datetime | None = None, limit: int = 500) -> int:
    """Ask the members who have not answered, once per session, for every session starting
    within :data:`RSVP_ASK_BEFORE`. Returns how many members were asked."""
    now = now or timezone.now()
    due = list(
        GameSession.objects.filter(
            rsvp_reminded_at__isnull=True, starts_at__gt=now, starts_at__lte=now + RSVP_ASK_BEFORE
        )
        .order_by("starts_at")
        .values_list("pk", flat=True)[:limit]
    )
    asked = 0
    for pk in due:
        with transaction.atomic():
            session = (
                GameSession.objects.select_for_update(skip_locked=True, of=("self",))
                .select_related("campaign")
                .filter(pk=pk, rsvp_reminded_at__isnull=True, starts_at__gt=now)
                .first()
            )
            if session is None:
                continue
            session.rsvp_reminded_at = now
            session.save(update_fields=["rsvp_reminded_at"])
            answered = set(session.rsvps.values_list("user_id", flat=True))
            for membership in (
                Membership.objects.filter(campaign_id=session.campaign_id)
                .exclude(user_id__in=answered)
                .select_related("user")
                .order_by("pk")
            ):
                created = notify(
                    recipient=membership.user,
                    event=EventType.SESSION_SCHEDULED,
                    campaign=session.campaign,
                    title=texts.gettext_lazy("Will you come? %(title)s", title=session.title),
                    # the time in each player's zone and language
                    body=texts.gettext_lazy(
                        "%(title)s starts %(when)s. Answer yes, maybe or no on its page.",
                        title=session.title,
                        when=session.starts_at,
                    ),
                    url=session_path(session),
                    dedupe_key=f"rsvp_ask:{session.pk}:{session.starts_at.isoformat()}",
                )
                asked += created is not None
    return asked
