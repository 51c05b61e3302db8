"""Members: promote to GM, demote, remove, leave. A campaign always keeps at least one GM.

Every change locks the campaign row first (``select_for_update``), so two GMs demoting each
other at the same moment are serialised and the second one finds that it would leave the
campaign without a GM. Refusals are ``ValidationError`` with the field they are about (the API
turns them into 400s with field errors; pages show the message).

**What happens to a leaving member's characters.** Player characters stay *theirs* but leave
the campaign (``campaign`` becomes empty): the player keeps the sheet, the deck and the notes
and can bring the character to another table, and the campaign's members no longer see it.
NPCs belong to the table, not to the person: a leaving GM's NPCs are handed to a GM who stays
(the one who removed them, or the longest-serving GM). Sessions, attendance, awards and
level-ups stay in the campaign's history.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from .models import Campaign, Membership, Role

if TYPE_CHECKING:
    from accounts.models import User

    from .permissions import CampaignAccess

LAST_GM = "A campaign needs at least one game master: promote another member first."


def campaign_touch(campaign_id: int) -> None:
    """Mark the campaign changed, so the GM dashboard's version (its ETag) moves on."""
    Campaign.objects.filter(pk=campaign_id).update(updated_at=timezone.now())


def _check_manager(campaign: Campaign, by: CampaignAccess) -> None:
    if not by.can_manage or by.campaign_id != campaign.pk:
        raise PermissionDenied("Only the campaign's game masters may change its members.")


def _lock(campaign: Campaign) -> None:
    Campaign.objects.select_for_update().filter(pk=campaign.pk).values_list("pk").first()


def _membership(campaign: Campaign, user_id: int) -> Membership:
    membership = (
        Membership.objects.select_for_update()
        .select_related("user")
        .filter(campaign=campaign, user_id=user_id)
        .first()
    )
    if membership is None:
        raise ValidationError({"user": ["That user is not a member of this campaign."]})
    return membership


def _other_gms(campaign: Campaign, user_id: int) -> list[int]:
    return list(
        Membership.objects.filter(campaign=campaign, role=Role.GM)
        .exclude(user_id=user_id)
        .order_by("joined_at", "pk")
        .values_list("user_id", flat=True)
    )


@transaction.atomic
def membership_set_role(
    *, campaign: Campaign, user_id: int, role: str, by: CampaignAccess
) -> Membership:
    """Promote a member to GM or demote a GM to player (GMs only; never the last GM)."""
    _check_manager(campaign, by)
    if role not in Role.values:
        raise ValidationError({"role": [f"Choose one of: {', '.join(Role.values)}."]})
    _lock(campaign)
    membership = _membership(campaign, user_id)
    if membership.role == role:
        return membership
    if membership.role == Role.GM and not _other_gms(campaign, user_id):
        raise ValidationError({"role": [LAST_GM]})
    membership.role = role
    membership.save(update_fields=["role"])
    campaign_touch(campaign.pk)
    return membership


def _detach(campaign: Campaign, user_id: int, npc_heir_id: int) -> None:
    """The leaver's player characters leave with them; their NPCs stay with a GM."""
    from characters.models import Character

    from .models import Handout

    Character.objects.filter(campaign=campaign, owner_id=user_id, is_npc=False).update(
        campaign=None, updated_at=timezone.now()
    )
    Character.objects.filter(campaign=campaign, owner_id=user_id, is_npc=True).update(
        owner_id=npc_heir_id, updated_at=timezone.now()
    )
    Handout.recipients.through.objects.filter(handout__campaign=campaign, user_id=user_id).delete()


def _leave(campaign: Campaign, membership: Membership, heir_id: int | None) -> None:
    others = _other_gms(campaign, membership.user_id)
    if membership.role == Role.GM and not others:
        raise ValidationError({"user": [LAST_GM]})
    # Only a leaving player can find no other GM here, and players own no NPCs.
    heir = heir_id if heir_id in others else (others[0] if others else membership.user_id)
    _detach(campaign, membership.user_id, heir)
    membership.delete()
    campaign_touch(campaign.pk)


@transaction.atomic
def membership_remove(*, campaign: Campaign, user_id: int, by: CampaignAccess) -> None:
    """A GM removes a member (not themselves: that is leaving). See the module docstring for
    what happens to the member's characters."""
    _check_manager(campaign, by)
    if user_id == by.user_id:
        raise ValidationError({"user": ["To remove yourself, leave the campaign."]})
    _lock(campaign)
    _leave(campaign, _membership(campaign, user_id), heir_id=by.user_id)


@transaction.atomic
def membership_leave(*, campaign: Campaign, user: User) -> None:
    """A member leaves (players and GMs alike, but never the last GM)."""
    _lock(campaign)
    membership = Membership.objects.select_for_update().filter(campaign=campaign, user=user).first()
    if membership is None:
        raise ValidationError({"user": ["You are not a member of this campaign."]})
    _leave(campaign, membership, heir_id=None)


def membership_add(*, campaign: Campaign, user: User, role: str, by: CampaignAccess) -> Membership:
    """Add or re-role a member. Only GMs may (the caller's access is checked again here)."""
    from django.core.exceptions import PermissionDenied

    if not by.can_manage or by.campaign_id != campaign.pk:
        raise PermissionDenied("Only the campaign's game masters may add members.")
    membership, created = Membership.objects.get_or_create(
        campaign=campaign, user=user, defaults={"role": role}
    )
    if not created and membership.role != role:
        # A change of role keeps the campaign's last GM (ValidationError otherwise).
        return membership_set_role(campaign=campaign, user_id=user.pk, role=role, by=by)
    if created:
        campaign_touch(campaign.pk)
    return membership
