"""One migrated test database per run, copied for each xdist worker.

pytest-django makes each xdist worker its own test database (``test_<name>_gw0`` ...) and
migrates each: every worker ran every migration (about 10 CPU-seconds each) at the same time.
Here the first worker to arrive migrates a template (``test_<name>_template``, marked with the
run's id) under a PostgreSQL advisory lock, and every worker's database is a copy of it
(``CREATE DATABASE ... TEMPLATE``: a file copy on the server, under a second). The copies are
the same database a migration makes: the same tables, rows of data migrations, content types
and permissions. A template left by an earlier run (another id) is migrated again; the run's
controller drops it at the end (:func:`drop_template`).
"""

from __future__ import annotations

from typing import Any

#: The comment on the template that names the run that migrated it.
RUN_MARK = "wr-test-template:"


def template_name(settings_dict: dict[str, Any]) -> str:
    return f"test_{settings_dict['NAME']}_template"


def _quoted(connection: Any, name: str) -> str:
    return str(connection.ops.quote_name(name))


def setup_worker_database(run_id: str, *, verbosity: int, serialize: bool) -> str:
    """Make this worker's test database a copy of the run's migrated template and point the
    default connection at it; returns the name the connection had (for :func:`teardown`)."""
    from django.conf import settings
    from django.db import connections

    connection = connections["default"]
    creation = connection.creation
    original = connection.settings_dict["NAME"]
    clone = creation._get_test_db_name()  # pytest-django's name for this worker (…_gw0)
    template = template_name(connection.settings_dict)
    mark = RUN_MARK + run_id
    with connection._nodb_cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(hashtext(%s))", [template])
        try:
            cursor.execute(
                "SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = %s",
                [template],
            )
            row = cursor.fetchone()
            if row is None or row[0] != mark:
                test = connection.settings_dict["TEST"]
                saved = test.get("NAME")
                test["NAME"] = template
                try:
                    creation.create_test_db(verbosity=verbosity, autoclobber=True, serialize=False)
                finally:
                    test["NAME"] = saved
                connection.close()  # a template with a session on it cannot be copied
                # run_id is xdist's hex id: a safe literal (COMMENT takes no parameter)
                assert run_id.isalnum(), run_id
                cursor.execute(f"COMMENT ON DATABASE {_quoted(connection, template)} IS '{mark}'")
            cursor.execute(f"DROP DATABASE IF EXISTS {_quoted(connection, clone)}")
            cursor.execute(
                f"CREATE DATABASE {_quoted(connection, clone)}"
                f" WITH TEMPLATE {_quoted(connection, template)}"
            )
        finally:
            cursor.execute("SELECT pg_advisory_unlock(hashtext(%s))", [template])
    connection.close()
    settings.DATABASES["default"]["NAME"] = clone
    connection.settings_dict["NAME"] = clone
    if serialize:  # a test asks for serialized_rollback: what create_test_db would keep
        connection._test_serialized_contents = creation.serialize_db_to_string()
    return str(original)


def teardown(original: str, *, verbosity: int) -> None:
    """Drop this worker's copy and give the connection its name back."""
    from django.db import connections

    connections["default"].creation.destroy_test_db(original, verbosity)


def drop_template(settings_dict: dict[str, Any]) -> None:
    """Drop the run's template (the controller, once every worker is done with it)."""
    import psycopg
    from psycopg import sql

    params = {
        "host": settings_dict.get("HOST") or None,
        "port": settings_dict.get("PORT") or None,
        "user": settings_dict.get("USER") or None,
        "password": settings_dict.get("PASSWORD") or None,
    }
    with psycopg.connect(
        dbname="postgres", autocommit=True, **{k: v for k, v in params.items() if v}
    ) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {}").format(
                sql.Identifier(template_name(settings_dict))
            )
        )
