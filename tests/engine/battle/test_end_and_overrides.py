"""The end of a battle ("Spell-meter", "Throwing Weapons") and the GM's overrides and undo."""

from __future__ import annotations

import pytest

from tests.engine.battle.helpers import (
    act,
    act_events,
    battle,
    events_of,
    fighter,
    scripted,
    take,
)
from tests.engine.battle.samples import character
from westernroses.battle import IllegalAction, apply, dumps, legal_actions, replay, replay_log
from westernroses.spellcards import AttackPower, CardType, SpellcardDraft

CARD = SpellcardDraft(name="Shot", type=CardType.ATTACK, attack_power=AttackPower(1))


def won_battle():
    """a (with a used card and meter points) knocks out b, the last of the other side."""
    a = fighter("a", (0, 0), speed=9, deck=[("shot", CARD, 3)], hand=["shot"])
    b = fighter("b", (1, 0), side="b", hp=5, deck=[("shot", CARD, 3)], hand=["shot"])
    state = battle(a, b)
    with scripted(1, 1, 1, 1, 2):
        state = act(state, "use_spellcard", combatant="a", card="shot", targets=[[1, 0]])
        state, _ = take(state)  # b holds a card: every hit waits for her answer
    with scripted(3, 3, 3, 3, 1, 1, 1, 2, then_random=True):  # then the shuffle back
        state, events = act_events(state, "attack", combatant="a", attack="danmaku", target="b")
        state, more = take(state)
    return state, events + more


def test_the_battle_ends_when_one_side_is_left_standing():
    """Ruling: a battle ends when at most one side can still fight; that side wins."""
    state, events = won_battle()
    assert (state.phase, state.winner) == ("ended", "a")
    assert events_of(events, "battle_ended")[0]["winner"] == "a"
    assert legal_actions(state, "gm") == []


def test_winners_shuffle_used_cards_back_and_every_meter_empties():
    """Spell-meter: "any remaining points in your spell-meter disappear"; "If you were on the
    winning team ... any spellcards that were used during the battle are shuffled back"."""
    state, _ = won_battle()
    a, b = state.combatants["a"], state.combatants["b"]
    assert a.deck.discard == () and a.deck.draw_pile == ("shot",) * 3
    assert (a.meter, b.meter) == (0, 0)
    assert b.deck.hand == ("shot", "shot")  # the losers keep their hands (a meter draw too)


def test_winners_roll_to_recover_thrown_weapons_combat_maids_twice_as_many():
    """Throwing Weapons: roll the recovery dice "to determine how many of those weapons she has
    retrieved"; Combat-Maid: "retrieve twice as many" (2d = 3, doubled: 6 of 7 thrown)."""
    sakuya = character("sakuya", position=(0, 0), controller="p1")
    sakuya.thrown_used = {"throwing_knives": 7}
    sakuya.ammo["throwing_knives"] = 13
    state = battle(sakuya, fighter("b", (5, 5), side="b"))
    state = act(state, "gm_end_battle", winner="heroes")
    assert legal_actions(state, "p1") == [{"type": "recover_weapons", "combatant": "sakuya"}]
    with scripted(1, 2):
        state = act(state, "recover_weapons", player="p1", combatant="sakuya")
    assert state.combatants["sakuya"].ammo["throwing_knives"] == 13 + 6
    with pytest.raises(IllegalAction, match="no weapons"):
        act(state, "recover_weapons", player="p1", combatant="sakuya")


def test_gm_adjusts_hp_spell_power_and_meter():
    """GM overrides: adjust HP and spell power (spell power stays within 0 and the cap)."""
    state = battle(fighter("a", (0, 0), speed=9), fighter("b", (5, 5), side="b"))
    state = act(state, "gm_adjust", combatant="b", hp=-30, spell_power=1000, meter=3)
    b = state.combatants["b"]
    assert (b.hp, b.spell_power, b.meter) == (70, 400, 3)
    with pytest.raises(IllegalAction, match="only the GM"):
        apply(state, {"type": "gm_adjust", "player": "p1", "combatant": "b", "hp": 5})


def test_gm_moves_pieces_and_removes_statuses():
    """GM overrides: move a piece, add and remove a status effect."""
    state = battle(fighter("a", (0, 0), speed=9), fighter("b", (5, 5), side="b"))
    state = act(state, "gm_move", combatant="b", to=[2, 2])
    assert state.combatants["b"].position == (2, 2)
    with pytest.raises(IllegalAction, match="already stands"):
        act(state, "gm_move", combatant="b", to=[0, 0])
    state = act(state, "gm_add_status", combatant="b", status="blind", turns=2)
    state = act(state, "gm_remove_status", combatant="b", status="blind")
    assert state.combatants["b"].effects == []


