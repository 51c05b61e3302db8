"""Django's PostgreSQL backend with a health check that costs no round trip when nothing is
wrong, ``json`` columns read as text (:func:`_json_as_text`), and the text of prepared
statements kept in the debug log (:class:`DatabaseOperations`).

Production keeps connections for minutes (``CONN_MAX_AGE``) with ``CONN_HEALTH_CHECKS`` on,
so a connection the server dropped (a restart, a failover, an idle timeout) is replaced
before a request uses it instead of failing that request. Django checks with ``SELECT 1``:
a round trip to PostgreSQL at the start of every request that touches the database, about a
tenth of a move's time on the development machine.

Between requests nothing is in flight on a connection, so the server has nothing to say
unless something happened: a server that drops a connection says why (``FATAL: terminating
connection``) and closes it, and either makes the socket readable. So the check first asks
the socket, without waiting: a connection whose libpq status is good and whose socket has
nothing to read passes at once; anything else (something to read, a bad status, an error)
gets Django's own ``SELECT 1`` check, which replaces the connection if it fails. A connection
that died without a word (a cable cut) is not caught by either before its first query times
out. After an error in a request Django still checks with ``SELECT 1`` (``is_usable``).
"""

from __future__ import annotations

import select
from functools import lru_cache
from typing import Any

import psycopg
from django.db.backends.postgresql import base, operations
from psycopg.adapt import AdaptersMap
from psycopg.types.string import TextLoader


@lru_cache
def _json_as_text(template: AdaptersMap) -> AdaptersMap:
    """Django's adapters with ``json`` columns read as text, as Django already reads
    ``jsonb``: ``JSONField.from_db_value`` decodes the text (orjson on the hot paths,
    ``tables.hot_sql``), so psycopg must not decode it first (tables/fields.py)."""
    context = AdaptersMap(template)
    context.register_loader("json", TextLoader)
    return context


class DatabaseOperations(operations.DatabaseOperations):
    """Django's, except that a statement run as a prepared one is still logged with its text.

    With ``prepare_threshold`` set (config/settings/base.py), psycopg runs a statement it has
    already prepared by name, and keeps no text of it; Django's debug log (``connection.
    queries``, the tests' query captures) would record ``None``. The text is composed from
    the statement and its parameters instead, as Django does for client-side binding."""

    def last_executed_query(self, cursor: Any, sql: str, params: Any) -> str:
        logged: str | None = super().last_executed_query(cursor, sql, params)
        if logged is None:
            try:
                logged = self.compose_sql(sql, params)
            except (psycopg.Error, TypeError, ValueError):
                logged = sql
        return logged


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations

    def get_connection_params(self) -> dict[str, Any]:
        params: dict[str, Any] = super().get_connection_params()
        if isinstance(params.get("context"), AdaptersMap):
            params["context"] = _json_as_text(params["context"])
        return params

    def close_if_health_check_failed(self) -> None:
        this: Any = self  # the stubs do not know the health check's attributes
        if (
            self.connection is not None
            and this.health_check_enabled
            and not this.health_check_done
            and self._quiet()
        ):
            self.health_check_done = True
            return
        super().close_if_health_check_failed()

    def _quiet(self) -> bool:
        """True when the connection is open, idle, and the server has sent nothing."""
        try:
            pgconn = self.connection.pgconn
            if self.connection.closed or pgconn.status != psycopg.pq.ConnStatus.OK:
                return False
            readable, _, _ = select.select([pgconn.socket], [], [], 0)
        except (AttributeError, OSError, ValueError, psycopg.Error):
            return False
        return not readable
