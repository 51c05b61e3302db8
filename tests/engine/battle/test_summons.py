"""Dolls, familiars and the Librarian's double cast (Professions: Doll Master, Librarian;
"Doll Skills"; Study: Summon Familiar)."""

from __future__ import annotations

import pytest

from tests.engine.battle.helpers import act, act_events, battle, events_of, fighter, scripted
from tests.engine.battle.samples import character
from westernroses.battle import IllegalAction, legal_actions
from westernroses.battle.summons import doll_profile
from westernroses.spellcards import AttackPower, CardType, SkillChoice, SpellcardDraft

S = CardType.SPECIAL


def special(slug, name="Card", **fields):
    fields.setdefault("targets", None)
    return SpellcardDraft(name=name, type=S, skills=(SkillChoice.of(slug),), **fields)


def master(*cards, speed=9, **kw):
    deck = [(f"c{i}", card, 1) for i, card in enumerate(cards)]
    return fighter(
        "m",
        (2, 2),
        speed=speed,
        traits=("doll_master",),
        dolls=4,
        deck=deck,
        hand=[cid for cid, _, _ in deck],
        **kw,
    )


def activate(state, square):
    return act(state, "use_ability", combatant="m", ability="activate_doll", target=list(square))


def test_a_doll_master_brings_her_four_dolls_off_the_board():
    """Doll Master: starting equipment "four dolls"; they wait until she activates them."""
    alice = character("alice", position=(0, 0))
    state = battle(alice, fighter("b", (5, 5), side="b"))
    dolls = [c for c in state.combatants.values() if c.kind == "doll"]
    assert [d.id for d in dolls] == [f"alice-doll{i}" for i in range(1, 5)]
    assert all(d.position is None and d.owner == "alice" for d in dolls)
    assert "alice-doll1" not in state.order  # dolls take no turns of their own


def test_activating_a_doll_costs_twenty_power_and_an_action():
    """Doll Master: "bring a doll to action for the cost of 20 power (although if done during
    battle it will count as an action)" - onto a square next to her (ruling)."""
    state = battle(master(), fighter("b", (6, 6), side="b"))
    option = next(o for o in legal_actions(state, "gm") if o.get("ability") == "activate_doll")
    assert [2, 1] in option["target_squares"] and [4, 4] not in option["target_squares"]
    state = activate(state, (2, 1))
    m, doll = state.combatants["m"], state.combatants["m-doll1"]
    assert (m.spell_power, m.actions_left, doll.position) == (62 - 20, 1, (2, 1))


def test_doll_stats_follow_how_many_are_active():
    """Doll Master: "If one or two dolls are active, they have stats equal to the controller's.
    However, if there are three or four then all four mane stats have a -4 penalty. In addition,
    they have a -20 to HP. If more than four are active, then all dolls have stats equal to half
    the controller's stats."""
    m = master().profile
    assert (doll_profile(m, 2).stats["pwr"], doll_profile(m, 2).hp_max) == (12, 100)
    assert (doll_profile(m, 3).stats["pwr"], doll_profile(m, 3).hp_max) == (8, 80)
    assert (doll_profile(m, 5).stats["pwr"], doll_profile(m, 5).hp_max) == (6, 50)


def test_a_third_doll_weakens_the_others_but_keeps_their_damage():
    """Crowd stats change when the count changes (ruling: damage taken is kept)."""
    state = battle(master(spell_power=200), fighter("b", (6, 6), side="b"))
    state = activate(state, (2, 1))
    state.combatants["m-doll1"].hp = 90
    state = activate(state, (1, 2))
    state = act(state, "end_turn", combatant="m")
    state = act(state, "end_turn", combatant="b")
    state = activate(state, (3, 2))
    assert state.combatants["m-doll1"].hp == 70  # 80 max, still 10 down
    assert state.combatants["m-doll3"].profile.stats["int"] == 8


