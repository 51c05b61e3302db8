"""Two clients send the same move at the same instant: exactly one applies (201), the other is
told someone moved first (409), and the log holds exactly one new row.

Real threads, each with its own database connection, on a committed (transactional) test
database, released together by a barrier: the version-checked write (``UPDATE … WHERE
version = %s``: the second waits for the first's commit, then finds no row at its version) and the
version check are what decide, not the test's timing.
"""

from __future__ import annotations

import pytest

from battles import services
from battles.models import BattleAction
from tests.at_once import at_once
from tests.battles.conftest import play_until

pytestmark = pytest.mark.django_db(transaction=True)

ROUNDS = 5


def _race(clients, url, body):
    """Each client POSTs the same move at the same instant: their status codes, sorted."""
    return at_once([lambda c=c: c.post(url, body, format="json").status_code for c in clients])


@pytest.mark.parametrize("second", ["same player, second browser", "the GM"])
def test_the_same_move_twice_at_once_applies_once(started, gm, player, api_for, second):
    play_until(started, gm, started.pc)
    url = f"/api/battles/{started.battle.pk}/actions/"
    for _ in range(ROUNDS):
        battle = started.refresh()
        assert battle.state["current"] == started.pc
        version = battle.version
        before = BattleAction.objects.filter(battle=battle).count()
        body = {
            "action": {"type": "gm_adjust", "combatant": started.pc, "spell_power": 1}
            if second == "the GM"
            else {"type": "do_nothing", "combatant": started.pc},
            "expected_version": version,
        }
        clients = [
            api_for(gm if second == "the GM" else player),
            api_for(gm if second == "the GM" else player),
        ]
        assert _race(clients, url, body) == [201, 409]
        assert BattleAction.objects.filter(battle=battle).count() == before + 1
        assert started.version == version + 1
        pc = started.refresh().state["combatants"][started.pc]
        if pc["actions_left"] == 0:  # her turn is spent: go round to her next one
            services.battle_action_apply(
                battle_id=battle.pk,
                actor=gm,
                action={"type": "end_turn", "combatant": started.pc},
                expected_version=started.version,
            )
            play_until(started, gm, started.pc)


def test_a_player_and_the_gm_moving_the_same_piece_at_once(started, gm, player, api_for):
    """The player clicks a square while the GM clicks another for her: one move happens."""
    play_until(started, gm, started.pc)
    battle = started.refresh()
    url = f"/api/battles/{battle.pk}/actions/"
    from battles.services import load_state
    from westernroses import battle as engine

    options = engine.legal_actions(load_state(battle), str(player.pk))
    reach = next(o for o in options if o["type"] == "move")["reach"]
    bodies = [
        {
            "action": {"type": "move", "combatant": started.pc, "to": reach[i]["square"]},
            "expected_version": battle.version,
        }
        for i in (0, -1)
    ]
    player_api, gm_api = api_for(player), api_for(gm)
    codes = at_once(
        [
            lambda: player_api.post(url, bodies[0], format="json").status_code,
            lambda: gm_api.post(url, bodies[1], format="json").status_code,
        ]
    )
    assert codes == [201, 409]
    moves = BattleAction.objects.filter(battle=battle, action__type="move")
    assert moves.count() == 1
