"""Undo requests and the host's leave for them, keyed by the table's model and id (every
game's tables are rows of their own model; the tavern's four share one)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class UndoStatus(models.TextChoices):
    PENDING = "pending", "Waiting for the other players"
    APPROVED = "approved", "Approved: the move was taken back"
    REFUSED = "refused", "Refused"
    WITHDRAWN = "withdrawn", "Withdrawn"
    LAPSED = "lapsed", "Lapsed: the table moved on"


class UndoRequest(models.Model):
    """A seat asks to take back her last move (the log row ``seq``); the other seats vote."""

    table_label = models.CharField(max_length=60)
    table_id = models.BigIntegerField()
    seq = models.PositiveIntegerField(help_text="The log row of the move to take back.")
    seat = models.CharField(max_length=40, help_text="The seat that asks.")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    version = models.PositiveIntegerField(help_text="The table's version the request stands at.")
    status = models.CharField(max_length=10, choices=UndoStatus.choices, default=UndoStatus.PENDING)
    #: {seat: true (approves) | false (refuses)} of the seats that have voted
    votes = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["table_label", "table_id", "status"])]
        constraints = [
            models.UniqueConstraint(
                fields=["table_label", "table_id"],
                condition=models.Q(status="pending"),
                name="undo_one_pending_per_table",
            )
        ]

    def __str__(self) -> str:
        return f"undo of move {self.seq} at {self.table_label} {self.table_id}"


class UndoLeave(models.Model):
    """A host's leave for undo requests at a table where they are off by default (staked or
    rated: the game's ``guarded`` hook)."""

    table_label = models.CharField(max_length=60)
    table_id = models.BigIntegerField()
    allowed = models.BooleanField(default=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table_label", "table_id"], name="undo_leave_unique")
        ]

    def __str__(self) -> str:
        return f"undo leave at {self.table_label} {self.table_id}"
