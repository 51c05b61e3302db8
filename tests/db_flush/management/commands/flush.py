"""Django's ``flush`` for the test database, emptying its tables with ``DELETE`` instead of one
``TRUNCATE`` of every table (docs/test-suite.md, "How the suite stays fast").

A test that really commits (``django_db(transaction=True)``, the live server's) ends with a
flush. PostgreSQL's ``TRUNCATE`` gives each of the 80-odd tables, and each of their indexes, a
new file and drops the old one: 3 to 4 seconds a flush on the loaded 2-core machine, where
deleting the few rows a test leaves takes a twentieth of a second. The end is the same: every
table empty, the sequences where they were (the test teardown's flush never resets them), the
content types and permissions that ``post_migrate`` makes (kept, not made again, when they are
the rows it made at the process's last flush). Every foreign key Django makes is
``DEFERRABLE INITIALLY DEFERRED``, so the tables are emptied in any order inside one
transaction. When a table holds more than :data:`DELETE_AT_MOST` bytes (a test that filled it),
or the caller asks for what ``DELETE`` does not do (sequences reset, ``CASCADE``), Django's own
``TRUNCATE`` runs instead. The tables are locked against writers first, as ``TRUNCATE`` locks
them, so a worker's write that races the test's end waits for the flush instead of breaking it."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management.commands import flush
from django.core.management.sql import emit_post_migrate_signal
from django.db import connections, transaction

#: The largest table (its rows' pages, without indexes) emptied by ``DELETE``: a table filled by
#: a test beyond it is truncated, with the rest, by Django's flush.
DELETE_AT_MOST = 4 * 1024 * 1024
#: A database's post_migrate rows as its last flush left them (:func:`_fingerprint`).
_MADE: dict[str, str] = {}
_FINGERPRINT = (
    "SELECT (SELECT md5(coalesce(string_agg(concat_ws(':', id, app_label, model), ','"
    " ORDER BY id), '')) FROM django_content_type)"
    " || (SELECT md5(coalesce(string_agg(concat_ws(':', id, content_type_id, codename, name),"
    " ',' ORDER BY id), '')) FROM auth_permission)"
)


class Command(flush.Command):
    def handle(self, **options: Any) -> None:
        database = options["database"]
        connection = connections[database]
        if (
            connection.vendor != "postgresql"
            or options.get("interactive", True)
            or options.get("reset_sequences", True)
            or options.get("allow_cascade", False)
        ):
            return super().handle(**options)
        tables = connection.introspection.django_table_names(
            only_existing=True, include_views=False
        )
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT coalesce(max(pg_relation_size(c.oid)), 0) FROM pg_class c"
                " WHERE c.relkind = 'r' AND c.relname = ANY(%s)"
                " AND c.relnamespace = current_schema()::regnamespace",
                [tables],
            )
            largest = cursor.fetchone()[0]
        if largest > DELETE_AT_MOST:
            return super().handle(**options)
        remake = options.get("inhibit_post_migrate", False) is False
        # post_migrate's rows (its content types and permissions) are kept when they are the ones
        # it made at this process's last flush: it would make the same again (Django's flush
        # deletes and remakes them, 0.7 s of the flush on the loaded machine).
        kept = [t for t in (ContentType._meta.db_table, Permission._meta.db_table) if t in tables]
        keep = remake and _MADE.get(database) == _fingerprint(connection)
        emptied = [connection.ops.quote_name(t) for t in tables if not (keep and t in kept)]
        with transaction.atomic(using=database), connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
            if emptied:
                # A writer still at work (a Celery worker committing a bot's move as the test
                # ends) waits for the flush, as it waited for TRUNCATE's lock; without the lock
                # its row could land between two DELETEs, pointing at a row deleted after it.
                cursor.execute(f"LOCK TABLE {', '.join(emptied)} IN SHARE ROW EXCLUSIVE MODE")
            for table in emptied:
                cursor.execute(f"DELETE FROM {table}")  # noqa: S608 (the models' tables, quoted)
        if tables and remake and not keep:
            emit_post_migrate_signal(options["verbosity"], False, database)
        _MADE[database] = _fingerprint(connection) if remake else ""


def _fingerprint(connection: Any) -> str:
    """The rows of post_migrate's two tables, ids and all, in one digest."""
    with connection.cursor() as cursor:
        cursor.execute(_FINGERPRINT)
        return str(cursor.fetchone()[0])
