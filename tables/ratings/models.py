"""A rating per player (a user, or a bot strength), game and scope; a history row per rated
game she played; one row per rated result, so a result is counted once.

The scope is the site (``campaign`` empty: open tables) or one campaign (its tavern's rated
tables): the two never mix, so a campaign's leaderboard is its own. ``mu`` and ``sigma`` are
OpenSkill's (Plackett-Luce); the number people see is :func:`tables.ratings.scale.shown`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

#: The bot strengths a rating may belong to (minigames.models.BOT_STRENGTHS, in words).
BOT_NAMES: dict[str, StrOrPromise] = {
    "random": _("Random bot"),
    "heuristic": _("Heuristic bot"),
    "search": _("Search bot"),
}


class Rating(models.Model):
    """One player's (or one bot strength's) rating at one game in one scope."""

    game = models.CharField(max_length=20, help_text="The game's slug (raigo, spirit_war ...).")
    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="ratings",
        help_text="The campaign whose rated tables count; empty: the site's open tables.",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="ratings",
    )
    bot = models.CharField(max_length=10, blank=True, help_text="A bot strength, or empty.")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            # a user or a bot, never both nor neither
            models.CheckConstraint(
                condition=(Q(user__isnull=False) & Q(bot="")) | (Q(user__isnull=True) & ~Q(bot="")),
                name="rating_user_or_bot",
            ),
            # one rating per identity, game and scope (the site's scope has no campaign, and
            # NULLs are distinct in a plain unique constraint: one constraint per case)
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=Q(campaign__isnull=True, user__isnull=False),
                name="rating_site_user",
            ),
            models.UniqueConstraint(
                fields=["game", "bot"],
                condition=Q(campaign__isnull=True, user__isnull=True),
                name="rating_site_bot",
            ),
            models.UniqueConstraint(
                fields=["game", "campaign", "user"],
                condition=Q(campaign__isnull=False, user__isnull=False),
                name="rating_campaign_user",
            ),
            models.UniqueConstraint(
                fields=["game", "campaign", "bot"],
                condition=Q(campaign__isnull=False, user__isnull=True),
                name="rating_campaign_bot",
            ),
        ]
        indexes = [models.Index(fields=["game", "campaign"])]

    def __str__(self) -> str:
        return f"{self.name} at {self.game}"

    @property
    def name(self) -> str:
        """The player's shown name, or the bot's ("Search bot")."""
        if self.user_id is not None and self.user is not None:
            return str(self.user.shown_name)
        return str(BOT_NAMES.get(self.bot, _("A bot")))


class RatedResult(models.Model):
    """A result that has been counted: its ``key`` (``minigames.taverntable:12``) is unique,
    so a finish seen twice (a repeated request, a retried task) changes nothing the second
    time."""

    key = models.CharField(max_length=80, unique=True)
    game = models.CharField(max_length=20)
    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField()

    def __str__(self) -> str:
        return self.key


class RatingChange(models.Model):
    """What one rated game did to one rating: before and after, and how she placed."""

    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="changes")
    result = models.ForeignKey(RatedResult, on_delete=models.CASCADE, related_name="changes")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    outcome = models.CharField(max_length=10, help_text="won, lost, drew or placed.")
    place = models.PositiveSmallIntegerField(help_text="1 for the best placed team.")
    teams = models.PositiveSmallIntegerField(help_text="How many teams played.")
    url = models.CharField(max_length=200, blank=True, help_text="The table's page, or empty.")
    at = models.DateTimeField()

    class Meta:
        ordering = ("-at", "-pk")
        constraints = [
            models.UniqueConstraint(fields=["rating", "result"], name="rating_change_once")
        ]

    def __str__(self) -> str:
        return f"{self.rating} after {self.result}"
