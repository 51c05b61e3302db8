"""A battle's turn clock (issue 39, "Turn clocks": "Battles: optional clocks for player turns,
off by default, the GM always able to pause"): the GM sets it, a player's turn that runs out
ends (her combatant's turn passes), the GM's own turns are never clocked, and a pause holds it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from battles.models import Battle
from tables.clocks.controls import TimeControl
from tables.clocks.models import TableClock
from tables.clocks.services import clock_change, clock_pause, clock_tick, snapshot_of
from tables.registry import game_for
from tests.battles.conftest import play_until

pytestmark = pytest.mark.django_db


def test_a_battle_has_no_clock_until_the_gm_sets_one(started, gm, player):
    battle = started.battle
    assert not TableClock.objects.filter(table_label="battles.battle", table_id=battle.pk)
    game = game_for("battle")
    with pytest.raises(PermissionDenied):
        clock_change(game, table_id=battle.pk, user=player, control=TimeControl("move", 60, "skip"))
    with pytest.raises(ValidationError) as refused:
        clock_change(game, table_id=battle.pk, user=gm, control=TimeControl("move", 60, "forfeit"))
    assert "when time runs out: the seat is skipped" in str(refused.value)
    clock = clock_change(game, table_id=battle.pk, user=gm, control=TimeControl("move", 60, "skip"))
    assert clock is not None and clock["words"] == "1 minute per move; then the seat is skipped"


def test_a_player_s_turn_that_runs_out_ends_and_the_gm_may_pause(started, gm, player):
    game = game_for("battle")
    play_until(started, gm, started.pc)
    battle = started.refresh()
    clock_change(game, table_id=battle.pk, user=gm, control=TimeControl("move", 60, "skip"))
    battle = Battle.objects.get(pk=battle.pk)
    snapshot = snapshot_of(battle)
    assert snapshot is not None
    running = [s for s, c in snapshot["seats"].items() if c["deadline"]]
    assert running == [str(player.pk)]  # her turn is clocked, the GM's never
    clock_pause(game, table_id=battle.pk, user=gm, pause=True)
    clock_tick("battles.battle", battle.pk, now=timezone.now() + timedelta(hours=1))
    assert started.refresh().state["current"] == started.pc  # paused: still her turn
    clock_pause(game, table_id=battle.pk, user=gm, pause=False)
    version = started.refresh().version
    clock_tick("battles.battle", battle.pk, now=timezone.now() + timedelta(seconds=61))
    after = started.refresh()
    assert after.version > version
    ended = after.actions.get(seq=version + 1)
    assert ended.action["type"] == "end_turn" and ended.actor_id is None
    assert after.state["current"] != started.pc
