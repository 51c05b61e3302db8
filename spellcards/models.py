"""Spellcards owned by characters, the decks that hold them, and the GM's template cards.

A :class:`Spellcard` stores the engine's :class:`~westernroses.spellcards.card.SpellcardDraft`
as JSON (``SpellcardDraft.to_dict``): the draft is the card. ``name``, ``card_type``,
``is_bomb`` and ``cost`` are copies kept for listing and ordering only. ``cost`` depends on the
caster (element, shot-type, house rules), so it is recomputed by ``spellcards.services`` on every
save and is never used for rules: pages and the API price a card live with the engine.

Rules live in the engine (``westernroses.spellcards``); writes go through
``spellcards.services``; reads through ``spellcards.selectors``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Spellcard(models.Model):
    """One designed card of one character (a deck lists it with a number of copies)."""

    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, related_name="spellcards"
    )
    name = models.CharField(max_length=120, help_text="A copy of the draft's name, for lists.")
    card_type = models.CharField(max_length=20, help_text="A copy of the draft's type.")
    is_bomb = models.BooleanField(default=False, help_text="A copy of the draft's bomb flag.")
    cost = models.IntegerField(
        default=0,
        help_text="Activation cost when last saved (for lists only; recomputed on every save).",
    )
    draft = models.JSONField(help_text="The engine's SpellcardDraft.to_dict().")
    description = models.TextField(
        blank=True, help_text="What the card does, in the owner's words (the GM adjudicates)."
    )
    source_template = models.ForeignKey(
        "TemplateCard",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="copies",
        help_text="The campaign template this card was copied from, if any.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("name", "pk")
        indexes = [models.Index(fields=("character", "name"), name="spellcard_character_name")]

    def __str__(self) -> str:
        return self.name


class DeckEntry(models.Model):
    """``copies`` of one of the character's cards in the character's deck.

    ``character`` repeats ``spellcard.character`` so the deck is one indexed query and the
    unique constraint holds per deck; ``services.deck_set_copies`` keeps the two equal.
    """

    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, related_name="deck_entries"
    )
    spellcard = models.ForeignKey(Spellcard, on_delete=models.CASCADE, related_name="deck_entries")
    copies = models.PositiveSmallIntegerField(default=1)

    class Meta:
        ordering = ("spellcard__name", "pk")
        constraints = [
            models.UniqueConstraint(
                fields=("character", "spellcard"), name="one_deck_entry_per_card"
            ),
            models.CheckConstraint(condition=models.Q(copies__gte=1), name="deck_copies_gte_1"),
        ]

    def __str__(self) -> str:
        return f"{self.copies} × {self.spellcard}"


class TemplateCard(models.Model):
    """A card the campaign's GM designed for players to copy onto their characters.

    Templates belong to no character, so they have no cost of their own: a copy is priced and
    validated for the character it is copied to (illegal parts are reported, never dropped).
    """

    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="template_cards"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="template_cards"
    )
    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    draft = models.JSONField(help_text="The engine's SpellcardDraft.to_dict().")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("name", "pk")

    def __str__(self) -> str:
        return self.name
