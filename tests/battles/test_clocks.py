"""A battle's turn clock (issue 39, "Turn clocks": "Battles: optional clocks for player turns,
off by default, the GM always able to pause"): the GM sets it, a player's turn that runs out
ends (her combatant's turn passes), the GM's own turns are never clocked, and a pause holds it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone
from django.utils.dateparse import parse_datetime

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


def test_the_gm_sets_changes_and_takes_off_the_clock_through_the_api(started, gm, player, api_for):
    """The battle screen's control (templates/tables/clock_undo_panel.html) sends these: the
    GM sets, changes and takes off the clock; a player reads it, never sets it; bad input is a
    400 in words."""
    play_until(started, gm, started.pc)
    url = f"/api/battles/{started.battle.pk}/clock/"
    master, her = api_for(gm), api_for(player)
    assert her.get(url).json() == {"clock": None}  # off by default
    refused = her.post(url, {"mode": "move", "seconds": 300, "rule": "skip"}, format="json")
    assert refused.status_code == 403
    assert refused.json()["detail"] == "Only the host or the game master sets the clock."
    for body, field, words in (
        ({"mode": "move", "seconds": 30, "rule": "skip"}, "seconds", "Give from 1 minute"),
        ({"mode": "move", "seconds": 4 * 86_400}, "seconds", "to 3 days"),
        ({"mode": "move", "rule": "skip"}, "seconds", "Give from 1 minute to 3 days"),
        ({"mode": "total", "seconds": 31 * 86_400}, "seconds", "30 days in all"),
        ({"mode": "move", "seconds": "soon"}, "seconds", "A whole number of seconds"),
        ({"mode": "hourglass", "seconds": 300}, "mode", "not a valid choice"),
        ({"mode": "move", "seconds": 300, "rule": "forfeit"}, "rule", "the seat is skipped"),
        ({}, "paused", "Send either paused, or a time control"),
    ):
        bad = master.post(url, body, format="json")
        assert bad.status_code == 400, (body, bad.json())
        assert words in bad.json()["errors"][field][0], (body, bad.json())
    assert her.get(url).json() == {"clock": None}  # nothing was set by a refusal
    version = started.version
    set_ = master.post(url, {"mode": "move", "seconds": 300, "rule": "skip"}, format="json")
    assert set_.status_code == 200
    clock = set_.json()["clock"]
    assert clock["words"] == "5 minutes per move; then the seat is skipped"
    # no move: the version stays the engine's (the log's numbering, what a page sends back
    # with its next move); open screens read the clock from the table feed
    assert started.version == version
    assert her.get(f"/api/battles/{started.battle.pk}/table/").json()["clock"] == clock
    # every seat reads the same clock: her deadline runs, in about five minutes
    seen = her.get(url).json()["clock"]
    assert seen == master.get(url).json()["clock"]
    (running,) = [s for s in seen["seats"] if s["running"]]
    assert running["seat"] == str(player.pk)
    left = (parse_datetime(running["deadline"]) - timezone.now()).total_seconds()
    assert 290 < left <= 300
    changed = master.post(url, {"mode": "total", "seconds": 3600, "rule": "skip"}, format="json")
    assert changed.json()["clock"]["words"] == "1 hour in all, per player; then the seat is skipped"
    off = master.post(url, {"mode": "none"}, format="json")
    assert off.status_code == 200 and off.json() == {"clock": None}
    assert her.get(url).json() == {"clock": None}
    assert not TableClock.objects.filter(table_label="battles.battle", table_id=started.battle.pk)
