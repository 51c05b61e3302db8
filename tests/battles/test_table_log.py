"""Battles through the table core's generic log (tables.selectors.table_log)."""

from __future__ import annotations

import json

import pytest

from battles import services

pytestmark = pytest.mark.django_db


def test_the_table_cores_log_hides_another_players_draw(started, player, other_player, gm):
    """The generic log (tables.selectors.table_log) filters a battle's events by the engine's
    rules too: the opening draw's cards for their controller and the GM only."""
    from tables.selectors import table_log

    def draws(user):
        log = table_log(services.BATTLE_GAME, table_id=started.battle.pk, user=user)
        return {
            e["combatant"]: e
            for entry in log["results"]
            for e in entry["events"]
            if e["type"] == "draw"
        }

    mine, theirs, gms = draws(player), draws(other_player), draws(gm)
    assert "cards" in mine[started.pc] and "cards" in gms[started.pc]
    assert "cards" not in theirs[started.pc]
    assert "private" not in theirs[started.pc]
    assert "seed" not in json.dumps(theirs)
