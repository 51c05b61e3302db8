"""Invitations: links that let people join a campaign, with a role, until they expire.

A GM creates a link (``/campaigns/join/<token>/``) with a role, an expiry (7 days unless they
choose) and optionally a number of uses (1: single-use), copies it to the group chat, and may
revoke it. Whoever opens it while logged in sees the campaign's name and a Join button; a
link that expired, was revoked or is used up says so (410), never a 500. A GM may also invite
an existing user by username: that sends them an ``invitation`` notification with the link,
and only that user may use it.

Accepting locks the invitation row, so the last use of a single-use link goes to exactly one
person however many click at once; someone already in the campaign is sent to it and uses
nothing up.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.http import Http404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from campaign.members import campaign_touch
from campaign.models import Campaign, Membership, Role
from notifications import EventType, notify, texts

from .models import Invitation, InvitationAcceptance

if TYPE_CHECKING:
    from accounts.models import User
    from campaign.permissions import CampaignAccess

DEFAULT_EXPIRY_DAYS = 7
MAX_EXPIRY_DAYS = 90

#: What a link that does not work says, by state (the page and the API use the same words).
STATE_MESSAGES = {
    "revoked": "This invitation was revoked by the campaign's game master.",
    "expired": "This invitation has expired. Ask the game master for a new link.",
    "used": "This invitation has already been used. Ask the game master for a new link.",
    "not_for_you": "This invitation was made for someone else.",
}


class InvitationUnusable(Exception):
    """The link exists but cannot be used (``state``: revoked, expired, used, not_for_you)."""

    def __init__(self, state: str) -> None:
        super().__init__(STATE_MESSAGES[state])
        self.state = state


def invitation_path(invitation: Invitation) -> str:
    return reverse("gmtools:join", args=[invitation.token])


# --------------------------------------------------------------------------- writes


@transaction.atomic
def invitation_create(
    *,
    campaign: Campaign,
    by: CampaignAccess,
    created_by: User,
    role: str = Role.PLAYER,
    expires_in_days: int = DEFAULT_EXPIRY_DAYS,
    max_uses: int | None = None,
    invited_user: User | None = None,
    note: str = "",
    now: datetime | None = None,
) -> Invitation:
    """A new link (GMs only). With ``invited_user`` it is theirs alone, single-use, and they
    get an ``invitation`` notification carrying it."""
    if not by.can_manage or by.campaign_id != campaign.pk:
        raise PermissionDenied(gettext("Only the campaign's game masters invite people."))
    errors: dict[str, list[str]] = {}
    if role not in Role.values:
        errors["role"] = [
            gettext("Choose one of: %(roles)s.")
            % {"roles": ", ".join(str(label) for label in Role.labels)}
        ]
    if not 1 <= expires_in_days <= MAX_EXPIRY_DAYS:
        errors["expires_in_days"] = [
            gettext("Between 1 and %(most)s days.") % {"most": MAX_EXPIRY_DAYS}
        ]
    if max_uses is not None and max_uses < 1:
        errors["max_uses"] = [gettext("At least 1 (leave it empty for no limit).")]
    if invited_user is not None:
        if Membership.objects.filter(campaign=campaign, user=invited_user).exists():
            errors["username"] = [
                gettext("%(username)s is already a member.") % {"username": invited_user.username}
            ]
        max_uses = 1
    if errors:
        raise ValidationError(errors)
    now = now or timezone.now()
    invitation = Invitation.objects.create(
        campaign=campaign,
        token=secrets.token_urlsafe(32),
        role=role,
        created_by=created_by,
        invited_user=invited_user,
        note=note[:120],
        expires_at=now + timedelta(days=expires_in_days),
        max_uses=max_uses,
    )
    if invited_user is not None:
        notify(
            recipient=invited_user,
            event=EventType.INVITATION,
            campaign=campaign,
            title=texts.gettext_lazy("You are invited to %(campaign)s", campaign=campaign.name),
            body=texts.gettext_lazy(
                "%(gm)s invites you to join as %(role)s.",
                gm=created_by.shown_name,
                role=Role(role).label,
            ),
            url=invitation_path(invitation),
            dedupe_key=f"invitation:{invitation.pk}",
        )
    campaign_touch(campaign.pk)
    return invitation


@transaction.atomic
def invitation_revoke(
    *, invitation: Invitation, by: CampaignAccess, now: datetime | None = None
) -> Invitation:
    """Stop a link from working (GMs only). Revoking twice keeps the first time."""
    if not by.can_manage or by.campaign_id != invitation.campaign_id:
        raise PermissionDenied(gettext("Only the campaign's game masters revoke invitations."))
    if invitation.revoked_at is None:
        invitation.revoked_at = now or timezone.now()
        invitation.save(update_fields=["revoked_at"])
        campaign_touch(invitation.campaign_id)
    return invitation


@dataclass(frozen=True, slots=True)
class Joined:
    membership: Membership
    already_member: bool


@transaction.atomic
def invitation_accept(*, token: str, user: User, now: datetime | None = None) -> Joined:
    """Join the campaign with the invitation's role. Unknown tokens raise
    ``Invitation.DoesNotExist``; unusable ones :class:`InvitationUnusable`. A member is not
    moved to the invitation's role (a GM following a player link stays GM) and uses nothing."""
    invitation = Invitation.objects.select_for_update().select_related("campaign").get(token=token)
    existing = Membership.objects.filter(campaign_id=invitation.campaign_id, user=user).first()
    if existing is not None:
        return Joined(existing, already_member=True)
    state = invitation.state(now)
    if state != "active":
        raise InvitationUnusable(state)
    if invitation.invited_user_id is not None and invitation.invited_user_id != user.pk:
        raise InvitationUnusable("not_for_you")
    membership = Membership.objects.create(
        campaign=invitation.campaign, user=user, role=invitation.role
    )
    InvitationAcceptance.objects.create(invitation=invitation, user=user)
    Invitation.objects.filter(pk=invitation.pk).update(uses=F("uses") + 1)
    campaign_touch(invitation.campaign_id)
    return Joined(membership, already_member=False)


# --------------------------------------------------------------------------- reads


def invitation_by_token(token: str) -> Invitation | None:
    """The invitation a link names, or None (a token is at most 64 URL-safe characters)."""
    if not token or len(token) > 64:
        return None
    return Invitation.objects.select_related("campaign", "created_by").filter(token=token).first()


def invitation_for(campaign: Campaign, pk: int | str) -> Invitation:
    """One invitation of this campaign, else 404 (callers already checked the campaign)."""
    try:
        return Invitation.objects.get(campaign=campaign, pk=int(pk))
    except (Invitation.DoesNotExist, ValueError, TypeError):
        raise Http404(gettext("No such invitation.")) from None


def invitations_pending(campaign_id: int, now: datetime | None = None) -> QuerySet[Invitation]:
    """Links that still work: not revoked, not expired, not used up; newest first."""
    now = now or timezone.now()
    return (
        Invitation.objects.filter(campaign_id=campaign_id, revoked_at__isnull=True)
        .filter(expires_at__gt=now)
        .filter(Q(max_uses__isnull=True) | Q(uses__lt=F("max_uses")))
        .select_related("invited_user", "created_by")
        .order_by("-created_at", "-pk")
    )


def invitations_of(campaign_id: int) -> QuerySet[Invitation]:
    """Every invitation of a campaign (GMs' list), with who joined by each."""
    return (
        Invitation.objects.filter(campaign_id=campaign_id)
        .select_related("invited_user", "created_by")
        .prefetch_related("acceptances__user")
        .order_by("-created_at", "-pk")
    )
