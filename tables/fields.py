"""The column a game table keeps its state in: JSON stored as the text it was written as.

PostgreSQL has two JSON types. ``jsonb`` (Django's ``JSONField``) parses every document it is
given into a binary form and prints it back out for every read; that pays when queries look
inside the document (containment, key existence, indexes). A table's ``state`` and
``initial`` are never queried inside on a hot path: every move reads the whole state and
writes the whole new one (kilobytes: a 4-vs-4 battle is 13 KB). So they are ``json``, which
keeps the text as sent: no parse on the write, no printing on the read, and TOAST compresses
it with lz4 where the server has it (the migrations set it). Measured on this machine with a
6 KB state and an asynchronous commit: the row's update 0.43 ms as ``jsonb`` (pglz), 0.12 ms
as ``json`` (lz4).

What ``json`` cannot do: compare documents (no ``=``, so no ``DISTINCT``/``GROUP BY``/``UNION``
over whole rows that include the column) or answer ``has_key``/``contains`` lookups. Key
transforms (``state__arena__width``) work. Elsewhere (SQLite) the column is what
``JSONField`` makes.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from psycopg.types.json import Json, Jsonb


class StateField(models.JSONField):
    """A ``JSONField`` stored as PostgreSQL ``json`` (the text as written)."""

    def db_type(self, connection: Any) -> str | None:
        if connection.vendor == "postgresql":
            return "json"
        return super().db_type(connection)

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        adapted = super().get_db_prep_value(value, connection, prepared)
        if connection.vendor == "postgresql" and type(adapted) is Jsonb:
            # sent typed ``json``: a ``jsonb`` parameter would be parsed and printed again by
            # the assignment cast to the column
            return Json(adapted.obj, dumps=adapted.dumps)
        return adapted


def lz4_compression(app_label: str, model_name: str, *columns: str) -> Any:
    """A migration operation: TOAST compresses ``columns`` with lz4 (several times faster than
    PostgreSQL's default pglz) when the server has it; nothing elsewhere or without it. Rows
    already stored keep their compression until they are next written (every move rewrites
    its table's state)."""
    from django.db import migrations

    def forward(apps: Any, schema_editor: Any) -> None:
        connection = schema_editor.connection
        if connection.vendor != "postgresql":
            return
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT 'lz4' = ANY(enumvals) FROM pg_settings"
                " WHERE name = 'default_toast_compression'"
            )
            row = cursor.fetchone()
        if not row or not row[0]:
            return
        model = apps.get_model(app_label, model_name)
        quote = schema_editor.quote_name
        for column in columns:
            schema_editor.execute(
                f"ALTER TABLE {quote(model._meta.db_table)} ALTER COLUMN {quote(column)}"
                " SET COMPRESSION lz4"
            )

    return migrations.RunPython(forward, migrations.RunPython.noop, elidable=True)
