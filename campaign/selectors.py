"""Reads: what a user may see, shaped for pages and the API, in a fixed number of queries."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Q, QuerySet

from .models import Campaign, Membership, Roll

if TYPE_CHECKING:
    from accounts.models import User

    from .permissions import CampaignAccess


def campaigns_for_user(user: User) -> QuerySet[Campaign]:
    """Campaigns the user is a member of, each annotated with ``my_role``."""
    from django.db.models import OuterRef, Subquery

    role = Membership.objects.filter(campaign=OuterRef("pk"), user=user).values("role")[:1]
    return Campaign.objects.filter(memberships__user=user).annotate(my_role=Subquery(role))


def campaign_members(campaign: Campaign) -> QuerySet[Membership]:
    return campaign.memberships.select_related("user").order_by("role", "user__username")


def rolls_visible_to(access: CampaignAccess) -> QuerySet[Roll]:
    """The campaign's roll log as this member may see it: secret rolls only for GMs and roller,
    rolls hidden from their roller (mental checks, house rule) only for GMs."""
    rolls = Roll.objects.filter(campaign_id=access.campaign_id).select_related("user")
    if not access.is_gm:
        # The key is only ever written as true; ``has_key`` (not ``=True``) keeps the rows
        # without it (a JSON key comparison is NULL there, and NOT NULL excludes them).
        rolls = rolls.filter(Q(secret=False) | Q(user_id=access.user_id)).exclude(
            detail__has_key="hidden_from_roller"
        )
    return rolls


def personal_rolls(user: User) -> QuerySet[Roll]:
    """Rolls a user made outside any campaign (the dice page's own log)."""
    return Roll.objects.filter(user=user, campaign__isnull=True).select_related("user")
