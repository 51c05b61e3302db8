"""Memberships: add a member, promote to GM, demote. A campaign always keeps at least one GM.

Every change locks the campaign row first (:func:`campaign_lock`), so two GMs demoting each
other at the same moment are serialised and the second one finds that it would leave the
campaign without a GM. Refusals are ``ValidationError`` with the field they are about (the API
turns them into 400s with field errors; pages show the message).

Leaving and removal take the member's characters and handouts along, so they are the GM tools'
(``gmtools.members``), built on the locks and checks here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .models import Campaign, Membership, Role

if TYPE_CHECKING:
    from accounts.models import User

    from .permissions import CampaignAccess

LAST_GM = _("A campaign needs at least one game master: promote another member first.")


def campaign_touch(campaign_id: int) -> None:
    """Mark the campaign changed, so the GM dashboard's version (its ETag) moves on."""
    Campaign.objects.filter(pk=campaign_id).update(updated_at=timezone.now())


def check_manager(campaign: Campaign, by: CampaignAccess) -> None:
    if not by.can_manage or by.campaign_id != campaign.pk:
        raise PermissionDenied(_("Only the campaign's game masters may change its members."))


def campaign_lock(campaign: Campaign) -> None:
    """Lock the campaign's row until the caller's transaction ends (membership changes)."""
    Campaign.objects.select_for_update().filter(pk=campaign.pk).values_list("pk").first()


def membership_locked(campaign: Campaign, user_id: int) -> Membership:
    """``user_id``'s membership, locked; a ``ValidationError`` on ``user`` if there is none."""
    membership = (
        Membership.objects.select_for_update()
        .select_related("user")
        .filter(campaign=campaign, user_id=user_id)
        .first()
    )
    if membership is None:
        raise ValidationError({"user": [_("That user is not a member of this campaign.")]})
    return membership


def other_gms(campaign: Campaign, user_id: int) -> list[int]:
    """The campaign's GMs but ``user_id``, longest-serving first."""
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
    check_manager(campaign, by)
    if role not in Role.values:
        raise ValidationError(
            {
                "role": [
                    _("Choose one of: %(roles)s.")
                    % {"roles": ", ".join(str(label) for label in Role.labels)}
                ]
            }
        )
    campaign_lock(campaign)
    membership = membership_locked(campaign, user_id)
    if membership.role == role:
        return membership
    if membership.role == Role.GM and not other_gms(campaign, user_id):
        raise ValidationError({"role": [LAST_GM]})
    membership.role = role
    membership.save(update_fields=["role"])
    campaign_touch(campaign.pk)
    return membership


def membership_add(*, campaign: Campaign, user: User, role: str, by: CampaignAccess) -> Membership:
    """Add or re-role a member. Only GMs may (the caller's access is checked again here)."""
    if not by.can_manage or by.campaign_id != campaign.pk:
        raise PermissionDenied(_("Only the campaign's game masters may add members."))
    membership, created = Membership.objects.get_or_create(
        campaign=campaign, user=user, defaults={"role": role}
    )
    if not created and membership.role != role:
        # A change of role keeps the campaign's last GM (ValidationError otherwise).
        return membership_set_role(campaign=campaign, user_id=user.pk, role=role, by=by)
    if created:
        campaign_touch(campaign.pk)
    return membership
