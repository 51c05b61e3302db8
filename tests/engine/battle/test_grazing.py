"""Grazing and Lucky ("Grazing", shot-types Lucky and Power-Hungry, abilities Graze Points and
Curvy Lasers). Danmaku from a 12-INT attacker: 4d damage, then the defender's dodge."""

from __future__ import annotations

from dataclasses import replace

from tests.engine.battle.helpers import act, act_events, battle, events_of, fighter, scripted
from westernroses.battle import legal_actions


def dodged_danmaku(defender=None, attacker=None, damage=(3, 3, 3, 3)):
    """A battle where b has just dodged a's 12-damage danmaku and must decide to graze."""
    a = attacker or fighter("a", (0, 0), speed=9)
    b = defender or fighter("b", (1, 0), side="b", controller="p2")
    state = battle(a, b)
    with scripted(*damage, 4, 4, 4, 4):
        state = act(state, "attack", combatant="a", attack="danmaku", target="b")
    assert state.pending and state.pending[0]["stage"] == "dodged"
    return state


def test_a_successful_graze_gains_twice_the_damage_as_spell_power():
    """Grazing: "If you succeed, you gain TWICE as much power as the damage you would have
    taken" (12 damage: +24)."""
    state = dodged_danmaku()
    with scripted(4, 4, 4, 4):
        state, events = act_events(state, "react", player="p2", combatant="b", choice="graze")
    assert events_of(events, "grazed")
    b = state.combatants["b"]
    assert (b.hp, b.spell_power) == (100, 50 + 24)


def test_power_hungry_doubles_graze_power():
    """Shot-types: Power-Hungry "You gain twice the normal amount of power from all
    power-gaining actions" (a graze of 12: +48)."""
    b = fighter("b", (1, 0), side="b", controller="p2")
    b.profile = replace(b.profile, sp_multiplier=2)
    state = dodged_danmaku(b)
    with scripted(4, 4, 4, 4):
        state = act(state, "react", player="p2", combatant="b", choice="graze")
    assert state.combatants["b"].spell_power == 50 + 48


def test_a_failed_graze_takes_half_the_damage_rounded_up():
    """Grazing: "On a failure you take half the damage you would have taken" (13 → 7, RULINGS 3)."""
    state = dodged_danmaku(damage=(4, 3, 3, 3))
    with scripted(2, 3, 3, 2):
        state = act(state, "react", player="p2", combatant="b", choice="graze")
    b = state.combatants["b"]
    assert (b.hp, b.meter) == (93, 3)


def test_a_critically_failed_graze_takes_the_full_damage():
    """Grazing: "On a critical failure you take damage as if you had not dodged the attack"
    (RULINGS 2: 4-6 on 4d)."""
    state = dodged_danmaku()
    with scripted(1, 1, 1, 2):
        state = act(state, "react", player="p2", combatant="b", choice="graze")
    assert state.combatants["b"].hp == 88


def test_declining_to_graze_is_safe():
    """Attacking and Dodging: the target "may then attempt to graze if she wishes"."""
    state = act(dodged_danmaku(), "react", player="p2", combatant="b", choice="no_graze")
    assert (state.combatants["b"].hp, state.combatants["b"].spell_power) == (100, 50)


def test_graze_points_and_curvy_lasers_modify_the_graze_roll():
    """Abilities: Graze Points "+4 to all attempted graze checks"; Curvy Lasers "All attempts
    to graze your attacks suffer a -4 penalty"."""
    a = fighter("a", (0, 0), speed=9)
    a.profile = replace(a.profile, opponents_graze=-4)
    b = fighter("b", (1, 0), side="b", controller="p2")
    b.profile = replace(b.profile, graze_bonus=4)
    state = dodged_danmaku(b, a)
    with scripted(4, 4, 4, 4):
        _, events = act_events(state, "react", player="p2", combatant="b", choice="graze")
    graze = events_of(events, "roll")[0]
    assert {m["label"]: m["amount"] for m in graze["modifiers"]} == {
        "Graze bonuses": 4,
        "Attacker (Curvy Lasers)": -4,
    }
    assert graze["result"]["target"] == 12


def test_lucky_rerolls_a_failed_dodge_once_per_battle():
    """Shot-types: Lucky "Once per battle you may re-roll a roll of your choice made this turn,
    using the new roll as your result" - offered when her dodge fails."""
    a = fighter("a", (0, 0), speed=9)
    b = fighter("b", (1, 0), side="b", controller="p2", traits=("lucky",))
    state = battle(a, b)
    with scripted(3, 3, 3, 3, 1, 2, 2, 2):
        state = act(state, "attack", combatant="a", attack="danmaku", target="b")
    assert {o["choice"] for o in legal_actions(state, "p2")} == {"take", "lucky"}
    with scripted(5, 5, 5, 5):
        state, events = act_events(state, "react", player="p2", combatant="b", choice="lucky")
    reroll = events_of(events, "roll")[0]["result"]
    assert reroll["rerolled_from"]["total"] == 7 and reroll["success"]
    assert state.pending[0]["stage"] == "dodged"
    state = act(state, "react", player="p2", combatant="b", choice="no_graze")
    assert state.combatants["b"].battle_used == {"lucky": 1}
    assert state.combatants["b"].hp == 100


def test_lucky_attacker_may_reroll_a_lost_physical_versus():
    """Lucky applies to her own roll: a lost PWR-vs-CHA versus may be re-rolled (checks.
    reroll_versus keeps the defender's roll)."""
    a = fighter("a", (0, 0), speed=9, traits=("lucky",), controller="p1")
    state = battle(a, fighter("b", (1, 0), side="b"))
    with scripted(1, 2, 2, 2, 4, 4, 4, 4):
        state = act(state, "attack", player="p1", combatant="a", attack="bare_fists", target="b")
    assert [o["choice"] for o in legal_actions(state, "p1")] == ["accept", "lucky"]
    with scripted(6, 6, 5, 5, 2):
        state = act(state, "react", player="p1", combatant="a", choice="lucky")
    assert state.combatants["b"].hp == 100 - (2 + 6)
