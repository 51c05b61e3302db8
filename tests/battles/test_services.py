"""Battle services: setup, placing, applying actions under the version check, the log."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404

from battles import services
from battles.models import Battle, BattleAction, Combatant
from campaign.permissions import access_for
from tests.battles.conftest import build_battle, fairy, play_until
from westernroses import battle as engine

pytestmark = pytest.mark.django_db


# --------------------------------------------------------------------------- setup


def test_create_makes_an_empty_arena_in_setup(campaign, gm):
    battle = services.battle_create(
        campaign=campaign,
        by=access_for(gm, campaign),
        created_by=gm,
        name="Lake",
        width=9,
        height=5,
    )
    assert battle.status == "setup"
    assert battle.state["arena"] == {"width": 9, "height": 5, "blocked": [], "difficult": []}
    assert battle.state["battle_id"] == str(battle.pk)
    assert isinstance(battle.initial["rng"]["seed"], int)
    assert battle.turn_summary == "Setting up the arena"


@pytest.mark.parametrize(
    ("name", "width", "height", "field"),
    [("", 8, 8, "name"), ("x", 1, 8, "width"), ("x", 8, 41, "height"), ("x" * 121, 8, 8, "name")],
)
def test_create_refuses_bad_input(campaign, gm, name, width, height, field):
    with pytest.raises(ValidationError) as exc:
        services.battle_create(
            campaign=campaign,
            by=access_for(gm, campaign),
            created_by=gm,
            name=name,
            width=width,
            height=height,
        )
    assert field in exc.value.message_dict
    assert not Battle.objects.exists()


def test_players_cannot_create(campaign, player):
    with pytest.raises(PermissionDenied):
        services.battle_create(
            campaign=campaign,
            by=access_for(player, campaign),
            created_by=player,
            name="Mine",
            width=8,
            height=8,
        )


def test_placing_builds_combatants_from_the_sheets_and_decks(setup_battle, player, gm):
    state = setup_battle.battle.state
    pc = state["combatants"][setup_battle.pc]
    assert pc["controller"] == str(player.pk)
    assert pc["side"] == "heroes"
    assert pc["position"] == [1, 0]
    assert sorted(pc["deck"]["draw_pile"]) == sorted(pc["cards"]) * 2
    assert state["combatants"]["npc1"]["controller"] == "gm"
    rows = {c.engine_id: c for c in Combatant.objects.filter(battle=setup_battle.battle)}
    assert rows[setup_battle.pc].controller == player
    assert rows[setup_battle.pc].character is not None
    assert rows["npc1"].controller is None and rows["npc1"].character is None
    assert setup_battle.battle.version == 4  # four placements


def test_npc_characters_and_gm_played_characters_are_the_gms(
    campaign, gm, npc_character, character
):
    battle = build_battle(campaign, gm, [npc_character], npcs=0)
    services.battle_character_place(
        battle_id=battle.pk, by=gm, character_id=character.pk, position=[2, 2], controller="gm"
    )
    battle.refresh_from_db()
    assert battle.state["combatants"][f"pc{npc_character.pk}"]["controller"] == "gm"
    assert battle.state["combatants"][f"pc{character.pk}"]["controller"] == "gm"


def test_setup_refuses_what_the_arena_cannot_hold(setup_battle, gm, character):
    pk = setup_battle.battle.pk
    with pytest.raises(ValidationError, match="already in the battle"):
        services.battle_character_place(
            battle_id=pk, by=gm, character_id=character.pk, position=[3, 3]
        )
    with pytest.raises(ValidationError, match="cannot share"):
        services.battle_npc_place(battle_id=pk, by=gm, npc=fairy(), position=[1, 0])
    with pytest.raises(ValidationError, match="stands on"):
        services.battle_square_set(battle_id=pk, by=gm, square=[1, 0], terrain="blocked")
    with pytest.raises(ValidationError, match="outside"):
        services.battle_square_set(battle_id=pk, by=gm, square=[8, 0], terrain="blocked")
    with pytest.raises(ValidationError, match="inside the new arena"):
        services.battle_setup_update(battle_id=pk, by=gm, width=5)
    with pytest.raises(ValidationError):
        services.battle_character_place(battle_id=pk, by=gm, character_id=999999, position=None)
    assert setup_battle.version == 4  # nothing changed


def test_terrain_moves_and_removal(setup_battle, gm):
    pk = setup_battle.battle.pk
    services.battle_square_set(battle_id=pk, by=gm, square=[3, 3], terrain="blocked")
    services.battle_square_set(battle_id=pk, by=gm, square=[3, 4], terrain="difficult")
    services.battle_square_set(battle_id=pk, by=gm, square=[3, 3], terrain="open")
    services.battle_combatant_update(battle_id=pk, by=gm, combatant="npc1", position=[5, 5])
    services.battle_combatant_remove(battle_id=pk, by=gm, combatant="npc2")
    result = services.battle_setup_update(battle_id=pk, by=gm, name="Renamed", width=10)
    state = result.state
    assert state.arena.blocked == frozenset()
    assert state.arena.difficult == {(3, 4)}
    assert state.arena.width == 10
    assert state.combatants["npc1"].position == (5, 5)
    assert "npc2" not in state.combatants
    battle = setup_battle.refresh()
    assert battle.name == "Renamed"
    assert not Combatant.objects.filter(battle=battle, engine_id="npc2").exists()
    assert battle.version == 10
    assert battle.initial["version"] == 10  # the log replays from the last setup


def test_players_cannot_set_up(setup_battle, player):
    with pytest.raises(PermissionDenied):
        services.battle_square_set(
            battle_id=setup_battle.battle.pk, by=player, square=[3, 3], terrain="blocked"
        )


def test_outsiders_get_404(setup_battle, outsider):
    with pytest.raises(Http404):
        services.battle_action_apply(
            battle_id=setup_battle.battle.pk,
            actor=outsider,
            action={"type": "start"},
            expected_version=4,
        )


# --------------------------------------------------------------------------- playing


def test_start_applies_and_logs(started, gm):
    battle = started.battle
    assert battle.status == "active" and battle.started_at is not None
    assert battle.version == 5
    action = BattleAction.objects.get(battle=battle)
    assert (action.seq, action.version_after, action.actor) == (5, 5, gm)
    assert action.action["type"] == "start" and action.action["player"] == "gm"
    assert any(e["type"] == "turn_order" for e in action.events)
    assert battle.current_combatant == battle.state["current"]
    assert "turn" in battle.turn_summary


def test_a_stale_version_is_refused_and_nothing_changes(started, gm):
    with pytest.raises(services.StaleVersion) as exc:
        services.battle_action_apply(
            battle_id=started.battle.pk,
            actor=gm,
            action={"type": "end_turn", "combatant": started.battle.state["current"]},
            expected_version=4,
        )
    assert exc.value.current == 5
    assert BattleAction.objects.count() == 1


def test_an_illegal_action_is_a_validation_error_and_saves_nothing(started, gm):
    with pytest.raises(ValidationError) as exc:
        services.battle_action_apply(
            battle_id=started.battle.pk,
            actor=gm,
            action={"type": "move", "combatant": "npc1", "to": [0, 0]},
            expected_version=5,
        )
    assert exc.value.message_dict["action"]
    assert started.version == 5
    assert BattleAction.objects.count() == 1


def test_players_act_only_for_their_own_combatants(started, gm, player, other_player):
    play_until(started, gm, started.pc)
    version = started.version
    for user, expected in ((other_player, PermissionDenied), (player, None)):
        call = lambda u=user: services.battle_action_apply(  # noqa: E731
            battle_id=started.battle.pk,
            actor=u,
            action={"type": "do_nothing", "combatant": started.pc},
            expected_version=version,
        )
        if expected:
            with pytest.raises(expected):
                call()
        else:
            call()
    assert started.version == version + 1


def test_players_cannot_send_gm_actions(started, player):
    for action in ({"type": "gm_adjust", "combatant": "npc1", "hp": -5}, {"type": "gm_undo"}):
        with pytest.raises(PermissionDenied):
            services.battle_action_apply(
                battle_id=started.battle.pk, actor=player, action=action, expected_version=5
            )


def test_the_server_decides_who_and_when(started, gm, player):
    """A player claiming to be the GM is still the player."""
    play_until(started, gm, started.pc)
    version = started.version
    services.battle_action_apply(
        battle_id=started.battle.pk,
        actor=player,
        action={"type": "do_nothing", "combatant": started.pc, "player": "gm", "at": "1999"},
        expected_version=version,
    )
    last = BattleAction.objects.filter(battle=started.battle).last()
    assert last.action["player"] == str(player.pk)
    assert last.action["at"] != "1999"


def test_undo_is_an_action_and_the_log_stays_append_only(started, gm):
    pk = started.battle.pk
    current = started.battle.state["current"]
    services.battle_action_apply(
        battle_id=pk,
        actor=gm,
        action={"type": "gm_adjust", "combatant": "npc1", "hp": -7},
        expected_version=5,
    )
    assert started.refresh().state["combatants"]["npc1"]["hp"] == 23
    services.battle_action_apply(
        battle_id=pk, actor=gm, action={"type": "gm_undo"}, expected_version=6
    )
    battle = started.refresh()
    assert battle.state["combatants"]["npc1"]["hp"] == 30
    assert battle.state["current"] == current
    assert [a.action["type"] for a in BattleAction.objects.filter(battle=battle)] == [
        "start",
        "gm_adjust",
        "gm_undo",
    ]
    row = BattleAction.objects.filter(battle=battle).first()
    with pytest.raises(ValueError, match="append-only"):
        row.save()
    with pytest.raises(ValueError, match="append-only"):
        row.delete()


def test_replaying_the_stored_log_gives_the_stored_state_byte_for_byte(started, gm, player):
    """python-chess's snapshot + move stack: the rows replayed from the stored initial state
    equal the stored state, undo and overrides included."""
    pk = started.battle.pk
    play_until(started, gm, started.pc)
    for action in (
        {"type": "gm_add_status", "combatant": "npc1", "status": "blind", "turns": 2},
        {"type": "gm_adjust", "combatant": started.pc, "hp": -3},
        {"type": "gm_undo"},
        {"type": "gm_set_target", "name": "dodge", "target": 10},
    ):
        services.battle_action_apply(
            battle_id=pk, actor=gm, action=action, expected_version=started.version
        )
    services.battle_action_apply(
        battle_id=pk,
        actor=player,
        action={"type": "concentrate", "combatant": started.pc},
        expected_version=started.version,
    )
    play_until(started, gm, started.other_pc)
    battle = started.refresh()
    stored = services.full_state(battle)
    replayed = engine.replay(
        _initial(battle),
        [a.action for a in BattleAction.objects.filter(battle=battle).order_by("seq")],
    )
    assert engine.dumps(replayed) == engine.dumps(stored)
    assert engine.dumps(engine.replay_log(stored)) == engine.dumps(stored)
    # The table core's replay (any game) agrees with the stored row.
    from tables.services import table_replay

    assert engine.ENGINE.to_json(table_replay(services.BATTLE_GAME, battle)) == battle.state


def _initial(battle: Battle) -> engine.BattleState:
    from westernroses.battle.replay import from_snapshot

    return from_snapshot(battle.initial)


def test_reinforcements_join_a_running_battle_as_a_logged_action(started, gm):
    result = services.battle_npc_place(
        battle_id=started.battle.pk, by=gm, npc=fairy("Cirno's friend"), position=[4, 4]
    )
    assert "npc3" in result.state.combatants
    assert "npc3" in result.state.order
    assert Combatant.objects.filter(battle=started.battle, engine_id="npc3").exists()
    assert BattleAction.objects.filter(battle=started.battle).last().action["type"] == (
        "gm_add_combatant"
    )


def test_a_gm_added_combatant_must_be_played_by_a_member(started, gm, outsider):
    c = services.npc_combatant(fairy(), cid="x1", side="enemies", position=(4, 4))
    data = c.to_dict()
    data["controller"] = str(outsider.pk)
    with pytest.raises(ValidationError):
        services.battle_action_apply(
            battle_id=started.battle.pk,
            actor=gm,
            action={"type": "gm_add_combatant", "combatant": data},
            expected_version=5,
        )


def test_ending_the_battle(started, gm):
    services.battle_action_apply(
        battle_id=started.battle.pk,
        actor=gm,
        action={"type": "gm_end_battle", "winner": "heroes"},
        expected_version=5,
    )
    battle = started.refresh()
    assert battle.status == "ended" and battle.ended_at is not None
    assert battle.turn_summary == "Ended: heroes won"
    with pytest.raises(ValidationError):
        services.battle_delete(battle_id=battle.pk, by=gm)


def test_deleting_a_battle_being_set_up(setup_battle, gm):
    services.battle_delete(battle_id=setup_battle.battle.pk, by=gm)
    assert not Battle.objects.exists()
