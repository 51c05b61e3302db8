"""The hot paths' statements, sent the cheap way.

Django's PostgreSQL backend binds parameters on the client: every value is quoted into the
statement's text. A move's write carries the whole game state (kilobytes of JSON), so quoting
it, and encoding it with the standard library's ``json``, were a fifth of a move's work.
Here the hot statements bind on the server (the JSON goes as it is, as a parameter) and JSON
parameters are encoded with ``orjson`` (several times faster; the standard library's encoder
is kept for anything orjson refuses). The cursor is still Django's wrapper, so query counts,
logging and execute wrappers see these statements like any other.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import orjson
from django.db.backends.base.base import BaseDatabaseWrapper
from psycopg.types.json import Json, Jsonb

_OPTIONS = orjson.OPT_NON_STR_KEYS
#: How Django's JSON fields without an encoder of their own encode a value.
_PLAIN: tuple[Any, ...] = (None, json.dumps)


def dumps(value: Any) -> bytes:
    """``value`` as JSON text (UTF-8): orjson, or the standard library for what orjson
    refuses (integers beyond 64 bits, say), so both accept exactly the same values."""
    try:
        return orjson.dumps(value, option=_OPTIONS)
    except (orjson.JSONEncodeError, TypeError):
        return json.dumps(value).encode()


def json_from_db(value: Any, expression: Any, connection: Any) -> Any:
    """A JSON column's value as Django's ``JSONField.from_db_value`` gives it (the text
    decoded; text that is not JSON as it is), decoded by orjson."""
    if value is None or not isinstance(value, str | bytes):
        return value
    try:
        return orjson.loads(value)
    except orjson.JSONDecodeError:
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value


def fast_json(params: Sequence[Any]) -> list[Any]:
    """``params`` with each plain ``Jsonb`` or ``Json`` value (Django's, with the standard
    encoder; ``Json`` for :class:`tables.fields.StateField`) encoded by :func:`dumps` instead.
    A field with an encoder of its own keeps it."""
    return [
        type(p)(p.obj, dumps=dumps) if type(p) in (Jsonb, Json) and p.dumps in _PLAIN else p
        for p in params
    ]


@contextmanager
def bound_cursor(connection: BaseDatabaseWrapper) -> Iterator[Any]:
    """A cursor of ``connection`` that binds its parameters on the server (psycopg 3), or the
    usual cursor elsewhere."""
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            yield cursor
        return
    from django.db.backends.postgresql.base import ServerBindingCursor

    # as ``connection.cursor()`` does before it makes a cursor
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    raw = ServerBindingCursor(connection.connection)  # type: ignore[call-arg]
    cursor = connection._prepare_cursor(raw)  # type: ignore[attr-defined]
    try:
        yield cursor
    finally:
        cursor.close()
