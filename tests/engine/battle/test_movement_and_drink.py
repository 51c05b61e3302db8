"""Moving, Fleet Hooves, drink in battle and Magic Spirit ("The Arena", shot-types, races,
"Drinking")."""

from __future__ import annotations

import pytest

from tests.engine.battle.helpers import act, act_events, battle, events_of, fighter, scripted
from tests.engine.battle.samples import character
from westernroses.battle import IllegalAction, legal_actions
from westernroses.battle.stats import roll_mod, speed


def test_a_move_goes_up_to_speed_in_orthogonal_steps():
    """The Arena: "Move – Move a number of spaces less than or equal to your speed"."""
    state = battle(
        fighter("a", (0, 0), speed=3), fighter("b", (7, 7), side="b", speed=1), difficult=[(1, 0)]
    )
    reach = next(o for o in legal_actions(state, "gm") if o["type"] == "move")["reach"]
    costs = {tuple(r["square"]): r["cost"] for r in reach}
    assert costs[(0, 3)] == 3 and costs[(1, 0)] == 2 and (3, 0) not in costs
    with pytest.raises(IllegalAction, match="cannot reach"):
        act(state, "move", combatant="a", to=[3, 0])
    state, events = act_events(state, "move", combatant="a", to=[2, 1])
    assert events_of(events, "moved")[0]["cost"] == 3
    assert (state.combatants["a"].position, state.combatants["a"].actions_left) == ((2, 1), 1)


def test_fleet_hooves_is_one_free_move_per_turn():
    """Shot-types: Fleet Hooves "You may move for your full speed once per turn without taking
    an action"."""
    state = battle(
        fighter("a", (0, 0), speed=5, traits=("fleet_hooves",)),
        fighter("b", (7, 7), side="b", speed=1),
    )
    state = act(state, "move", combatant="a", to=[0, 5], free=True)
    assert state.combatants["a"].actions_left == 2
    assert not [o for o in legal_actions(state, "gm") if o["type"] == "move" and o["free"]]
    with pytest.raises(IllegalAction, match="free move"):
        act(state, "move", combatant="a", to=[0, 6], free=True)


def test_drink_changes_rolls_as_it_takes_hold():
    """Drinking: Tipsy "-1 to all cognition-based rolls" (the insight dodge) and "+1 to your
    power rolls"."""
    b = fighter("b", (1, 0), side="b")
    b.drunkenness = "tipsy"
    state = battle(fighter("a", (0, 0), speed=9), b)
    with scripted(1, 1, 1, 1, 4, 4, 4, 4):
        state, events = act_events(state, "attack", combatant="a", attack="danmaku", target="b")
    assert {"label": "Drink", "amount": -1} in events_of(events, "roll")[0]["modifiers"]


def test_kaze_sake_gives_tengu_speed_instead_of_power():
    """Races: Tengu "receive a bonus to speed instead (+1 at tipsy, +2 at drunk ...)"."""
    aya = character("aya", position=(0, 0))
    aya.drunkenness = "drunk"
    state = battle(aya, fighter("b", (7, 7), side="b"))
    assert speed(state.combatants["aya"]) == 9 + 2
    assert roll_mod(state.combatants["aya"], "pwr") == 0


def test_magic_spirit_adds_two_to_danmaku_and_to_attack_cards():
    """Races: Magician "All magic skills and attacks deal an additional 2 points of damage"
    (Marisa's danmaku: 8d+2 from INT 24)."""
    marisa = character("marisa", position=(0, 0), controller="p1")
    state = battle(marisa, fighter("b", (1, 0), side="b", speed=1))
    with scripted(*[1] * 8, 6, 6, 6, 6):
        _, events = act_events(
            state, "attack", player="p1", combatant="marisa", attack="danmaku", target="b"
        )
    assert events_of(events, "damage_roll")[0]["roll"]["notation"] == "8d+2"
