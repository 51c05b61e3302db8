"""Turn order, rounds and actions per turn ("Turn Order", "The Arena", RULINGS 11)."""

from __future__ import annotations

import pytest

from tests.engine.battle.helpers import act, act_events, battle, events_of, fighter, scripted
from westernroses.battle import IllegalAction, apply, legal_actions, new_battle
from westernroses.battle.arena import Arena


def test_higher_speed_goes_first():
    """Turn Order: "The higher a character's speed, the sooner they take their turn."""
    state = battle(
        fighter("slow", (0, 0), speed=2),
        fighter("fast", (1, 0), speed=7, side="b"),
        fighter("mid", (2, 0), speed=4),
    )
    assert state.order == ["fast", "mid", "slow"]
    assert state.current == "fast"
    assert state.round == 1


def test_speed_ties_are_broken_by_versus_rolls_rerolled_until_broken():
    """Turn Order / RULINGS 11: equal speeds make a versus roll of Speed, "In the case of a tie,
    roll again." Speed 4 rolls 1 die (RULINGS 1): 3 v 3 ties, then 2 v 5."""
    state = battle(fighter("a", (0, 0)), fighter("b", (1, 0), side="b"), start=False)
    with scripted(3, 3, 2, 5):
        state, events = act_events(state, "start")
    versus = events_of(events, "versus")[0]["result"]
    assert [r["kind"] for r in versus["rounds"]] == ["check", "tie_break"]
    assert versus["winner"] == "b"
    assert state.order == ["b", "a"]


def test_each_turn_has_two_actions_and_players_end_their_own_turns():
    """The Arena: "During your turn you are given 2 actions"; the turn waits for End Turn."""
    state = battle(
        fighter("me", (0, 0), speed=5, controller="p1"), fighter("them", (5, 5), side="b")
    )
    assert state.combatants["me"].actions_left == 2
    state = act(state, "do_nothing", player="p1", combatant="me")
    state = act(state, "do_nothing", player="p1", combatant="me")
    assert state.current == "me"
    assert [o["type"] for o in legal_actions(state, "p1")] == ["end_turn"]
    with pytest.raises(IllegalAction, match="no actions left"):
        act(state, "do_nothing", player="p1", combatant="me")
    state = act(state, "end_turn", player="p1", combatant="me", at="t1")
    assert state.current == "them"
    assert state.done == ["me"]
    assert state.turn_started_at == "t1"


def test_players_act_only_for_their_own_combatants_and_the_gm_for_anyone():
    """Pattern: players control their combatants; the GM controls NPCs and may override."""
    state = battle(
        fighter("me", (0, 0), speed=5, controller="p1"), fighter("them", (5, 5), side="b")
    )
    with pytest.raises(IllegalAction, match="does not control"):
        act(state, "do_nothing", player="p2", combatant="me")
    assert legal_actions(state, "p2") == []
    state = act(state, "do_nothing", player="gm", combatant="me")
    with pytest.raises(IllegalAction, match="not Them's turn"):
        act(state, "do_nothing", combatant="them")


def test_rounds_count_when_play_returns_to_the_first():
    """Turn Order: "A round is the duration from one character's action until play returns to
    that character"; the tracker lists who has acted this round."""
    state = battle(fighter("a", (0, 0), speed=5), fighter("b", (5, 5), side="b"))
    state = act(state, "end_turn", combatant="a")
    assert (state.round, state.current, state.done) == (1, "b", ["a"])
    state = act(state, "end_turn", combatant="b", at="later")
    assert (state.round, state.current, state.done) == (2, "a", [])
    assert state.turn_started_at == "later"


def test_a_joining_combatant_is_placed_by_speed():
    """RULINGS 11 for a combatant who joins (ruling: placed by speed, ties rolled)."""
    state = battle(fighter("a", (0, 0), speed=6), fighter("b", (5, 5), side="b", speed=2))
    newcomer = fighter("c", (3, 3), side="b", speed=4)
    state = act(state, "gm_add_combatant", combatant=newcomer.to_dict())
    assert state.order == ["a", "c", "b"]
    assert state.combatants["c"].spell_power == 50


def test_a_removed_combatant_leaves_the_order_without_skipping_anyone():
    """Turn order stays right when a combatant leaves (issue: order changes)."""
    state = battle(
        fighter("a", (0, 0), speed=6),
        fighter("b", (5, 5), side="b", speed=5),
        fighter("c", (4, 4), speed=4),
    )
    state = act(state, "gm_remove_combatant", combatant="a")
    assert state.order == ["b", "c"]
    assert state.current == "b"


def test_actions_carry_versions_and_stale_ones_are_refused():
    """Stale moves are refused (the app's 409): ``expected_version`` must match."""
    state = battle(fighter("a", (0, 0), speed=6), fighter("b", (5, 5), side="b"))
    with pytest.raises(IllegalAction, match="moved on"):
        apply(
            state,
            {
                "type": "do_nothing",
                "player": "gm",
                "combatant": "a",
                "expected_version": state.version - 1,
            },
        )
    new, _ = apply(
        state,
        {"type": "do_nothing", "player": "gm", "combatant": "a", "expected_version": state.version},
    )
    assert new.version == state.version + 1


def test_a_battle_needs_two_sides_and_starts_once():
    """The engine refuses to start a one-sided battle or to start twice."""
    lonely = new_battle(arena=Arena(3, 3), combatants=[fighter("a", (0, 0))], seed=1)
    with pytest.raises(IllegalAction, match="two sides"):
        act(lonely, "start")
    state = battle(fighter("a", (0, 0)), fighter("b", (2, 2), side="b", speed=3))
    with pytest.raises(IllegalAction, match="already started"):
        act(state, "start")
    with pytest.raises(IllegalAction, match="GM starts"):
        apply(lonely, {"type": "start", "player": "p1"})