def test_commanding_gives_every_doll_one_action_in_her_turn():
    """Doll Master: "Activated dolls can be given actions by their controller at the cost of one
    of the controller's actions ... every doll is given an action"; unused ones lapse."""
    state = battle(master(spell_power=100), fighter("b", (6, 6), side="b"))
    state = activate(state, (2, 1))
    state = act(state, "use_ability", combatant="m", ability="command_dolls")
    doll_moves = [o for o in legal_actions(state, "gm") if o["combatant"] == "m-doll1"]
    assert {o["type"] for o in doll_moves} == {"do_nothing", "move", "attack"}
    state = act(state, "move", combatant="m-doll1", to=[2, 0])
    with pytest.raises(IllegalAction):
        act(state, "move", combatant="m-doll1", to=[3, 0])
    state = act(state, "end_turn", combatant="m")
    assert state.combatants["m-doll1"].actions_left == 0


def test_a_doll_far_from_her_controller_moves_at_half_speed():
    """Doll Master: "Dolls can only move their full speed if they begin within their
    controller's range. Otherwise, their speed is treated as halved"."""
    from westernroses.battle.actions import context
    from westernroses.battle.movement import reach

    state = battle(
        master(spell_power=100, speed=4), fighter("b", (7, 7), side="b", speed=1), size=(12, 12)
    )
    state = activate(state, (2, 1))
    near = max(reach(context(state), state.combatants["m-doll1"]).values())
    state = act(state, "gm_move", combatant="m-doll1", to=[9, 2])
    far = max(reach(context(state), state.combatants["m-doll1"]).values())
    assert (near, far) == (4, 2)


def test_dolls_are_immune_to_status_effects_and_incapacitated_below_zero():
    """Doll Master: dolls "cannot be effected by status effects"; "Any doll whose HP drops below
    0 is considered incapacitated"."""
    state = battle(master(spell_power=100), fighter("b", (6, 6), side="b"))
    state = activate(state, (2, 1))
    state = act(state, "gm_add_status", combatant="m-doll1", status="fear", save=True)
    assert state.combatants["m-doll1"].effects == []
    state, events = act_events(state, "gm_adjust", combatant="m-doll1", hp=-101)
    assert events_of(events, "fell")[0]["state"] == "incapacitated"


def test_dual_strike_costs_ten_per_active_doll_and_gives_two_actions_each():
    """Doll Skills: Dual Strike "Cost: variable (10 per active doll, minimum of 20) Each doll
    under your control immediately takes two actions."""
    state = battle(master(special("dual_strike"), spell_power=200), fighter("b", (6, 6), side="b"))
    for square in ((2, 1), (1, 2)):
        state = activate(state, square)
    state = act(state, "end_turn", combatant="m")
    state = act(state, "end_turn", combatant="b")
    state = activate(state, (3, 2))
    option = next(o for o in legal_actions(state, "gm") if o["type"] == "use_spellcard")
    assert option["cost"] == 30
    state = act(state, "use_spellcard", combatant="m", card="c0", targets=[])
    assert [state.combatants[f"m-doll{i}"].actions_left for i in (1, 2, 3)] == [2, 2, 2]


def test_doll_swarm_brings_out_four_dolls_next_to_her_with_a_free_action():
    """Doll Skills: Doll Swarm "immediately summons four dolls on the four spaces adjacent to
    her. In addition, each doll immediately gets a free action"."""
    state = battle(master(special("doll_swarm"), spell_power=200), fighter("b", (6, 6), side="b"))
    state = act(state, "use_spellcard", combatant="m", card="c0", targets=[])
    placed = sorted(state.combatants[f"m-doll{i}"].position for i in range(1, 5))
    assert placed == [(1, 2), (2, 1), (2, 3), (3, 2)]
    assert all(state.combatants[f"m-doll{i}"].actions_left == 1 for i in range(1, 5))
    assert state.combatants["m-doll1"].profile.hp_max == 80  # four out: -20 HP


def test_doll_cremation_explodes_a_doll_on_everyone_within_two():
    """Doll Skills: Doll Cremation "Choose a doll under your control. It immediately explodes,
    becoming incapacitated. It deals damage to all characters within two spaces of itself."""
    card = special("doll_cremation", attack_power=AttackPower(1))
    state = battle(master(card, spell_power=100), fighter("b", (4, 1), side="b"))
    state = activate(state, (3, 2))
    with scripted(2, 1, 1, 1, 2, 1, 1, 1, 2):
        state, events = act_events(
            state, "use_spellcard", combatant="m", card="c0", targets=[[3, 2]]
        )
    assert state.combatants["m-doll1"].life == "dead"
    assert {e["defender"] for e in events_of(events, "hit")} == {"b", "m"}


