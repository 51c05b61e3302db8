"""What PostgreSQL had in force when each log row of a game was written: a trigger on the log
table notes the row's action type and ``current_setting('synchronous_commit')`` inside the
writing transaction (for the tests of the moves' asynchronous commit, issue 15). Needs a test
that really commits (``django_db(transaction=True)``): the trigger is real DDL, dropped after."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from django.db import connection


class CommitModes(list[tuple[str, str]]):
    """(action type, ``synchronous_commit``) for each log row, in order; :meth:`read` fills it."""

    def read(self) -> list[tuple[str, str]]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT type, mode FROM test_commit_modes ORDER BY id")
            self[:] = [(t, m) for t, m in cursor.fetchall()]
        return list(self)


@contextlib.contextmanager
def recording(log_model: Any) -> Iterator[CommitModes]:
    log = connection.ops.quote_name(log_model._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE test_commit_modes (type text, mode text, id serial)")
        cursor.execute(
            """CREATE FUNCTION test_note_commit_mode() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              INSERT INTO test_commit_modes (type, mode)
              VALUES (NEW.action->>'type', current_setting('synchronous_commit'));
              RETURN NULL;
            END $$"""
        )
        cursor.execute(
            f"CREATE TRIGGER test_note_commit_mode AFTER INSERT ON {log}"
            " FOR EACH ROW EXECUTE FUNCTION test_note_commit_mode()"
        )
    try:
        yield CommitModes()
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TRIGGER test_note_commit_mode ON {log}")
            cursor.execute("DROP FUNCTION test_note_commit_mode()")
            cursor.execute("DROP TABLE test_commit_modes")
