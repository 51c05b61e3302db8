"""The database's *epoch*: when the PostgreSQL server now running started
(``pg_postmaster_start_time()``), part of every cache key that is keyed by a table's version.

Why: a plain move commits without waiting for the WAL flush (``synchronous_commit = off`` for
that one statement, :data:`settings.TABLE_MOVES_ASYNC_COMMIT`, :func:`tables.services.
log_and_save`). After a PostgreSQL crash, a move acknowledged in the last fraction of a second
can be gone, and the next move then writes the same version number again with another state.
The per-version caches (the battle view per version, the tables' heads in Redis, the tavern's
advice) assume a version is never reused. A crash always restarts the server, which changes
its start time and drops every connection, so every new connection reads the new epoch and
every key made after it is new: nothing cached for the lost write is ever read again (it
expires unread).

Read once per new connection to the default database (Django's ``connection_created``), so it
costs one query per connection (production keeps connections for ten minutes), none per
request. A path that asks only Redis (the unchanged poll) uses the epoch its process read last;
until that process next connects after a restart it may still find the old epoch's heads, which
only ever answer "unchanged" (``204``) and expire within a minute (``tables.heads``).
"""

from __future__ import annotations

from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.signals import connection_created

#: The epoch read by this process's newest connection (a list: set in place by the receiver).
_current: list[str] = []
#: Not PostgreSQL (SQLite in development): no asynchronous commit, one epoch forever.
LOCAL: str = "local"


def read(connection: Any) -> str:
    """The epoch of the server behind ``connection`` (microseconds since 1970, as text)."""
    if connection.vendor != "postgresql":
        return LOCAL
    with connection.cursor() as cursor:
        cursor.execute("SELECT (extract(epoch FROM pg_postmaster_start_time()) * 1e6)::bigint")
        return str(cursor.fetchone()[0])


def _connected(sender: Any, connection: Any, **kwargs: Any) -> None:
    if connection.alias == DEFAULT_DB_ALIAS:
        connection.cache_epoch = read(connection)  # what this connection's server is
        _current[:] = [connection.cache_epoch]


def current() -> str:
    """The epoch for cache keys: the one this process's newest connection read (connecting
    first if the process never has)."""
    if not _current:
        connections[DEFAULT_DB_ALIAS].ensure_connection()
        if not _current:  # connected before the receiver was wired (a management shell)
            _current[:] = [read(connections[DEFAULT_DB_ALIAS])]
    return _current[0]


def connect() -> None:
    """Wire the receiver (``TablesConfig.ready``)."""
    connection_created.connect(_connected, dispatch_uid="table-cache-epoch")
