"""The clock's text read with the table row: no query of its own on the move path.

The core's move read and its state read annotate the row with :data:`CLOCK_COLUMN` (the
clock row's snapshot, or NULL for a table without a clock). A move on a row kept in the
process checks it in its write like the user's seat columns (``tables.services._kept_move``),
so a clock set since the row was kept is never missed.
"""

from __future__ import annotations

from typing import Any, Final

from django.db.models import OuterRef, Subquery

from .models import TableClock

#: The annotation's name on a table row.
CLOCK_COLUMN: Final = "table_clock_snapshot"


def clock_columns(label: str) -> dict[str, Any]:
    """``{CLOCK_COLUMN: the snapshot of the table's clock}`` for rows of model ``label``."""
    rows = TableClock.objects.filter(table_label=label, table_id=OuterRef("pk"))
    return {CLOCK_COLUMN: Subquery(rows.values("snapshot")[:1])}
