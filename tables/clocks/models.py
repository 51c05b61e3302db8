"""One row per clocked table: its time control and each seat's clock, as one JSON text.

Keyed by the table's model (``minigames.taverntable``) and id rather than by a foreign key:
every game's tables are rows of their own model, and the tavern's four games share one. A
table without a row has no clock, which a move learns from its one read of the table (the
row's text comes with it: :func:`tables.clocks.columns.clock_columns`), so an unclocked
table's move costs nothing more.

``snapshot`` is text, not ``jsonb``: the move reads it with the table row (compiled once, see
``tables/compiled.py``) and writes it whole, and the check of a move on a kept row compares
it as it was read (``IS NOT DISTINCT FROM``). ``next_due`` is the earliest moment something
must happen (a reminder or a deadline), for the beat sweep's index.
"""

from __future__ import annotations

from django.db import models


class TableClock(models.Model):
    """A table's time control and its seats' clocks (see the module docstring)."""

    table_label = models.CharField(
        max_length=60, help_text="The table's model (app label and model name)."
    )
    table_id = models.BigIntegerField(help_text="The table's id in that model.")
    snapshot = models.TextField(
        help_text="The time control and each seat's clock, as JSON (tables/clocks/controls.py)."
    )
    next_due = models.DateTimeField(
        null=True, blank=True, help_text="The next reminder or deadline (none: nothing runs)."
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table_label", "table_id"], name="table_clock_unique")
        ]
        indexes = [models.Index(fields=["next_due"], name="table_clock_next_due")]

    def __str__(self) -> str:
        return f"clock of {self.table_label} {self.table_id}"