def test_a_familiar_has_half_her_summoners_stats_and_joins_the_turn_order():
    """Study: Summon Familiar "Its stats are half yours, rounded up and it does not have any
    spellcards ... can only hold a total of 200"."""
    card = SpellcardDraft(
        name="Familiar",
        type=S,
        targets=None,
        skills=(SkillChoice.of("summon_familiar", familiar_element="fire"),),
    )
    p = fighter(
        "p", (0, 0), speed=9, stats={"int": 15}, deck=[("f", card, 1)], hand=["f"], spell_power=200
    )
    state = battle(p, fighter("b", (7, 7), side="b"))
    state = act(state, "use_spellcard", combatant="p", card="f", targets=[[1, 0]])
    fam = state.combatants["p-familiar"]
    assert (fam.profile.stats["int"], fam.profile.hp_max, fam.profile.speed) == (8, 50, 5)
    assert (fam.profile.element, fam.profile.sp_cap, fam.spell_power) == ("fire", 200, 0)
    assert state.order == ["p", "p-familiar", "b"]
    state = act(state, "end_turn", combatant="p")
    assert state.combatants["p-familiar"].spell_power == 2 * 12  # "twice the spellpower you would"


def test_a_familiars_power_pays_for_her_summoners_cards():
    """Summon Familiar: "that spellpower may be used in addition to you own in casting spells"."""
    summon = SpellcardDraft(
        name="Familiar",
        type=S,
        targets=None,
        skills=(SkillChoice.of("summon_familiar", familiar_element="fire"),),
    )
    bolt = SpellcardDraft(name="Bolt", type=CardType.ATTACK, attack_power=AttackPower(8))
    p = fighter(
        "p",
        (0, 0),
        speed=9,
        deck=[("f", summon, 1), ("bolt", bolt, 1)],
        hand=["f", "bolt"],
        spell_power=200,
    )
    state = battle(p, fighter("b", (7, 7), side="b"))
    state = act(state, "use_spellcard", combatant="p", card="f", targets=[[1, 0]])
    state = act(state, "gm_adjust", combatant="p-familiar", spell_power=100)
    assert state.combatants["p"].spell_power == 12
    state = act(state, "gm_move", combatant="b", to=[2, 0])
    with scripted(*[1] * 8, 1, 1, 1, 2):
        state = act(state, "use_spellcard", combatant="p", card="bolt", targets=[[2, 0]])
    assert (state.combatants["p"].spell_power, state.combatants["p-familiar"].spell_power) == (
        0,
        12 + 100 - 110,
    )


def test_a_librarian_casts_two_cards_with_one_action():
    """Librarian: "librarians may activate two spellcards in the same turn with a single
    action"."""
    bolt = SpellcardDraft(name="Bolt", type=CardType.ATTACK, attack_power=AttackPower(1))
    lib = fighter(
        "l", (0, 0), speed=9, traits=("librarian",), deck=[("bolt", bolt, 2)], hand=["bolt", "bolt"]
    )
    state = battle(lib, fighter("b", (1, 0), side="b"))
    with scripted(1, 1, 1, 1, 2, 1, 1, 1, 1, 2):
        state = act(
            state,
            "use_spellcard",
            combatant="l",
            card="bolt",
            targets=[[1, 0]],
            second={"card": "bolt", "targets": [[1, 0]]},
        )
    lib = state.combatants["l"]
    assert (lib.actions_left, len(lib.deck.discard), state.combatants["b"].hp) == (1, 2, 98)
    other = fighter("o", (0, 0), speed=9, deck=[("bolt", bolt, 2)], hand=["bolt", "bolt"])
    state = battle(other, fighter("b", (1, 0), side="b"))
    with pytest.raises(IllegalAction, match="Librarian"):
        act(
            state,
            "use_spellcard",
            combatant="o",
            card="bolt",
            targets=[[1, 0]],
            second={"card": "bolt", "targets": [[1, 0]]},
        )
