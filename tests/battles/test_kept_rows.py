"""Issue 15: a user's move on a battle skips reading the row when this process's last move
on it wrote it (``TableHooks.keep_rows``, ``tables.services._kept_move``). Nothing kept is
trusted unchecked: the one write lands only while the row is the one kept (id, creation time,
version) and the user's role still reads the same, and reads the row's other columns back.
Each refusal the read path gives is given here too, with nothing written."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import Http404
from django.test.utils import CaptureQueriesContext

from battles import services
from battles.models import Battle, BattleAction, BattleMap
from campaign.models import Membership, Role
from tables import kept_states
from tables.errors import StaleVersion
from tables.services import table_replay

pytestmark = pytest.mark.django_db

HIT = {"type": "gm_adjust", "combatant": "npc1", "hp": -1}


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run what would run on commit (the test's transaction never commits)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def _move(battle_id: int, user, version: int) -> services.Applied:
    return services.battle_action_apply(
        battle_id=battle_id, actor=user, action=HIT, expected_version=version
    )


def _statements(ctx: CaptureQueriesContext) -> list[str]:
    return [
        q["sql"]
        for q in ctx.captured_queries
        if not q["sql"].startswith(("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT"))
    ]


def _kept_once(started, gm, committed) -> Battle:
    """One move through the read path, committed: the row and the GM's role are kept."""
    kept_states.forget_all()
    battle = started.refresh()
    with committed():
        _move(battle.pk, gm, battle.version)
    return started.refresh()


def test_the_next_move_is_one_statement_and_the_same_move(started, gm, committed):
    battle = _kept_once(started, gm, committed)
    for _ in range(3):
        seen = battle.version
        with CaptureQueriesContext(connection) as ctx, committed():
            applied = _move(battle.pk, gm, seen)
        statements = _statements(ctx)
        assert len(statements) == 1, statements  # no read: the checked write alone
        assert statements[0].startswith('WITH updated AS (UPDATE "campaign_battle"')
        assert "EXISTS (SELECT 1 FROM" in statements[0] and '"created_at" = ' in statements[0]
        battle = started.refresh()
        assert applied.state.version == battle.version == seen + 1
        assert battle.state["combatants"]["npc1"]["hp"] == applied.state.combatants["npc1"].hp
        log = BattleAction.objects.get(battle=battle, seq=battle.version)
        assert log.action["type"] == "gm_adjust" and log.actor_id == gm.pk
    # the log replays to the stored state: the kept moves are moves like any other
    assert services.engine.ENGINE.to_json(table_replay(services.BATTLE_GAME, battle)) == (
        battle.state
    )


def test_a_stale_move_on_a_kept_row_is_a_409_with_nothing_written(started, gm, committed):
    battle = _kept_once(started, gm, committed)
    seen = battle.version
    with committed():
        _move(battle.pk, gm, seen)
    rows = BattleAction.objects.filter(battle=battle).count()
    with pytest.raises(StaleVersion) as refused, committed():
        _move(battle.pk, gm, seen)  # the same click again: the row kept at `seen` is gone
    assert refused.value.current == seen + 1
    assert BattleAction.objects.filter(battle=battle).count() == rows
    assert started.refresh().version == seen + 1


def test_a_gm_made_a_player_since_the_kept_read_is_refused(started, gm, committed):
    """Her role is checked by the write itself: kept as GM, now a player, the GM-only override
    is refused (403) and nothing is written."""
    battle = _kept_once(started, gm, committed)
    seen, state = battle.version, dict(battle.state)
    Membership.objects.filter(campaign_id=battle.campaign_id, user=gm).update(role=Role.PLAYER)
    with pytest.raises(PermissionDenied), committed():
        _move(battle.pk, gm, seen)
    after = Battle.objects.get(pk=battle.pk)
    assert (after.version, after.state) == (seen, state)


def test_a_gm_removed_from_the_campaign_since_the_kept_read_gets_a_404(started, gm, committed):
    battle = _kept_once(started, gm, committed)
    seen = battle.version
    Membership.objects.filter(campaign_id=battle.campaign_id, user=gm).delete()
    with pytest.raises(Http404), committed():
        _move(battle.pk, gm, seen)
    assert Battle.objects.get(pk=battle.pk).version == seen


def test_a_deleted_battle_is_a_404_not_a_write_from_memory(started, gm, committed):
    battle = _kept_once(started, gm, committed)
    Battle.objects.filter(pk=battle.pk).delete()
    with pytest.raises(Http404), committed():
        _move(battle.pk, gm, battle.version)


def test_another_row_at_the_same_id_and_version_is_never_written_from_the_kept_one(
    started, gm, committed
):
    """The kept row is checked by its creation time too: a row that is not the one kept
    (here the same row made to look new) is read before it is written."""
    battle = _kept_once(started, gm, committed)
    seen = battle.version
    Battle.objects.filter(pk=battle.pk).update(created_at=battle.created_at.replace(year=2020))
    with CaptureQueriesContext(connection) as ctx, committed():
        _move(battle.pk, gm, seen)
    statements = _statements(ctx)
    assert len(statements) == 3, statements  # the checked write found nothing: read, write
    assert "EXISTS (SELECT 1 FROM" in statements[0]
    assert statements[1].startswith("SELECT") and '"campaign_battle"' in statements[1]
    assert "EXISTS" not in statements[2]
    assert started.refresh().version == seen + 1


def test_a_column_changed_without_a_new_version_is_read_back(started, gm, committed):
    """A battle's map changes without a new version (the board is the same): the kept row
    still has the old one, and the move's answer shows the new one (read back by the write)."""
    battle = _kept_once(started, gm, committed)
    state = services.load_state(battle, initial=False)
    board = BattleMap.objects.create(
        campaign_id=battle.campaign_id,
        name="Misty Lake",
        image="battle-maps/misty-lake.png",
        content_type="image/png",
        width_px=640,
        height_px=480,
        square_px=80,
        cols=state.arena.width,
        rows=state.arena.height,
    )
    Battle.objects.filter(pk=battle.pk).update(map=board)
    with committed():
        applied = _move(battle.pk, gm, battle.version)
    assert applied.battle.map_id == board.pk
