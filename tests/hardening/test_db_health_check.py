"""Issue 15: production's database health check (``CONN_HEALTH_CHECKS``) costs no round trip
while the connection is sound (``config/postgresql/base.py``), and still replaces a connection
the server dropped before a request uses it: a real server-side termination, as a restart or
failover does."""

from __future__ import annotations

import time

import psycopg
import pytest
from django.db import connections

from config.postgresql.base import DatabaseWrapper

pytestmark = pytest.mark.django_db


@pytest.fixture
def own_connection():
    """A connection of its own (the test's transaction holds the default one), with health
    checks on as production has them."""
    settings = {
        **connections["default"].settings_dict,
        "CONN_HEALTH_CHECKS": True,
        "CONN_MAX_AGE": 600,
    }
    conn = DatabaseWrapper(settings, alias="health-check")
    assert isinstance(connections["default"], DatabaseWrapper)  # the backend in use
    conn.connect()
    try:
        yield conn
    finally:
        conn.close()


def _pid_and_last_query(conn) -> tuple[int, str]:
    with conn.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    with psycopg.connect(_url(conn), autocommit=True) as admin:
        row = admin.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone()
    return pid, row[0]


def _url(conn) -> str:
    s = conn.settings_dict
    return f"postgresql://{s['USER']}@{s['HOST']}:{s['PORT'] or 5432}/{s['NAME']}"


def _next_request(conn) -> None:
    """What Django does between two requests, then at the first query of the next one."""
    conn.close_if_unusable_or_obsolete()
    conn.close_if_health_check_failed()


def test_a_sound_connection_passes_without_a_query(own_connection):
    pid, last = _pid_and_last_query(own_connection)
    assert last == "SELECT pg_backend_pid()"
    _next_request(own_connection)
    assert own_connection.health_check_done
    assert own_connection.connection is not None  # kept
    # the server saw nothing since: its last statement is still ours
    with psycopg.connect(_url(own_connection), autocommit=True) as admin:
        row = admin.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone()
    assert row[0] == "SELECT pg_backend_pid()"


def test_a_connection_the_server_dropped_is_replaced_before_the_request_uses_it(own_connection):
    pid, _ = _pid_and_last_query(own_connection)
    with psycopg.connect(_url(own_connection), autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
        deadline = time.monotonic() + 10
        while admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone():
            assert time.monotonic() < deadline, "the server never ended the backend"
            time.sleep(0.05)
    assert not own_connection._quiet()  # the server said why and closed the socket
    _next_request(own_connection)
    assert own_connection.connection is None  # replaced: the next query connects again
    with own_connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != pid
