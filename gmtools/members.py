"""Leaving and removal: a member leaves a campaign, or a GM removes one. A campaign always
keeps at least one GM (adding members and changing roles: ``campaign.members``).

Every change locks the campaign row first (``campaign.members.campaign_lock``), so a GM leaving
while another is demoted cannot leave the campaign without a GM. Refusals are
``ValidationError`` with the field they are about.

**What happens to a leaving member's characters.** Player characters stay *theirs* but leave
the campaign (``campaign`` becomes empty): the player keeps the sheet, the deck and the notes
and can bring the character to another table, and the campaign's members no longer see it.
NPCs belong to the table, not to the person: a leaving GM's NPCs are handed to a GM who stays
(the one who removed them, or the longest-serving GM). Sessions, attendance, awards and
level-ups stay in the campaign's history.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from campaign.members import (
    LAST_GM,
    campaign_lock,
    campaign_touch,
    check_manager,
    membership_locked,
    other_gms,
)
from campaign.models import Campaign, Membership, Role
from campaign.registry import departing
from characters.models import Character

from .models import Handout

if TYPE_CHECKING:
    from accounts.models import User
    from campaign.permissions import CampaignAccess


def _detach(campaign: Campaign, user_id: int, npc_heir_id: int) -> None:
    """The leaver's player characters leave with them; their NPCs stay with a GM."""
    Character.objects.filter(campaign=campaign, owner_id=user_id, is_npc=False).update(
        campaign=None, updated_at=timezone.now()
    )
    Character.objects.filter(campaign=campaign, owner_id=user_id, is_npc=True).update(
        owner_id=npc_heir_id, updated_at=timezone.now()
    )
    Handout.recipients.through.objects.filter(handout__campaign=campaign, user_id=user_id).delete()


def _announce_departure(campaign_id: int, user_id: int) -> None:
    """Tell the games she (and her player characters) is leaving, while she is still a member
    and her characters still in the campaign (``campaign.registry.departing``): a tavern seat
    resigns, its stake settled as for a resignation; a battle stops waiting on her."""
    characters = Character.objects.filter(campaign_id=campaign_id, owner_id=user_id, is_npc=False)
    departing(
        campaign_id=campaign_id,
        user_id=user_id,
        character_ids=list(characters.values_list("pk", flat=True)),
    )


def _leave(campaign: Campaign, membership: Membership, heir_id: int | None) -> None:
    others = other_gms(campaign, membership.user_id)
    if membership.role == Role.GM and not others:
        raise ValidationError({"user": [LAST_GM]})
    # Only a leaving player can find no other GM here, and players own no NPCs.
    heir = heir_id if heir_id in others else (others[0] if others else membership.user_id)
    _announce_departure(campaign.pk, membership.user_id)
    _detach(campaign, membership.user_id, heir)
    membership.delete()
    campaign_touch(campaign.pk)


@transaction.atomic
def membership_remove(*, campaign: Campaign, user_id: int, by: CampaignAccess) -> None:
    """A GM removes a member (not themselves: that is leaving). See the module docstring for
    what happens to the member's characters."""
    check_manager(campaign, by)
    if user_id == by.user_id:
        raise ValidationError({"user": [gettext("To remove yourself, leave the campaign.")]})
    campaign_lock(campaign)
    _leave(campaign, membership_locked(campaign, user_id), heir_id=by.user_id)


@transaction.atomic
def membership_leave(*, campaign: Campaign, user: User) -> None:
    """A member leaves (players and GMs alike, but never the last GM)."""
    campaign_lock(campaign)
    membership = Membership.objects.select_for_update().filter(campaign=campaign, user=user).first()
    if membership is None:
        raise ValidationError({"user": [gettext("You are not a member of this campaign.")]})
    _leave(campaign, membership, heir_id=None)


def user_deleting(sender: Any, instance: Any, **kwargs: Any) -> None:
    """``pre_delete`` of a user (an administrator deletes an account): she leaves every
    campaign she is a member of first, as :func:`membership_leave` would have her leave (her
    seats resigned, her stakes settled), before the deletion takes her characters with it."""
    for campaign_id in Membership.objects.filter(user_id=instance.pk).values_list(
        "campaign_id", flat=True
    ):
        _announce_departure(campaign_id, instance.pk)