def test_gm_sets_a_target_number_used_by_later_rolls():
    """GM overrides: set a target number (here the danmaku dodge difficulty, 12 by default)."""
    state = battle(fighter("a", (0, 0), speed=9), fighter("b", (1, 0), side="b"))
    state = act(state, "gm_set_target", name="dodge", target=15)
    with scripted(1, 1, 1, 1, 4, 4, 4, 3):
        _, events = act_events(state, "attack", combatant="a", attack="danmaku", target="b")
    assert events_of(events, "roll")[0]["result"]["target"] == 15
    state = act(state, "gm_set_target", name="dodge", target=None)
    assert state.targets == {}


def test_a_gm_hp_change_is_bounded_by_utter_destruction_and_the_maximum():
    """A typo of -99999999999 in the GM's HP change destroyed the last hero and ended the
    battle. HP may be taken down to -100 ("Utter Destruction - At -100 your body is completely
    and utterly destroyed") and no further, and at most max HP + 100 given at once (from -100
    back to full); a larger number is refused in words and changes nothing."""
    state = battle(fighter("a", (0, 0), speed=9), fighter("b", (5, 5), side="b"))
    for typo in (-99999999999, -201):
        with pytest.raises(IllegalAction, match=r"B has 100 HP: take at most 200 \(down to -100"):
            act(state, "gm_adjust", combatant="b", hp=typo)
    with pytest.raises(IllegalAction, match=r"give at most 200 HP \(from -100 back to B's"):
        act(state, "gm_adjust", combatant="b", hp=201)
    assert act(state, "gm_adjust", combatant="b", hp=200).combatants["b"].hp == 100  # capped
    destroyed = act(state, "gm_adjust", combatant="b", hp=-200)  # deliberate: the limit itself
    assert (destroyed.combatants["b"].hp, destroyed.combatants["b"].life) == (-100, "destroyed")
    assert destroyed.phase == "ended"
    with pytest.raises(IllegalAction, match="utterly destroyed"):
        act(destroyed, "gm_adjust", combatant="b", hp=-1)


def test_the_gm_undoes_an_override_that_ended_the_battle():
    """Ruling 40: undo replays the battle without the last action still standing, also after
    the end: a GM's slip that ended the battle is undone and the battle runs on."""
    state = battle(fighter("a", (0, 0), speed=9), fighter("b", (5, 5), side="b"))
    ended = act(state, "gm_adjust", combatant="b", hp=-150)
    assert (ended.phase, ended.winner) == ("ended", "a")
    back = act(ended, "gm_undo")
    assert (back.phase, back.winner) == ("active", None)
    assert back.combatants == state.combatants
    assert legal_actions(back, "gm")
    assert dumps(replay_log(back)) == dumps(back)


def test_undo_replays_the_log_without_the_last_action_and_is_logged():
    """GM overrides: undo "by replaying the log minus the last action"; the undo is logged."""
    state = battle(fighter("a", (0, 0), speed=9), fighter("b", (1, 0), side="b"))
    before = state
    state = act(state, "attack", combatant="a", attack="danmaku", target="b")
    undone, events = act_events(state, "gm_undo")
    assert events == [{"type": "undone", "action": state.log[-1]["action"]}]
    assert undone.version == state.version + 1
    assert undone.combatants == before.combatants
    assert undone.log[-1]["action"]["type"] == "gm_undo"
    assert dumps(replay_log(undone)) == dumps(undone)
    redone = act(undone, "attack", combatant="a", attack="danmaku", target="b")
    assert redone.combatants == state.combatants  # the same dice: the source rewound too


def test_undo_twice_and_with_nothing_left():
    """Each undo removes the last action still standing; the start can be undone too."""
    state = battle(fighter("a", (0, 0), speed=9), fighter("b", (5, 5), side="b"))
    state = act(state, "do_nothing", combatant="a")
    state = act(state, "gm_undo")
    state = act(state, "gm_undo")
    assert state.phase == "setup"
    with pytest.raises(IllegalAction, match="nothing to undo"):
        act(state, "gm_undo")
    with pytest.raises(IllegalAction, match="only the GM"):
        apply(state, {"type": "gm_undo", "player": "p1"})


def test_replay_rebuilds_the_same_state_from_the_actions():
    """Replay: the initial state and the action log give the final state, byte for byte."""
    first = battle(fighter("a", (0, 0), speed=9), fighter("b", (1, 0), side="b"), start=False)
    state = act(first, "start")
    state = act(state, "attack", combatant="a", attack="danmaku", target="b")
    state = act(state, "gm_undo")
    state = act(state, "move", combatant="a", to=[0, 2])
    actions = [entry["action"] for entry in state.log]
    assert dumps(replay(first, actions)) == dumps(state)
