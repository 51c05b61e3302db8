"""The one permission layer: who may see and change what in a campaign.

Views, API views, templates and services all ask :func:`access_for` and the
:class:`CampaignAccess` it returns; nothing else decides permissions. The policy:

* outsiders (not members) may not learn a campaign exists: lookups answer 404;
* members read what is public (members, the roll log, public sheets);
* players act for their own things (``owner_id`` is theirs);
* GMs manage the campaign and may act for everything in it.

Secret things (a player's private notes, hands, secret rolls) are readable only by their
owner and the campaign's GMs: :meth:`CampaignAccess.can_see_private`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.http import Http404
from django.utils.translation import gettext as _

from apibase.numbers import object_id

from .models import Campaign, Membership, Role

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User


@dataclass(frozen=True, slots=True)
class CampaignAccess:
    """What one user may do in one campaign."""

    campaign_id: int
    user_id: int | None
    role: str | None

    @property
    def is_member(self) -> bool:
        return self.role is not None

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM

    @property
    def is_player(self) -> bool:
        return self.role == Role.PLAYER

    @property
    def can_view(self) -> bool:
        """Members read the campaign's public pages; outsiders see nothing (404)."""
        return self.is_member

    @property
    def can_manage(self) -> bool:
        """Settings, membership, NPCs, overrides: GMs only."""
        return self.is_gm

    def owns(self, owner_id: int | None) -> bool:
        return self.user_id is not None and owner_id == self.user_id

    def can_act_for(self, owner_id: int | None) -> bool:
        """Players act for their own things; GMs for everything in their campaign."""
        return self.is_gm or (self.is_member and self.owns(owner_id))

    def can_edit(self, owner_id: int | None) -> bool:
        return self.can_act_for(owner_id)

    def can_see_private(self, owner_id: int | None) -> bool:
        """Private notes, hands, secret rolls: their owner and the GMs."""
        return self.is_gm or self.owns(owner_id)

    def can_see_roll(self, roll: Any) -> bool:
        """Secret rolls: the roller and the GMs; a roll hidden from its roller (a player's
        mental check, house rule ``mental_rolls_secret``): the GMs only."""
        if (roll.detail or {}).get("hidden_from_roller"):
            return self.can_view and self.is_gm
        return self.can_view and (not roll.secret or self.can_see_private(roll.user_id))


def access_for(user: User | AnonymousUser | None, campaign: Campaign | int) -> CampaignAccess:
    """The access of ``user`` in ``campaign``, memoised on the campaign instance."""
    campaign_id = campaign if isinstance(campaign, int) else campaign.pk
    user_id = user.pk if user is not None and user.is_authenticated else None
    cache: dict[int | None, CampaignAccess] | None = None
    if isinstance(campaign, Campaign):
        cache = campaign.__dict__.setdefault("_access_cache", {})
        if user_id in cache:
            return cache[user_id]
    role = None
    if user_id is not None:
        role = (
            Membership.objects.filter(campaign_id=campaign_id, user_id=user_id)
            .values_list("role", flat=True)
            .first()
        )
    access = CampaignAccess(campaign_id=campaign_id, user_id=user_id, role=role)
    if cache is not None:
        cache[user_id] = access
    return access


def role_column(user: User | AnonymousUser | None, campaign: Any = None) -> dict[str, Any]:
    """An annotation carrying ``user``'s role in the row's campaign (``campaign``: the
    expression naming it, default the row's ``campaign_id``), so a query that reads a
    campaign's row (a battle a move reads) learns her access in the same round trip.
    Read it back with :func:`access_from_row`. Empty for an anonymous user (no query needed).
    """
    from django.db.models import OuterRef, Subquery

    if user is None or not user.is_authenticated:
        return {}
    roles = Membership.objects.filter(
        campaign_id=campaign if campaign is not None else OuterRef("campaign_id"),
        user_id=user.pk,
    ).values("role")[:1]
    return {f"role_of_user_{user.pk}": Subquery(roles)}


def access_from_row(
    row: Any, user: User | AnonymousUser | None, campaign_id: int
) -> CampaignAccess | None:
    """``user``'s access from a row annotated by :func:`role_column` (None when it was not:
    the caller asks :func:`access_for`)."""
    if user is None or not user.is_authenticated:
        return CampaignAccess(campaign_id=campaign_id, user_id=None, role=None)
    name = f"role_of_user_{user.pk}"
    if name not in row.__dict__:
        return None
    return CampaignAccess(campaign_id=campaign_id, user_id=user.pk, role=row.__dict__[name])


def campaign_for(
    user: User | AnonymousUser, campaign_id: int | str, *, manage: bool = False
) -> tuple[Campaign, CampaignAccess]:
    """Fetch a campaign the user may see, else 404; ``manage`` additionally needs a GM.

    A member without the right gets ``PermissionDenied`` (403): they know the campaign exists.
    """
    from django.core.exceptions import PermissionDenied

    # Only ASCII digits name a campaign (int() would read "1_0" as 10), up to the largest id.
    pk = object_id(campaign_id) if isinstance(campaign_id, int | str) else None
    try:
        if pk is None:
            raise Campaign.DoesNotExist
        campaign = Campaign.objects.get(pk=pk)
    except Campaign.DoesNotExist:
        raise Http404(_("No such campaign.")) from None
    access = access_for(user, campaign)
    if not access.can_view:
        raise Http404(_("No such campaign."))
    if manage and not access.can_manage:
        raise PermissionDenied(_("Only the campaign's game masters may do that."))
    return campaign, access


@dataclass(frozen=True, slots=True)
class OwnedAccess:
    """What one user may do with one owned thing (a character ...), in a campaign or in none.

    The campaign's policy applies, plus one rule a campaign cannot give: an owner always sees
    and edits their own thing, even outside any campaign (a character built before joining a
    table) or after leaving it. ``campaign`` is None for things in no campaign: then only the
    owner may see them at all.
    """

    campaign: CampaignAccess | None
    owner_id: int | None
    is_owner: bool

    @property
    def is_gm(self) -> bool:
        return self.campaign is not None and self.campaign.is_gm

    @property
    def can_view(self) -> bool:
        """The public sheet: the owner and every member of the thing's campaign."""
        return self.is_owner or (self.campaign is not None and self.campaign.can_view)

    @property
    def can_edit(self) -> bool:
        """Changing it: the owner and the campaign's GMs."""
        return self.is_owner or (
            self.campaign is not None and self.campaign.can_act_for(self.owner_id)
        )

    @property
    def can_see_private(self) -> bool:
        """Private notes: the owner and the campaign's GMs, never other players."""
        return self.is_owner or (
            self.campaign is not None and self.campaign.can_see_private(self.owner_id)
        )

    @property
    def can_manage(self) -> bool:
        """GM-only changes (raising a level, waiving a rule): the campaign's GMs."""
        return self.is_gm


def owned_access(
    user: User | AnonymousUser | None, campaign: Campaign | int | None, owner_id: int | None
) -> OwnedAccess:
    """The access of ``user`` to a thing owned by ``owner_id`` in ``campaign`` (or in none)."""
    user_id = user.pk if user is not None and user.is_authenticated else None
    campaign_access = access_for(user, campaign) if campaign is not None else None
    is_owner = user_id is not None and owner_id == user_id
    return OwnedAccess(campaign=campaign_access, owner_id=owner_id, is_owner=is_owner)
