"""Spell power and the spell meter ("Spell Power", "Spell-meter", RULINGS 3 and 8)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.engine.battle.helpers import act, act_events, battle, events_of, fighter, scripted, take
from westernroses.battle import legal_actions
from westernroses.battle.spell_power import pickup_amount
from westernroses.house_rules import HouseRules
from westernroses.spellcards import AttackPower, CardType, SpellcardDraft

CARD = SpellcardDraft(name="Shot", type=CardType.ATTACK, attack_power=AttackPower(1))


def test_everyone_starts_with_fifty_and_gains_insight_each_turn():
    """Spell Power: "Every character begins with 50 spell power"; "At the beginning of her turn
    each character receives spell power equal to her insight" (INS 12: 62)."""
    state = battle(fighter("a", (0, 0), speed=9), fighter("b", (5, 5), side="b"))
    assert state.combatants["a"].spell_power == 62
    assert state.combatants["b"].spell_power == 50


def test_ley_lines_and_power_hungry_change_the_gain():
    """Abilities: Ley Lines "an additional 4 power at the beginning of each of your turns";
    Power-Hungry doubles it: (12 + 4) × 2 = 32."""
    a = fighter("a", (0, 0), speed=9)
    a.profile = replace(a.profile, sp_bonus=4, sp_multiplier=2)
    state = battle(a, fighter("b", (5, 5), side="b"))
    assert state.combatants["a"].spell_power == 50 + 32


def test_spell_power_never_exceeds_the_cap():
    """RULINGS 8 / house rule: spell power never goes above the cap (here 60)."""
    state = battle(
        fighter("a", (0, 0), speed=9),
        fighter("b", (5, 5), side="b"),
        rules=HouseRules(spell_power_cap=60),
    )
    assert state.combatants["a"].spell_power == 60


def test_npcs_may_start_with_more_or_less():
    """Spell Power: "NPCs may begin with more or less at GM discretion"."""
    state = battle(fighter("a", (0, 0), speed=9), fighter("b", (5, 5), side="b", spell_power=120))
    assert state.combatants["b"].spell_power == 120


def test_concentrate_gains_the_turn_amount_again_and_two_meter_points():
    """The Arena: Concentrate "You gain spell power equal to the amount you gained at the
    beginning of your turn"; Spell-meter: "Concentrating – 2 points"."""
    state = battle(fighter("a", (0, 0), speed=9), fighter("b", (5, 5), side="b"))
    state = act(state, "concentrate", combatant="a")
    a = state.combatants["a"]
    assert (a.spell_power, a.meter, a.actions_left) == (74, 2, 1)


def test_the_meter_draws_a_card_every_five_points_and_keeps_the_rest():
    """Spell-meter: "if you have 4 points in your spell-meter and you are successfully hit by an
    attack that deals damage your spell-meter would have 7 points ... draw a card and then
    subtract 5 from the total, leaving you with a spellcard and a spell-meter with 2 points"."""
    b = fighter("b", (1, 0), side="b", deck=[("shot", CARD, 5)])
    b.meter = 4
    state = battle(fighter("a", (0, 0), speed=9), b)
    assert len(state.combatants["b"].deck.hand) == 1  # the start-of-battle draw
    with scripted(3, 3, 3, 3, 1, 1, 1, 2):
        state, events = act_events(state, "attack", combatant="a", attack="danmaku", target="b")
        state, more = take(state)  # she holds a card: the hit waits for her answer
    events += more
    b = state.combatants["b"]
    assert (b.meter, len(b.deck.hand), len(b.deck.draw_pile)) == (2, 2, 3)
    assert events_of(events, "draw")[0]["reason"] == "spell meter"


def test_a_hit_without_damage_adds_one_meter_point():
    """Spell-meter: "Being hit by an attack from an opponent that does not deal damage – 1"."""
    a = fighter("a", (0, 0), speed=9, weapons=("basic_improvised_weapon",), stats={"pwr": 4})
    state = battle(a, fighter("b", (1, 0), side="b", stats={"cha": 3}))
    with scripted(6, 1, 1, 1):  # 1d-2 = 4 beats 1d = 1; 2d + 2 - 4 = 0 damage
        state, events = act_events(
            state, "attack", combatant="a", attack="basic_improvised_weapon", target="b"
        )
    assert events_of(events, "hit")[0]["damage"] == 0
    assert state.combatants["b"].meter == 1


def test_only_empty_hands_draw_at_the_start_of_battle():
    """Spell-meter: "When a battle begins, any character that has no cards in her hoof
    immediately draws a card from the top of her spelldeck"."""
    held = fighter("b", (5, 5), side="b", deck=[("shot", CARD, 3)], hand=["shot"])
    state = battle(fighter("a", (0, 0), speed=9, deck=[("shot", CARD, 3)]), held)
    assert len(state.combatants["a"].deck.hand) == 1
    assert len(state.combatants["b"].deck.hand) == 1


@pytest.mark.parametrize(("distance", "share"), [(0, 50), (1, 38), (2, 25), (3, 13), (4, None)])
def test_dropped_power_is_collected_by_distance_rounded_up(distance, share):
    """Spell Power: "3 spaces away – ¼ ... 2 spaces away – ½ ... 1 space away – ¾ ... 0 yards
    away – All dropped power", rounded up (RULINGS 3): 50 gives 13, 25, 38, 50."""
    assert pickup_amount(50, distance) == share


def test_a_fallen_combatant_drops_her_power_for_the_others_to_collect_on_their_next_turn():
    """Spell Power: "Once a character falls unconscious or dies they drop all spell power they
    were holding ... collected as an action by any character within six yards on their next
    turn unless somepony else has already collected" (ruling: within the table's 3 spaces)."""
    b = fighter("b", (1, 0), side="b", hp=5)
    state = battle(fighter("a", (0, 0), speed=9), b, fighter("c", (7, 7), side="b", speed=1))
    with scripted(3, 3, 3, 3, 1, 1, 1, 2):
        state, events = act_events(state, "attack", combatant="a", attack="danmaku", target="b")
    assert state.combatants["b"].life == "dead"
    assert events_of(events, "power_dropped")[0]["amount"] == 50
    option = next(o for o in legal_actions(state, "gm") if o["type"] == "collect_power")
    assert option["amount"] == 38
    state = act(state, "collect_power", combatant="a", drop=option["drop"])
    assert state.combatants["a"].spell_power == 62 + 38
    assert state.drops == []


def test_dropped_power_is_gone_once_everyone_has_had_their_next_turn():
    """Spell Power: collected "on their next turn" - it does not wait for later turns."""
    b = fighter("b", (1, 0), side="b", hp=5)
    state = battle(fighter("a", (0, 0), speed=9), b, fighter("c", (7, 7), side="b", speed=1))
    with scripted(3, 3, 3, 3, 1, 1, 1, 2):
        state = act(state, "attack", combatant="a", attack="danmaku", target="b")
    state = act(state, "end_turn", combatant="a")
    assert [d.eligible for d in state.drops] == [("c",)]
    state = act(state, "end_turn", combatant="c")
    assert state.drops == []
