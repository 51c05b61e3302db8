"""The suite's PostgreSQL backend: ``config.postgresql``'s, except how a transactional test
empties the database after itself.

pytest-django's transactional tests (``django_db(transaction=True)``, ``live_server``: every
browser test and every test that starts a worker) end with Django's ``flush``, which empties all
of the project's tables with one ``TRUNCATE``. PostgreSQL truncates a table by giving it new
files, and commits that with a sync of each: about 60 tables and their indexes took seconds on
a busy machine, after every such test. Here a table that holds little is emptied with ``DELETE``
instead (its rows only: the same empty table), and only a table that has grown on disk
(:data:`TRUNCATE_FROM` bytes, such as one filled with a million rows) is truncated; the content
types and permissions, which the flush's ``post_migrate`` would write again at once, are kept
(:data:`KEPT`). Django's
foreign keys on PostgreSQL are ``DEFERRABLE INITIALLY DEFERRED``, so the deletes may run in any
order within the flush's one transaction, and are checked when it commits. A flush that resets
sequences is Django's own.
"""

from __future__ import annotations

from typing import Any

from config.postgresql import base

#: A table at least this large on disk is truncated, not emptied row by row.
TRUNCATE_FROM = 1 << 20
#: What the flush's ``post_migrate`` writes back at once (every model's content type and
#: permissions, as migrating made them): kept, so that it finds them there instead.
KEPT = frozenset({"django_content_type", "auth_permission"})


class DatabaseOperations(base.DatabaseOperations):
    def sql_flush(
        self,
        style: Any,
        tables: Any,
        *,
        reset_sequences: bool = False,
        allow_cascade: bool = False,
    ) -> list[str]:
        if not tables or reset_sequences:
            return list(
                super().sql_flush(
                    style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
                )
            )
        with self.connection.cursor() as cursor:
            cursor.execute(
                "SELECT relname FROM pg_class WHERE relkind = 'r'"
                " AND relname = ANY(%s) AND pg_relation_size(oid) >= %s"
                " AND relnamespace = 'public'::regnamespace",
                [list(tables), TRUNCATE_FROM],
            )
            large = {name for (name,) in cursor.fetchall()}
        small = [table for table in tables if table not in large and table not in KEPT]
        statements = ["SET CONSTRAINTS ALL DEFERRED"]
        statements += [f"DELETE FROM {self.quote_name(table)}" for table in small]  # noqa: S608
        if large:
            statements += super().sql_flush(style, sorted(large), allow_cascade=allow_cascade)
        return statements


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
