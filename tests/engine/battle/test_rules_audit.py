"""Issue 9's battle-rule fixes (the rules audit), each against the rulebook line or ruling
it restores (``../shared/rules/western-roses-ruleset-v0.6.txt``, ``RULINGS.md``, and the
project's rulings in docs/battle.md)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.engine.battle.helpers import act, act_events, battle, events_of, fighter, scripted
from tests.engine.battle.samples import character
from westernroses.battle import IllegalAction, legal_actions, view
from westernroses.battle.stats import hp_max


def _fallen_under_someone():
    """a falls at (0, 0); the GM puts b on her square; c stands on (1, 0)."""
    a = fighter("a", (0, 0), speed=9)
    b = fighter("b", (4, 4), side="b")
    c = fighter("c", (1, 0), speed=2)
    state = battle(a, b, c)
    state = act(state, "gm_add_status", combatant="a", status="unconscious")
    assert not state.combatants["a"].conscious
    return act(state, "gm_move", combatant="b", to=[0, 0])


def test_a_combatant_who_wakes_under_someone_gets_up_on_the_nearest_free_square():
    """docs/battle.md ruling 1: "you never stop on someone's square"; fallen combatants lie on
    the ground and block nobody. Waking there, she gets up on the nearest free square, the
    first in reading order between equals: (1, 0) is taken, so (0, 1)."""
    state, events = act_events(
        _fallen_under_someone(), "gm_remove_status", combatant="a", status="unconscious"
    )
    assert state.combatants["a"].position == (0, 1)
    assert state.combatants["b"].position == (0, 0)
    assert events_of(events, "moved")[-1] == {
        "type": "moved",
        "combatant": "a",
        "frm": [0, 0],
        "to": [0, 1],
        "reason": "got up",
    }


def test_a_combatant_revived_under_someone_gets_up_beside_her():
    """The same for a dead combatant the GM brings back (gm_adjust: HP to 0 or more)."""
    a = fighter("a", (0, 0), speed=9, hp=10)
    state = battle(a, fighter("b", (4, 4), side="b"), fighter("c", (1, 0), speed=2))
    state = act(state, "gm_adjust", combatant="a", hp=-15)
    assert state.combatants["a"].life == "dead"
    state = act(state, "gm_move", combatant="b", to=[0, 0])
    state = act(state, "gm_adjust", combatant="a", hp=20)
    assert state.combatants["a"].life == "alive"
    assert state.combatants["a"].position == (0, 1)


def test_power_hungry_doubles_collected_dropped_power():
    """Power-Hungry: "You gain twice the normal amount of power from all power-gaining
    actions" (ruleset, Abilities); collecting dropped power is one. b drops 50 one space
    away: ¾ rounded up is 38, doubled 76."""
    a = fighter("a", (0, 0), speed=9)
    a.profile = replace(a.profile, sp_multiplier=2)
    b = fighter("b", (1, 0), side="b", hp=5)
    state = battle(a, b, fighter("c", (7, 7), side="b", speed=1))
    with scripted(3, 3, 3, 3, 1, 1, 1, 2):
        state = act(state, "attack", combatant="a", attack="danmaku", target="b")
    option = next(o for o in legal_actions(state, "gm") if o["type"] == "collect_power")
    assert option["amount"] == 76
    before = state.combatants["a"].spell_power
    state = act(state, "collect_power", combatant="a", drop=option["drop"])
    assert state.combatants["a"].spell_power == before + 76


def test_fear_from_the_gm_needs_a_source():
    """Fear: "she must run as far as she can from the source of her fear taking no other
    actions" (ruleset, Status Effects) - fear without a source would leave her free, so the
    GM must name someone else."""
    state = battle(fighter("a", (0, 0), speed=9), fighter("b", (3, 0), side="b"))
    for source in (None, "a"):
        with pytest.raises(IllegalAction, match="afraid of"):
            act(state, "gm_add_status", combatant="a", status="fear", source=source)
    state = act(state, "gm_add_status", combatant="a", status="fear", source="b")
    assert state.combatants["a"].effect("fear").source == "b"


def test_a_terrified_combatant_whose_source_left_may_still_take_no_other_action():
    """ "taking no other actions": a failed check restricts her even when the source of her
    fear has left the battle - no attacks, cards or concentrating, and nowhere to run to."""
    state = battle(
        fighter("a", (0, 0), speed=9),
        fighter("b", (3, 0), side="b"),
        fighter("c", (5, 5), side="b", speed=1),
    )
    state = act(state, "gm_add_status", combatant="a", status="fear", source="b")
    state = act(state, "end_turn", combatant="a")
    state = act(state, "gm_remove_combatant", combatant="b")
    assert state.current == "c"
    with scripted(2, 2, 2, 2):  # her will roll to regain control: 8, a plain failure
        state = act(state, "end_turn", combatant="c")
    assert state.current == "a" and state.combatants["a"].effect("fear") is not None
    kinds = {o["type"] for o in legal_actions(state, "gm")}
    assert kinds <= {"do_nothing", "end_turn"}, kinds


@pytest.mark.parametrize(("key", "reduction"), [("reimu", 1), ("meiling", 3)])
def test_armour_and_the_outfit_reduce_a_knockdowns_impact(key, reduction):
    """Knockdown: "taking 2d damage from the impact" (ruleset, Status Effects). The Shrine
    Maiden outfit: "all damage is decreased by 1"; leather armour "reduces all damage taken by
    3" - an impact too. Resilience ("5 less damage from all attacks") does not: Meiling's
    Fourth Strike gives her 5 against attacks, not against the ground. 2d = 3 + 4 = 7."""
    hero = character(key, position=(0, 0), controller="gm")
    state = battle(hero, fighter("b", (5, 5), side="b", speed=1))
    assert state.current == key
    state = act(state, "gm_add_status", combatant=key, status="knockdown")
    state = act(state, "end_turn", combatant=key)
    before = state.combatants[key].hp
    with scripted(3, 4):
        state = act(state, "end_turn", combatant="b")
    assert before - state.combatants[key].hp == 7 - reduction


def _homing_twice():
    from westernroses.spellcards import AttackPower, CardType, Duration, SpellcardDraft

    homing = SpellcardDraft(
        name="Seeker",
        type=CardType.ATTACK,
        aoe=1,
        duration=Duration.HOMING_2,
        attack_power=AttackPower(1),
    )
    a = fighter("a", (0, 0), speed=9, deck=[("x", homing, 1)], hand=["x"], spell_power=200)
    return battle(a, fighter("b", (1, 0), side="b"), fighter("c", (2, 0), side="b", speed=3))


def test_a_homing_card_follows_only_those_it_hit():
    """Duration: a homing card "follows a character" hit by it (ruleset, Spellcards); docs/
    battle.md ruling 14: it follows everyone it hit. c dodged it (24 against 12), so it
    follows b alone."""
    state = _homing_twice()
    with scripted(2, 1, 1, 1, 2, 6, 6, 6, 6):
        state, _ = act_events(state, "use_spellcard", combatant="a", card="x", targets=[[1, 0]])
    assert state.field_effects[0].follows == ("b",)


def test_a_homing_card_everyone_dodged_fizzles():
    """docs/battle.md ruling 14: "(and fizzles if it hit nobody)"."""
    state = _homing_twice()
    with scripted(2, 6, 6, 6, 6, 6, 6, 6, 6):
        state, events = act_events(
            state, "use_spellcard", combatant="a", card="x", targets=[[1, 0]]
        )
    assert state.field_effects == []
    assert events_of(events, "homing_fizzled")


@pytest.mark.parametrize("fall", ["unconscious", "dead"])
def test_a_fallen_winner_cannot_recover_thrown_weapons(fall):
    """Throwing Weapons: "after a battle a character may roll ... to determine how many of
    those weapons she has retrieved" (ruleset, Weapons) - someone lying unconscious or dead
    retrieves nothing; a standing winner still can."""
    sakuya = character("sakuya", position=(0, 0), controller="p1")
    sakuya.thrown_used = {"throwing_knives": 7}
    ally = fighter("c", (1, 1), side="heroes")
    ally.thrown_used = {}
    state = battle(sakuya, ally, fighter("b", (5, 5), side="b"))
    if fall == "unconscious":
        state = act(state, "gm_add_status", combatant="sakuya", status="unconscious")
    else:
        # dead, not destroyed: -50 HP (a GM's change stops at -100, utter destruction)
        state = act(
            state, "gm_adjust", combatant="sakuya", hp=-(state.combatants["sakuya"].hp + 50)
        )
    state = act(state, "gm_end_battle", winner="heroes")
    assert legal_actions(state, "p1") == []
    with pytest.raises(IllegalAction, match="no weapons"):
        act(state, "recover_weapons", player="p1", combatant="sakuya")


def test_a_stunned_doll_loses_her_actions_and_the_stun_counts_her_controllers_turns():
    """Stun: "the character loses her next turn(s)" (ruleset, Status Effects); a doll acts
    only in her controller's turn ("Doll Master"), so her stun is counted in those turns: she
    loses what she was given, gets nothing from the next command, and acts again after."""
    from tests.engine.battle.test_summons import activate, master

    state = battle(master(spell_power=100), fighter("b", (6, 6), side="b"))
    state = activate(state, (2, 1))
    state = act(state, "use_ability", combatant="m", ability="command_dolls")
    state = act(state, "gm_add_status", combatant="m-doll1", status="stun", turns=1)
    assert state.combatants["m-doll1"].actions_left == 0
    state = act(state, "end_turn", combatant="m")
    state = act(state, "end_turn", combatant="b")
    state = act(state, "use_ability", combatant="m", ability="command_dolls")
    assert state.combatants["m-doll1"].actions_left == 0  # the turn she loses
    state = act(state, "end_turn", combatant="m")
    assert not state.combatants["m-doll1"].has("stun")
    state = act(state, "end_turn", combatant="b")
    state = act(state, "use_ability", combatant="m", ability="command_dolls")
    assert state.combatants["m-doll1"].actions_left == 1


def _guarded(rules=None):
    from westernroses.house_rules import HouseRules

    meiling = character("meiling", position=(0, 0), controller="gm", charge="reimu")
    reimu = character("reimu", position=(1, 0), controller="gm")
    return battle(
        meiling, reimu, fighter("b", (5, 5), side="b", speed=1), rules=rules or HouseRules()
    )


def test_a_guardian_loses_her_extra_hp_while_her_charge_is_injured():
    """Guardian: "begin with an additional 20 HP"; "If harm comes to this pony or object, the
    Guardian loses all Guardian-related powers ... until their charge is no longer injured"
    (ruleset, Professions). House rule on by default: Meiling (Fourth Strike 120 + 20) has 120
    while Reimu is hurt, her HP capped to it, and 140 again once Reimu is healed."""
    state = _guarded()
    meiling = state.combatants["meiling"]
    assert (meiling.hp, hp_max(meiling)) == (140, 140)
    state = act(state, "gm_adjust", combatant="reimu", hp=-10)
    meiling = state.combatants["meiling"]
    assert (meiling.hp, hp_max(meiling)) == (120, 120)
    assert view(state, "gm")["combatants"]["meiling"]["hp_max"] == 120
    state = act(state, "gm_adjust", combatant="reimu", hp=10)
    meiling = state.combatants["meiling"]
    assert (meiling.hp, hp_max(meiling)) == (120, 140)


def test_the_guardian_hp_house_rule_off_keeps_her_extra_hp():
    """House rule ``guardian_hp_needs_safe_charge`` = 0: she loses only her protection cards."""
    from westernroses.house_rules import HouseRules

    state = _guarded(HouseRules(guardian_hp_needs_safe_charge=0))
    state = act(state, "gm_adjust", combatant="reimu", hp=-10)
    assert hp_max(state.combatants["meiling"]) == 140


def test_a_hit_without_damage_fills_the_meter_only_from_an_opponent():
    """Spell-meter: "Being hit by an attack from an opponent that does not deal damage - 1
    point" (ruleset, Death and Dying). a's harmless card covers her enemy b and her ally c:
    b gains a point, c none."""
    from westernroses.spellcards import CardType, SpellcardDraft

    dud = SpellcardDraft(name="Dud", type=CardType.ATTACK, aoe=1)
    a = fighter("a", (0, 0), speed=9, deck=[("x", dud, 1)], hand=["x"], spell_power=200)
    state = battle(a, fighter("b", (2, 1), side="b"), fighter("c", (2, 0), speed=3))
    with scripted(1, 1, 1, 2, 1, 1, 1, 2):
        state, events = act_events(
            state, "use_spellcard", combatant="a", card="x", targets=[[2, 0]]
        )
    assert len(events_of(events, "hit")) == 2
    assert (state.combatants["b"].meter, state.combatants["c"].meter) == (1, 0)


def test_a_thawing_combatant_can_neither_dodge_nor_bomb():
    """docs/battle.md rulings 6 and 20: anyone stunned, frozen, thawing or unconscious cannot
    dodge (Freeze: "she loses her next 2 turns while she thaws") and cannot react with a bomb;
    so a hit on her never waits."""
    from westernroses.battle.state import Effect
    from westernroses.spellcards import AttackPower, CardType, SpellcardDraft

    bomb = SpellcardDraft(name="Boom", type=CardType.ATTACK, bomb=True, attack_power=AttackPower(1))
    b = fighter("b", (1, 0), side="b", deck=[("boom", bomb, 1)], hand=["boom"])
    b.effects.append(Effect("e0", "thawing", "Thawing"))
    state = battle(fighter("a", (0, 0), speed=9), b)
    with scripted(3, 3, 3, 3):
        state, events = act_events(state, "attack", combatant="a", attack="danmaku", target="b")
    assert events_of(events, "cannot_dodge") and not state.pending
    assert state.combatants["b"].hp == 100 - 12


def test_blocking_squares_do_not_block_attacks_or_cards():
    """docs/battle.md ruling 2: no line of sight - a wall between them stops movement only."""
    a = fighter("a", (0, 0), speed=9)
    state = battle(a, fighter("b", (2, 0), side="b"), blocked=[(1, 0)])
    option = next(o for o in legal_actions(state, "gm") if o.get("attack") == "danmaku")
    assert option["targets"] == ["b"]


def test_a_doll_without_an_emotional_connection_fights_with_halved_stats():
    """Doll Master: an unconnected doll "has all its stats halved" - in battle too (issue 9):
    Alice's fourth doll has half her stats (rounded up), the first three her own."""
    from tests.engine.battle.samples import CHARACTERS
    from westernroses.battle.combatants import combatant_from_sheet
    from westernroses.characters import derive_sheet, with_starting_kit

    draft, deck = CHARACTERS["alice"]
    kit = replace(with_starting_kit(draft), unconnected_dolls=1)
    alice = combatant_from_sheet(
        derive_sheet(kit), id="alice", controller="p1", side="heroes", position=(0, 0), deck=deck
    )
    state = battle(alice, fighter("b", (6, 6), side="b"))
    own = alice.profile.stats
    dolls = [state.combatants[f"alice-doll{i}"] for i in range(1, 5)]
    assert [d.profile.stats == own for d in dolls] == [True, True, True, False]
    assert dolls[3].profile.stats == {k: -(-v // 2) for k, v in own.items()}
    assert dolls[3].profile.hp_max == -(-alice.profile.hp_max // 2)
