"""The ladder command (minigames/bots/ladder.py): its rungs, bars and record.

The 200-game rungs are a measurement (``python -m minigames.bots.ladder``, docs/bots.md "The
ladder"); the suite checks the command on a couple of games and that the bars are issue 36's:
the top strength at least half its games against the middle one, the middle one 80% against
random.
"""

from __future__ import annotations

import json

from minigames.bots.ladder import (
    LADDER_SIMULATIONS,
    MIDDLE_BAR,
    TOP_BAR,
    format_rung,
    ladder,
    main,
    rungs,
)
from minigames.engines.registry import ENGINE_MODULES


def test_the_bars_are_issue_36s():
    assert TOP_BAR == 0.50
    assert MIDDLE_BAR == 0.80
    assert rungs("search") == [("search", "heuristic", 0.50), ("heuristic", "random", 0.80)]
    assert rungs("heuristic") == [("heuristic", "random", 0.80)]


def test_every_game_has_a_ladder_simulation_count():
    assert set(LADDER_SIMULATIONS) == set(ENGINE_MODULES)
    assert all(count > 0 for count in LADDER_SIMULATIONS.values())


def test_a_short_ladder_plays_both_rungs_seats_alternating_and_writes_json(tmp_path):
    out = tmp_path / "ladder-dbs.json"
    record = ladder("dbs", games=2, simulations=4, out=out)
    assert [(r["strength"], r["opponent"]) for r in record["rungs"]] == [
        ("search", "heuristic"),
        ("heuristic", "random"),
    ]
    for rung in record["rungs"]:
        assert rung["games"] == 2
        assert rung["wins"] + rung["draws"] + rung["losses"] == 2
        low, high = rung["wilson_95"]
        assert 0.0 <= low <= rung["rate"] <= high <= 1.0
        assert rung["met"] == (rung["rate"] >= rung["bar"])
        assert "95% Wilson" in format_rung("dbs", rung)
    assert json.loads(out.read_text())["simulations"] == 4
    per_game = json.loads((tmp_path / "ladder-dbs-search-vs-heuristic.json").read_text())
    assert [game["seat"] for game in per_game["results"]] == [0, 1]


def test_the_command_prints_each_rung(tmp_path, capsys):
    out = tmp_path / "ladder.json"
    argv = ["--game", "rso", "--games", "1", "--top", "heuristic", "--out", str(out)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "heuristic won" in printed and "against random" in printed
    assert json.loads(out.read_text())["top"] == "heuristic"
