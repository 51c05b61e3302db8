"""Characters and what they carry.

A :class:`Character` stores a :class:`westernroses.characters.draft.CharacterDraft`: the choices
that lists and filters use (name, shot-type, race, profession, element, level, yen, HP, spell
power, drunkenness) are columns, the rest of the draft (bonus and skill points, abilities,
choices, effects, waivers ...) is JSON in ``draft``, and the inventory is one
:class:`InventoryItem` row per item. Derived numbers (stats, pools, damage) are never stored:
they are computed by the engine from the draft, so a rules fix can never leave a stale number.

``characters.services.character_to_draft`` / ``character_apply_draft`` are the only code that
converts between a row and a draft; the engine is the only place rules live.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


def portrait_upload_to(instance: Character, filename: str) -> str:
    """Portraits are stored under a path naming the character, never the uploader's file name.

    The extension comes from the validated content type (see ``services.portrait_validate``), so
    a file called ``cat.png`` that is really HTML can never be served as anything.
    """
    extension = filename.rsplit(".", 1)[-1].lower() if "." in filename else "img"
    return f"portraits/character-{instance.pk or 'new'}.{extension}"


class Character(models.Model):
    """A player character (owned by a player) or an NPC (owned by a GM), maybe in a campaign.

    ``campaign`` may be empty: a player can build a character before joining a table. Only the
    owner and the campaign's GMs may edit (``campaign.permissions``); other members see the
    public sheet; ``private_notes`` are seen only by the owner and the campaign's GMs.
    """

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="characters"
    )
    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.SET_NULL,
        related_name="characters",
        null=True,
        blank=True,
        help_text="Empty: not (yet) in a campaign. Leaving a deleted campaign keeps the character.",
    )
    is_npc = models.BooleanField(default=False, help_text="A non-player character run by a GM.")
    name = models.CharField(max_length=120)
    shot_type = models.CharField(max_length=40, blank=True)
    race = models.CharField(max_length=40, blank=True)
    profession = models.CharField(max_length=40, blank=True)
    element = models.CharField(max_length=40, blank=True)
    level = models.PositiveSmallIntegerField(default=1)
    yen = models.IntegerField(default=0)
    current_hp = models.IntegerField(
        null=True, blank=True, help_text="Empty: unhurt (the sheet's maximum)."
    )
    spell_power = models.IntegerField(
        null=True, blank=True, help_text="Spell power held in a battle; empty outside battle."
    )
    drunkenness = models.CharField(max_length=20, default="sober")
    status_effects = models.JSONField(default=list, blank=True)
    draft = models.JSONField(
        default=dict,
        blank=True,
        help_text="The rest of the engine's draft (points, abilities, choices, effects, waivers).",
    )
    public_notes = models.TextField(blank=True)
    private_notes = models.TextField(
        blank=True, help_text="Seen only by the owner and the campaign's game masters."
    )
    portrait = models.FileField(upload_to=portrait_upload_to, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("name", "pk")
        indexes = [
            models.Index(fields=("campaign", "name"), name="character_campaign_name"),
            models.Index(fields=("owner", "name"), name="character_owner_name"),
        ]
        constraints = [
            models.CheckConstraint(condition=models.Q(level__gte=1), name="character_level_gte_1"),
            models.CheckConstraint(condition=models.Q(yen__gte=0), name="character_yen_gte_0"),
        ]

    def __str__(self) -> str:
        return self.name or f"character {self.pk}"


class InventoryItem(models.Model):
    """``quantity`` of one catalog item (by slug) that a character carries; maybe equipped.

    One row per item and character (a unique constraint), so a stack is changed in place rather
    than duplicated; bare fists and natural weapons are never rows (the engine adds them).
    """

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="inventory")
    item = models.CharField(max_length=60, help_text="The catalog item's slug.")
    quantity = models.PositiveIntegerField(default=1)
    equipped = models.BooleanField(default=False, help_text="Worn or wielded.")

    class Meta:
        ordering = ("item", "pk")
        constraints = [
            models.UniqueConstraint(fields=("character", "item"), name="one_stack_per_item"),
            models.CheckConstraint(
                condition=models.Q(quantity__gte=1), name="inventory_quantity_gte_1"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.quantity} × {self.item}"
