"""A plain move commits without waiting for the WAL flush, every other write waits for it, and
no cache ever answers from a move a crash could have lost (issue 15; tables/epoch.py).

What PostgreSQL itself had in force when each log row was written is recorded by a trigger
(tests/commit_modes.py), so the tests read the database's own word, not the SQL text."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from battles import services
from battles.models import Battle, BattleAction
from battles.selectors import view_cache_key
from tables import epoch, heads
from tests.commit_modes import CommitModes, recording

from .conftest import BattleSetup, build_battle, play_until
from .test_fast_paths_safety import _settled


@pytest.fixture
def commit_modes() -> Iterator[CommitModes]:
    with recording(BattleAction) as modes:
        yield modes


def _adjust(battle, gm, version):
    return services.battle_action_apply(
        battle_id=battle.pk,
        actor=gm,
        action={"type": "gm_adjust", "combatant": "npc1", "hp": -1},
        expected_version=version,
    )


@pytest.mark.django_db(transaction=True)
def test_only_the_plain_move_commits_without_the_flush(
    commit_modes, campaign, gm, character, settings
):
    battle = build_battle(campaign, gm, [character], npcs=2)
    services.battle_action_apply(
        battle_id=battle.pk, actor=gm, action={"type": "start"}, expected_version=battle.version
    )
    battle.refresh_from_db()
    _adjust(battle, gm, battle.version)  # a GM's adjustment: the table row and its log only
    assert commit_modes.read() == [("start", "off"), ("gm_adjust", "off")]
    # the setting is the statement's own transaction's: the connection is back to waiting
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone()[0] == "on"
    # inside someone's transaction (which may write other rows) the move waits for the flush
    with transaction.atomic():
        _adjust(battle, gm, battle.version + 1)
    # the end of the player's turn ends her turn wait (another row): it waits too
    pc = f"pc{character.pk}"
    play_until(BattleSetup(battle, pc, "", ["npc1", "npc2"]), gm, pc)
    battle.refresh_from_db()
    services.battle_action_apply(
        battle_id=battle.pk,
        actor=gm,
        action={"type": "end_turn", "combatant": pc},
        expected_version=battle.version,
    )
    modes = commit_modes.read()
    assert modes[2] == ("gm_adjust", "on")
    assert modes[-1] == ("end_turn", "on")
    # and with the setting off, every move does
    settings.TABLE_MOVES_ASYNC_COMMIT = False
    battle.refresh_from_db()
    _adjust(battle, gm, battle.version)
    assert commit_modes.read()[-1] == ("gm_adjust", "on")


@pytest.mark.django_db
def test_a_new_connection_reads_the_servers_start_time():
    fresh = connections.create_connection("default")
    try:
        fresh.ensure_connection()
        with fresh.cursor() as cursor:
            cursor.execute("SELECT pg_postmaster_start_time()")
            started = cursor.fetchone()[0]
        micros = (started.timestamp() * 1_000_000).__round__()
        assert fresh.cache_epoch == str(micros)
        assert epoch.current() == str(micros)  # one server: every connection reads the same
    finally:
        fresh.close()


@pytest.mark.django_db
def test_no_view_is_served_from_another_epochs_entry(started, gm, api_for):
    """After a crash the epoch is new: an entry cached before it (perhaps for a lost move of
    the same version number) is never read; one under the current epoch is (the control)."""
    battle = started.refresh()
    api = api_for(gm)
    view = f"/api/battles/{battle.pk}/state/"
    api.get(view)  # cached under this epoch
    keys = [
        view_cache_key(battle.pk, battle.version, "gm", 0, at=at) for at in (epoch.current(), "1")
    ]
    assert keys[0] != keys[1]
    lost = json.dumps({"version": battle.version, "lost": "a move the crash took"}).encode()
    cache.set(keys[1], lost)
    assert "lost" not in api.get(view).json()["view"]
    cache.set(keys[0], lost)  # the control: the key the view does read
    assert api.get(view).json()["view"]["lost"] == "a move the crash took"


@pytest.mark.django_db
def test_a_head_from_another_epoch_sends_the_poll_to_the_database(started, gm, api_for):
    battle = started.refresh()
    api = api_for(gm)
    poll = f"/api/battles/{battle.pk}/state/?since={battle.version + 1}"
    label, table = Battle._meta.label_lower, Battle._meta.db_table
    ahead = f"{battle.version + 1}:{heads.scope_of(battle)}"  # a move the database lost
    assert heads.head_key(label, battle.pk) != heads.head_key(label, battle.pk, at="1")
    _settled(battle, gm)
    api.get(f"/api/battles/{battle.pk}/state/?since={battle.version}")  # the role cached
    client = cache._cache.get_client(write=True)
    client.delete(heads.head_key(label, battle.pk))  # as if nothing read since the restart
    client.set(heads.head_key(label, battle.pk, at="1"), ahead, ex=60)
    with CaptureQueriesContext(connection) as asked:
        api.get(poll)
    assert any(table in q["sql"] for q in asked.captured_queries)
    # the control: the same head under the current epoch is believed without the database
    client.set(heads.head_key(label, battle.pk), ahead, ex=60)
    with CaptureQueriesContext(connection) as asked:
        assert api.get(poll).status_code == 204
    assert not any(table in q["sql"] for q in asked.captured_queries)
