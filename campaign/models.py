"""Campaign core: campaigns, who is in them with which role, and the roll log."""

from __future__ import annotations

from typing import Final

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from westernroses.house_rules import HouseRules

#: The longest prose a campaign's text fields take (description, session agenda and summary, GM
#: note and handout bodies), in the API and the pages: a long chapter, never a real limit.
MAX_PROSE: Final = 20_000
#: The most members or characters one request names (handout recipients, attendance, an
#: award's characters): more than any table seats; campaigns have no other cap.
MAX_NAMED: Final = 200


class Role(models.TextChoices):
    GM = "gm", _("Game master")
    PLAYER = "player", _("Player")


class Campaign(models.Model):
    """A campaign run by one or more GMs. Its house rules feed every engine call made in it."""

    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="campaigns_created"
    )
    house_rules = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("name", "pk")

    def __str__(self) -> str:
        return self.name

    def rules(self) -> HouseRules:
        """The engine's house rules for this campaign (defaults for anything not set)."""
        return HouseRules.from_dict(self.house_rules)


class Membership(models.Model):
    """One user's role in one campaign. A user is in a campaign at most once."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=("campaign", "user"), name="one_membership_per_user")
        ]
        ordering = ("role", "joined_at")

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) in {self.campaign}"


class Roll(models.Model):
    """One logged dice roll. Seed and sequence let anyone re-derive the dice and verify it."""

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="rolls", null=True, blank=True
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rolls"
    )
    label = models.CharField(max_length=120, blank=True)
    notation = models.CharField(max_length=60)
    target = models.IntegerField(null=True, blank=True)
    total = models.IntegerField()
    margin = models.IntegerField(null=True, blank=True)
    success = models.BooleanField(null=True, blank=True)
    critical = models.CharField(max_length=10, blank=True)
    secret = models.BooleanField(
        default=False, help_text="Seen only by the roller and the campaign's GMs."
    )
    detail = models.JSONField(default=dict, help_text="Dice, modifiers, seed, sequence, rules.")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ("-created_at", "-pk")
        indexes = [models.Index(fields=("campaign", "-created_at"))]

    def __str__(self) -> str:
        return f"{self.notation} = {self.total}"

    @property
    def dice(self) -> list[int]:
        return list(self.detail.get("dice", []))
