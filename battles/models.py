"""Battles, their combatants (an index) and the append-only action log.

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

from typing import Any

from django.conf import settings
from django.db import models


class BattleStatus(models.TextChoices):
    """The engine's phase, copied for lists and filters."""

    SETUP = "setup", "Setting up"
    ACTIVE = "active", "In progress"
    ENDED = "ended", "Ended"


class Battle(models.Model):
    """One grid battle in a campaign."""

    campaign = models.ForeignKey(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="battles"
    )
    name = models.CharField(max_length=120)
    status = models.CharField(
        max_length=10, choices=BattleStatus.choices, default=BattleStatus.SETUP
    )
    state = models.JSONField(help_text="The engine's BattleState.to_dict(history=False).")
    initial = models.JSONField(
        help_text="The snapshot the action log replays from (holds the secret seed)."
    )
    version = models.PositiveIntegerField(
        default=0, help_text="Equals state.version; every change adds one."
    )
    current_combatant = models.CharField(
        max_length=40, blank=True, help_text="Whose turn it is (engine id), for lists."
    )
    turn_summary = models.CharField(
        max_length=200, blank=True, help_text="'Round 2 · Reimu's turn', for the dashboard."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="battles_created"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

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


class BattleAction(models.Model):
    """One applied action and its events (unfiltered: clients see them through the engine's
    view rules only). Append-only: ``seq`` is the engine's log number (``version_after``)."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        related_name="battle_actions",
        null=True,
        blank=True,
    )
    action = models.JSONField()
    events = models.JSONField(default=list)
    version_after = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "campaign_battleaction"
        ordering = ("battle", "seq")
        constraints = [
            models.UniqueConstraint(fields=("battle", "seq"), name="one_action_per_battle_seq")
        ]

    def __str__(self) -> str:
        return f"{self.battle} #{self.seq}: {self.action.get('type', '?')}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Rows are written once: an edited log could no longer replay to the stored state."""
        if not self._state.adding:
            raise ValueError("Battle actions are append-only; undo is a new action.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ValueError("Battle actions are append-only; undo is a new action.")

    def log_entry(self) -> dict[str, object]:
        """The engine's log entry for this row (``{n, action, events}``)."""
        return {"n": self.seq, "action": self.action, "events": self.events}
