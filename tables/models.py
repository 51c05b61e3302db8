"""The abstract tables every turn-based game stores: a game table and its append-only log.

A game's app subclasses both (a few lines, see docs/architecture.md "How a new game plugs in"):

.. code-block:: python

    class DuelTable(GameTable):
        ...                                   # the game's own columns (host, campaign, ...)

    class DuelAction(TableAction):
        table = models.ForeignKey(DuelTable, on_delete=models.CASCADE, related_name="actions")

Why abstract models rather than one generic table: each game keeps its own rows, indexes and
foreign keys (a battle belongs to a campaign, a tavern table may not), while the core's
services and selectors work on any of them through these fields.

``state`` is the engine's ``to_json`` of the current state; ``initial`` the state the log
replays from (it holds the secret seed: it is never sent to a client). Clients only ever get
``engine.view(state, seat)``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from apibase.engine_words import in_language

from .fields import StateField


class TableStatus(models.TextChoices):
    """Where a table is in its life, copied from the engine for lists and filters."""

    SETUP = "setup", _("Setting up")
    ACTIVE = "active", _("In progress")
    ENDED = "ended", _("Ended")


class GameTable(models.Model):
    """One game being played: the engine state as JSON, with its version.

    Every applied action adds one to ``version`` (the engine's own version where it keeps one);
    a client sends the version it saw with each action and gets a 409 when it is stale.
    """

    #: The name of the foreign key from the log model to this table (``TableAction.table`` by
    #: default; battles keep their historical ``battle``).
    log_table_field: ClassVar[str] = "table"

    status = models.CharField(max_length=10, choices=TableStatus.choices, default=TableStatus.SETUP)
    #: ``json``, not ``jsonb``, on PostgreSQL: read and written whole (tables/fields.py)
    state = StateField(default=dict, help_text="The engine's to_json of the state.")
    initial = StateField(
        default=dict, help_text="The state the action log replays from (holds the secret seed)."
    )
    version = models.PositiveIntegerField(default=0, help_text="Every change adds one.")
    summary = models.CharField(
        max_length=200, blank=True, help_text="The engine's public one-line summary, for lists."
    )
    #: The same summary as words (a message id and its parameters, ``westernroses.words``), so
    #: each reader reads it in her language (:attr:`summary_in_language`); ``summary`` keeps
    #: the English for the admin, search and rows written before the words were kept.
    summary_words = models.JSONField(
        default=dict,
        blank=True,
        help_text="The summary as words (westernroses/words.py), read in the reader's language.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    #: The version whose waits the notification service was last told of (the notify task,
    #: ``tables.services.table_waits_sync``); behind ``version`` on a quiet table, the task was
    #: lost and the sweep (``table_lost_waits``) enqueues it again.
    waits_synced = models.PositiveIntegerField(
        default=0, help_text="The version whose waits were last told to the players."
    )

    class Meta:
        abstract = True

    @property
    def summary_in_language(self) -> str:
        """The summary in the active language (the English column for a table last written
        before its words were kept, or whose words cannot be read)."""
        if self.summary_words:
            try:
                return in_language(self.summary_words)
            except (KeyError, TypeError, ValueError):
                return self.summary
        return self.summary

    def announce_beyond(self) -> None:
        """Tell other pages that show this table (a campaign's GM dashboard) that it has a new
        version; called with the table's own announcement. Nothing by default: the game's
        model knows where it is shown."""


class TableAction(models.Model):
    """One applied action: who sent it, for which seat, the action, its events, the version.

    Append-only: a row is never updated or deleted (an undo is itself an action), so replaying
    the rows from the table's ``initial`` state gives its ``state`` byte for byte. ``events``
    are stored unfiltered; readers see them through :func:`tables.selectors.table_log`, which
    keeps only the events visible to the reader's seat.
    """

    seq = models.PositiveIntegerField(help_text="Position in the table's log, from 1.")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        related_name="+",
        null=True,
        blank=True,
        help_text="The user who sent it (empty for a bot or a timeout).",
    )
    seat = models.CharField(max_length=40, blank=True, help_text="The engine seat it acted for.")
    action = models.JSONField()
    events = models.JSONField(default=list)
    version_after = models.PositiveIntegerField(help_text="The table's version once applied.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Rows are written once: an edited log could no longer replay to the stored state."""
        if not self._state.adding:
            raise ValueError("The action log is append-only; an undo is a new action.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ValueError("The action log is append-only; an undo is a new action.")

    def log_entry(self) -> dict[str, object]:
        """The row as a log entry (``{n, seat, action, events}``)."""
        return {"n": self.seq, "seat": self.seat, "action": self.action, "events": self.events}
