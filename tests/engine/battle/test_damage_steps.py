"""Each hit's damage in steps the log can put in words (issue 40: "Each hit shows its steps in
words (roll, element ×½ or ×2, Shield, Resilience, armour, outfit, the minimum of 1) ... from
the engine's own events"). The order is docs/battle.md's: element, Shield, then each
reduction, and "You still take at least 1 damage from any successful attack"."""

from __future__ import annotations

from tests.engine.battle.helpers import act, act_events, battle, events_of, fighter, scripted
from tests.engine.battle.samples import character
from westernroses.battle.state import Profile


def _knocked_down(key: str, *dice: int):
    hero = character(key, position=(0, 0), controller="gm")
    state = battle(hero, fighter("b", (5, 5), side="b", speed=1))
    state = act(state, "gm_add_status", combatant=key, status="knockdown")
    state = act(state, "end_turn", combatant=key)
    with scripted(*dice):
        return act_events(state, "end_turn", combatant="b")


def test_armour_names_itself_and_the_minimum_of_one_is_a_step():
    """Knockdown's impact is 2d (Status Effects); Leather Armor "reduces all damage taken by 3
    to a minimum of 1" (Items): 1 + 1 = 2, less 3 is 0, so the minimum of 1 is what lands."""
    _, events = _knocked_down("meiling", 1, 1)
    reduced = events_of(events, "damage_reduced")[0]
    assert reduced["raw"] == 2
    assert reduced["steps"] == [
        {"step": "reduction", "label": "Leather Armor", "amount": -3, "damage": 0},
        {"step": "minimum", "damage": 1},
    ]
    assert events_of(events, "damage")[0]["amount"] == 1


def test_the_outfit_names_itself():
    """The Shrine Maiden Outfit: "all damage is decreased by 1" (Items). 3 + 4 = 7, less 1."""
    _, events = _knocked_down("reimu", 3, 4)
    assert events_of(events, "damage_reduced")[0]["steps"] == [
        {"step": "reduction", "label": "Shrine Maiden Outfit", "amount": -1, "damage": 6},
    ]


def test_an_npcs_single_number_is_one_step_without_a_name():
    """A GM's NPC carries one damage reduction (no sources to name): one step, no label."""
    b = fighter("b", (1, 0), side="b", damage_reduction=4)
    state = battle(fighter("a", (0, 0), speed=10, weapons=("sword",)), b)
    with scripted(6, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1):
        _, events = act_events(state, "attack", combatant="a", attack="sword", target="b")
    hit = events_of(events, "hit")[0]
    # the sword's 3d+6 at PWR 12 (RULINGS 4): 1 + 1 + 1 + 6 = 9, less 4 is 5
    assert (hit["raw"], hit["damage"]) == (9, 5)
    assert hit["steps"] == [{"step": "reduction", "amount": -4, "damage": 5}]


def test_the_parts_survive_the_states_json():
    """A profile's named reductions are stored with the battle and read back as they were."""
    profile = character("meiling").profile
    assert Profile.from_dict(profile.to_dict()).reduction_parts == (("Leather Armor", 3, True),)
