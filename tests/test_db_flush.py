"""The test teardown's flush (tests/db_flush) leaves the database as Django's own does: every
table empty but the content types and permissions ``post_migrate`` makes, whether it deletes the
rows or, for a table filled beyond its bound, truncates them; post_migrate's rows are kept
only when they are the ones it made."""

from __future__ import annotations

import threading
import time

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection, connections, transaction

from battles.models import BattleMap
from tests.db_flush.management.commands import flush

pytestmark = pytest.mark.django_db(transaction=True)


def _rows() -> dict[str, int]:
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    with connection.cursor() as cursor:
        counts = {}
        for table in tables:
            cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")  # noqa: S608
            counts[table] = cursor.fetchone()[0]
    return {table: n for table, n in counts.items() if n}


def _teardown_flush() -> None:
    """The call Django's TransactionTestCase makes after a test."""
    call_command(
        "flush",
        verbosity=0,
        interactive=False,
        database="default",
        reset_sequences=False,
        allow_cascade=False,
        inhibit_post_migrate=False,
    )


def _fill_beyond_the_bound() -> None:
    """Sessions enough to pass :data:`flush.DELETE_AT_MOST` (a test that filled a table)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO django_session (session_key, session_data, expire_date)"
            " SELECT md5(n::text), repeat('x', 200), now() FROM generate_series(1, 30000) AS n"
        )
        cursor.execute("SELECT pg_relation_size('django_session')")
        assert cursor.fetchone()[0] > flush.DELETE_AT_MOST


@pytest.mark.parametrize("filled", [False, True], ids=["delete", "truncate"])
def test_the_flush_empties_every_table_but_what_post_migrate_makes(campaign, filled):
    if filled:
        _fill_beyond_the_bound()
    assert {"accounts_user", "campaign_campaign", "campaign_membership"} <= set(_rows())
    _teardown_flush()
    left = _rows()
    assert set(left) == {ContentType._meta.db_table, Permission._meta.db_table}, left
    assert ContentType.objects.filter(app_label="campaign", model="campaign").exists()
    assert Permission.objects.filter(codename="add_campaign").exists()


def test_post_migrates_rows_are_kept_only_as_it_made_them(campaign):
    _teardown_flush()
    made = dict(ContentType.objects.values_list("id", "model"))
    Permission.objects.create(
        codename="see_far", name="Can see far", content_type=ContentType.objects.first()
    )
    _teardown_flush()  # a row post_migrate does not make: its tables are made again
    assert not Permission.objects.filter(codename="see_far").exists()
    assert set(made.values()) == set(ContentType.objects.values_list("model", flat=True))
    remade = dict(ContentType.objects.values_list("id", "model"))
    _teardown_flush()  # as post_migrate made them: kept, ids and all
    assert dict(ContentType.objects.values_list("id", "model")) == remade
    assert set(_rows()) == {ContentType._meta.db_table, Permission._meta.db_table}


def test_a_writer_racing_the_flush_waits_for_it_and_breaks_nothing(campaign):
    """CI once failed a passed test at its teardown: a Celery worker committed a bot's move
    while the flush ran, after the flush had deleted the moves and before it deleted their
    table, and the flush's commit found the new move pointing at a deleted table. Here a writer
    adds a row pointing at the campaign and holds its transaction open until the flush waits on
    a lock; the flush then empties both tables, as Django's TRUNCATE did."""
    inserted, release = threading.Event(), threading.Event()

    def writer() -> None:
        try:
            with transaction.atomic():
                BattleMap.objects.create(
                    campaign_id=campaign.pk, name="Misty Lake", image="maps/lake.png",
                    content_type="image/png", width_px=100, height_px=100, cols=10, rows=10,
                    square_px=10,
                )  # fmt: skip
                inserted.set()
                release.wait(30)
        finally:
            connections.close_all()

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        flusher = cursor.fetchone()[0]

    def release_once_the_flush_waits() -> None:
        try:
            with connections["default"].cursor() as cursor:
                for _ in range(600):
                    cursor.execute(
                        "SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [flusher]
                    )
                    if cursor.fetchone()[0] == "Lock":
                        break
                    time.sleep(0.05)
        finally:
            release.set()
            connections.close_all()

    threads = [threading.Thread(target=t) for t in (writer, release_once_the_flush_waits)]
    threads[0].start()
    assert inserted.wait(30)
    threads[1].start()
    _teardown_flush()
    for thread in threads:
        thread.join(30)
    assert release.is_set()
    assert set(_rows()) == {ContentType._meta.db_table, Permission._meta.db_table}
