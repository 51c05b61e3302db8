"""How the embedded default (SQLite, ``make run``) opens its database.

SQLite starts a transaction *deferred*: it takes the write lock only at the transaction's first
write. Two requests that each read and then write in one transaction (joining a tavern seat:
"is it free?", then "take it") deadlock on the upgrade, and SQLite answers one of them at once
with "database is locked", which surfaced as a 500. ``BEGIN IMMEDIATE`` takes the write lock at
the start, so the second request waits for the first (up to ``timeout`` seconds) and then reads
what the first wrote: it is told the seat is taken. Write-ahead logging lets page loads and
polls read while a move writes, instead of waiting for it. PostgreSQL, which production and the
tests use, needs none of this.
"""

from __future__ import annotations

from typing import Any, Final

OPTIONS: Final[dict[str, Any]] = {
    "transaction_mode": "IMMEDIATE",
    # seconds a transaction waits for another's write lock before "database is locked"
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}


def configure(database: dict[str, Any]) -> dict[str, Any]:
    """``database`` (one entry of ``DATABASES``) with :data:`OPTIONS` when it is SQLite."""
    if database.get("ENGINE") == "django.db.backends.sqlite3":
        database["OPTIONS"] = {**OPTIONS, **database.get("OPTIONS", {})}
    return database
