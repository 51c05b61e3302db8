"""Battles, their combatants (an index) and the append-only action log, on the table core.

A :class:`Battle` holds the engine's current state as JSON (``BattleState.to_dict(history=
False)``: no log, no initial snapshot) and its ``version``; ``initial`` holds the snapshot the
battle started from (with the secret seed). The log lives once, in :class:`BattleAction` rows
(one per applied action, never updated or deleted: the GM's undo is itself an action), so
replaying the rows from ``initial`` must give ``state`` byte for byte.

:class:`Combatant` repeats who controls which engine combatant, so "my combatants" and "whose
turn is it" are cheap queries; the engine state stays the truth.

Nothing here is ever sent to a client as is: clients get ``engine.view(state, player)``.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

from apibase import push
from tables.models import GameTable, TableAction, TableStatus

#: A battle's life (setup, in progress, ended): the table core's statuses.
BattleStatus = TableStatus


def map_upload_to(instance: BattleMap, filename: str) -> str:
    """Map images are stored under a path naming the campaign, never the uploader's file name;
    the extension comes from the validated content (``maps.map_validate``), like portraits."""
    extension = filename.rsplit(".", 1)[-1].lower() if "." in filename else "img"
    token = secrets.token_hex(6)
    return f"maps/campaign-{instance.campaign_id}-{token}.{extension}"


class BattleMap(models.Model):
    """One map image of a campaign's library, with how the battle grid lies on it.

    The grid alignment belongs to the image (where its squares are drawn), so every battle that
    uses the map shares it: ``cols`` × ``rows`` squares of ``square_px`` image pixels, the
    first one's top-left corner ``offset_x``, ``offset_y`` pixels into the image. A battle
    being set up takes the map's ``cols`` × ``rows`` as its arena size.
    """

    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="battle_maps"
    )
    name = models.CharField(max_length=120)
    image = models.FileField(upload_to=map_upload_to)
    content_type = models.CharField(max_length=40)
    width_px = models.PositiveIntegerField()
    height_px = models.PositiveIntegerField()
    cols = models.PositiveSmallIntegerField()
    rows = models.PositiveSmallIntegerField()
    offset_x = models.PositiveIntegerField(default=0)
    offset_y = models.PositiveIntegerField(default=0)
    square_px = models.PositiveIntegerField()
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        related_name="battle_maps",
        null=True,
        blank=True,
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "campaign_battlemap"
        ordering = ("campaign", "name", "pk")
        indexes = [models.Index(fields=("campaign", "name"), name="battlemap_campaign")]

    def __str__(self) -> str:
        return self.name


class Battle(GameTable):
    """One grid battle in a campaign: a game table of the table core (``tables.models``) with
    the battle's own columns. Its seats are the engine's controllers (``"gm"`` or a member's
    user id)."""

    log_table_field = "battle"

    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="battles"
    )
    name = models.CharField(max_length=120)
    summary = models.CharField(
        max_length=200,
        blank=True,
        db_column="turn_summary",
        help_text="'Round 2 · Reimu's turn', for the dashboard.",
    )
    current_combatant = models.CharField(
        max_length=40, blank=True, help_text="Whose turn it is (engine id), for lists."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="battles_created"
    )
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    map = models.ForeignKey(
        BattleMap,
        on_delete=models.SET_NULL,
        related_name="battles",
        null=True,
        blank=True,
        help_text="The map image under the grid (empty: a drawn grid).",
    )

    class Meta:
        db_table = "campaign_battle"
        ordering = ("-created_at", "-pk")
        indexes = [
            models.Index(fields=("campaign", "-created_at"), name="battle_campaign"),
            models.Index(
                fields=("campaign", "-updated_at"),
                condition=models.Q(status="active"),
                name="battle_active",
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(status__in=["setup", "active", "ended"]),
                name="battle_status_valid",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def announce_beyond(self) -> None:
        """The campaign's open GM dashboards show its battles (gmtools/consumers.py)."""
        push.announce_campaign(self.campaign_id)

    @property
    def turn_summary(self) -> str:
        """The summary in the reader's language (the English column for a battle last written
        before its words were kept): the table core's :attr:`summary_in_language`."""
        return self.summary_in_language


class Combatant(models.Model):
    """Who controls one engine combatant of a battle (``controller`` None: the GMs).

    Rows follow the state: placed during setup, added when the engine adds one (a familiar, a
    doll, a GM's reinforcement) and removed with it.
    """

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="combatants")
    engine_id = models.CharField(max_length=40)
    name = models.CharField(max_length=120)
    kind = models.CharField(max_length=20, default="character")
    side = models.CharField(max_length=30)
    character = models.ForeignKey(
        "characters.Character",
        on_delete=models.SET_NULL,
        related_name="battle_combatants",
        null=True,
        blank=True,
        help_text="The campaign character this combatant was built from (empty for NPCs).",
    )
    controller = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        related_name="battle_combatants",
        null=True,
        blank=True,
        help_text="The player who acts for it; empty: the campaign's GMs.",
    )

    class Meta:
        db_table = "campaign_combatant"
        ordering = ("battle", "engine_id")
        constraints = [
            models.UniqueConstraint(
                fields=("battle", "engine_id"), name="one_combatant_per_engine_id"
            )
        ]
        indexes = [models.Index(fields=("controller", "battle"), name="combatant_controller")]

    def __str__(self) -> str:
        return f"{self.name} in {self.battle}"


class BattleAction(TableAction):
    """One applied action and its events (unfiltered: clients see them through the engine's
    view rules only). Append-only (:class:`tables.models.TableAction`): ``seq`` is the engine's
    log number (``version_after``), ``seat`` the engine player who acted."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="actions")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        related_name="battle_actions",
        null=True,
        blank=True,
    )

    class Meta:
        db_table = "campaign_battleaction"
        ordering = ("battle", "seq")
        constraints = [
            models.UniqueConstraint(fields=("battle", "seq"), name="one_action_per_battle_seq")
        ]

    def __str__(self) -> str:
        return f"{self.battle} #{self.seq}: {self.action.get('type', '?')}"

    def log_entry(self) -> dict[str, object]:
        """The engine's log entry for this row (``{n, action, events}``)."""
        return {"n": self.seq, "action": self.action, "events": self.events}


class TablePing(models.Model):
    """A square someone pointed at, shown to everyone for a few seconds. Kept briefly
    (``table_talk.PING_KEEP_SECONDS``) and never part of the game's version."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="pings")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="battle_pings"
    )
    x = models.PositiveSmallIntegerField()
    y = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        db_table = "battles_table_ping"
        ordering = ("battle", "pk")
        indexes = [models.Index(fields=("battle", "id"), name="table_ping_battle")]

    def __str__(self) -> str:
        return f"ping {self.x}, {self.y} in {self.battle}"
