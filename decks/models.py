"""GM-added cards and saved decks for the tavern card games (RSO and DBS).

A :class:`CustomCard` stores one card exactly as the engine reads it (``data``): the card *is*
its data, validated by the engine's ``validate_card`` on every write (``decks.services``).
``name``, ``kind``, ``cost`` and ``characters`` are copies kept for lists and filters only.
A card belongs to one campaign (its members may use it) or, with no campaign, to the whole
site (added by staff).

A :class:`Deck` is a user's named list of card numbers for one game, optionally tied to a
campaign so it may use that campaign's GM cards. Decks may be saved while illegal (a deck is
built a few cards at a time); only legal ones are offered at a table (``decks.selectors``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from .games import GAME_CHOICES

#: Bounds on stored sizes (the services refuse more with a field error, never a 500).
MAX_NAME = 80
MAX_NUMBER = 12
MAX_CARD_JSON = 8000
MAX_DECK_CARDS = 120


class CustomCard(models.Model):
    """One card a GM (or staff, site-wide) added to a game's card set."""

    game = models.CharField(max_length=8, choices=GAME_CHOICES)
    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="custom_cards",
        help_text="The campaign whose members may use it; empty for a site-wide card (staff).",
    )
    number = models.CharField(max_length=MAX_NUMBER)
    name = models.CharField(max_length=MAX_NAME, help_text="A copy of data['name'], for lists.")
    kind = models.CharField(max_length=20, help_text="A copy of data['kind'], for filters.")
    cost = models.IntegerField(null=True, blank=True, help_text="A copy of data['cost'].")
    characters = models.JSONField(
        default=list, blank=True, help_text="Character names the card belongs to (filters)."
    )
    data = models.JSONField(help_text="The card as the engine reads it.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="custom_cards"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("game", "number", "pk")
        constraints = [
            models.UniqueConstraint(
                fields=("game", "campaign", "number"), name="custom_card_number_per_campaign"
            ),
            models.UniqueConstraint(
                fields=("game", "number"),
                condition=models.Q(campaign__isnull=True),
                name="custom_card_number_site_wide",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.number})"


class Deck(models.Model):
    """A user's saved, named deck for one game: card numbers, one entry per copy."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_decks"
    )
    game = models.CharField(max_length=8, choices=GAME_CHOICES)
    name = models.CharField(max_length=MAX_NAME)
    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="game_decks",
        help_text="Use this campaign's GM cards (only while the owner is a member).",
    )
    cards = models.JSONField(default=list, blank=True, help_text="Card numbers, one per copy.")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("game", "name", "pk")
        indexes = [models.Index(fields=("owner", "game"), name="deck_owner_game")]

    def __str__(self) -> str:
        return self.name
