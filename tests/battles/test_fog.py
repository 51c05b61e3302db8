"""Fog of war through the app (issue 14): the GM's gm_fog / gm_reveal go through the table
core in a running battle (logged, 409 when stale, 403 for players) and are part of the setup
before the start (a rebuild, not logged), and the fog survives the start and replays."""

from __future__ import annotations

import pytest

from battles import services
from battles.models import BattleAction
from tables.errors import StaleVersion
from westernroses import battle as engine

pytestmark = pytest.mark.django_db


def fog(battle, user, a, b, version, kind="gm_fog"):
    return services.battle_action_apply(
        battle_id=battle.pk,
        actor=user,
        action={"type": kind, "from": a, "to": b},
        expected_version=version,
    )


def test_setup_fog_is_part_of_the_setup_and_survives_the_start(setup_battle, gm, player):
    battle = setup_battle.refresh()
    with pytest.raises(services.PermissionDenied):
        fog(battle, player, [5, 0], [7, 2], battle.version)
    with pytest.raises(StaleVersion):
        fog(battle, gm, [5, 0], [7, 2], battle.version - 1)
    with pytest.raises(services.ValidationError):
        fog(battle, gm, [5, 0], [8, 2], battle.version)  # outside the 8 × 6 arena
    result = fog(battle, gm, [5, 0], [7, 2], battle.version)
    assert result.state.version == battle.version + 1
    assert not BattleAction.objects.filter(battle=battle).exists()  # setup is not logged
    assert "npc1" not in engine.view(result.state, str(player.pk))["combatants"]
    started = services.battle_action_apply(
        battle_id=battle.pk,
        actor=gm,
        action={"type": "start"},
        expected_version=result.state.version,
    )
    assert len(started.state.arena.fog) == 9
    revealed = fog(battle, gm, [5, 0], [5, 2], started.state.version, kind="gm_reveal")
    assert len(revealed.state.arena.fog) == 6
    assert BattleAction.objects.filter(battle=battle, action__type="gm_reveal").exists()
    full = services.full_state(setup_battle.refresh())
    assert engine.dumps(engine.replay_log(full)) == engine.dumps(full)


def test_a_fog_action_in_a_running_battle_is_the_gms_and_checks_the_version(started, gm, player):
    battle = started.refresh()
    with pytest.raises(services.PermissionDenied):
        fog(battle, player, [0, 0], [1, 1], battle.version)
    with pytest.raises(StaleVersion):
        fog(battle, gm, [0, 0], [1, 1], battle.version - 1)
    result = fog(battle, gm, [0, 0], [1, 1], battle.version)
    assert result.state.version == battle.version + 1
    row = BattleAction.objects.get(battle=battle, seq=result.state.version)
    assert row.action["type"] == "gm_fog"


def gm_act(battle, gm, action, version):
    return services.battle_action_apply(
        battle_id=battle.pk, actor=gm, action=action, expected_version=version
    )


def test_an_npc_off_the_board_is_out_of_the_players_payloads(started, gm, player, api_for):
    """docs/battle.md, "Fog of war": a combatant with no square is hidden from the players
    like one in fog, even with the whole board fogged: no view, combatants list or log line
    of the API names her or shows her HP; the GM's view has her; shown by the GM, she is back."""
    battle = started.refresh()
    result = fog(battle, gm, [0, 0], [7, 5], battle.version)
    result = gm_act(
        battle, gm, {"type": "gm_move", "combatant": "npc1", "to": None}, result.state.version
    )
    pk = battle.pk
    client = api_for(player)
    for url in (
        f"/api/battles/{pk}/state/",
        f"/api/battles/{pk}/combatants/",
        f"/api/battles/{pk}/log/?limit=200",
        f"/api/battles/{pk}/legal-actions/",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        body = response.content.decode()
        assert '"npc1"' not in body and "Fairy 1" not in body, url
    assert "npc1" in api_for(gm).get(f"/api/battles/{pk}/state/").json()["view"]["combatants"]
    shown = gm_act(
        battle,
        gm,
        {"type": "gm_show", "combatant": "npc1", "shown": True},
        result.state.version,
    )
    view = client.get(f"/api/battles/{pk}/state/").json()["view"]
    assert view["combatants"]["npc1"]["name"] == "Fairy 1"
    assert view["combatants"]["npc1"]["position"] is None
    with pytest.raises(services.PermissionDenied):
        gm_act(
            battle,
            player,
            {"type": "gm_show", "combatant": "npc1", "shown": False},
            shown.state.version,
        )


def test_in_setup_the_gm_shows_an_npc_off_the_board(setup_battle, gm, player, api_for):
    """Setting up, an NPC waiting off the board is the GM's secret until she shows her (a
    setup change like fog: a rebuild, not logged)."""
    battle = setup_battle.refresh()
    moved = services.battle_combatant_update(
        battle_id=battle.pk, by=gm, combatant="npc2", position=None
    )
    assert "npc2" not in engine.view(moved.state, str(player.pk))["combatants"]
    with pytest.raises(services.ValidationError):
        gm_act(battle, gm, {"type": "gm_show", "combatant": "npc2"}, moved.state.version)
    shown = gm_act(
        battle, gm, {"type": "gm_show", "combatant": "npc2", "shown": True}, moved.state.version
    )
    assert not BattleAction.objects.filter(battle=battle).exists()
    body = api_for(player).get(f"/api/battles/{battle.pk}/state/").json()["view"]
    assert body["combatants"]["npc2"]["name"] == "Fairy 2"
    assert shown.state.combatants["npc2"].shown
