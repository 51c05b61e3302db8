"""Victory (rulebook §二, RULES lines 12-15): A special victory, B Knock Out (LP below 0; exactly
0 is not a K.O.), C Smack Down (a draw meets an empty deck; higher total Level in the Spell
Chains), with priority A > B > C for what one step meets at once; the first victory attained
stops the settlement (RULES line 15)."""

from __future__ import annotations

import pytest

from minigames.engines.dbs import ENGINE
from westernroses.protocol import IllegalAction

from .helpers import act, call, clear_hand, give, opened, set_item, to_battle


def battle_ready(**kwargs):
    state = opened(**kwargs)
    clear_hand(state, 0)
    clear_hand(state, 1)
    return to_battle(state)


def hit(state, number, lp):
    """Seat 0 hits seat 1 (LP ``lp``) with ``number``, unanswered."""
    state["players"][1]["lp"] = lp
    give(state, 0, number)
    state, _ = act(state, 0, "declare", number)
    return act(state, 1, "no_counter")


def test_lp_exactly_zero_is_not_a_knock_out():
    """RULES line 13: "If the LP is just 0, this situation won't be considered as K.O."."""
    state, _ = hit(battle_ready(), "DBS-102", 1600)
    assert state["players"][1]["lp"] == 0
    assert not ENGINE.is_terminal(state)
    assert ENGINE.returns(state) == [0.0, 0.0]
    assert state["phase"] == "battle" and ENGINE.waiting_on(state) == (0,)


def test_lp_below_zero_is_a_knock_out():
    """RULES line 13: LP lower than 0 loses."""
    state, events = hit(battle_ready(), "DBS-102", 1599)
    assert state["players"][1]["lp"] == -1
    assert ENGINE.is_terminal(state) and ENGINE.waiting_on(state) == ()
    assert ENGINE.returns(state) == [1.0, -1.0]
    result = ENGINE.result(state)
    assert result["winners"] == [0] and result["victory"] == "knock_out"
    assert events[-1]["text"] == "Player 1 wins by Knock Out (LP below 0)."
    with pytest.raises(IllegalAction, match="over"):
        ENGINE.apply(state, 0, {"type": "end_turn"})


def test_the_first_victory_attained_stops_the_settlement():
    """RULES line 15: "Once any of victory conditions is attained, all the settlement will be
    shutdown". Picked Quarrel deals 800 to the opponent, then 300 to its player: at 200 LP
    against 500, the first effect knocks the opponent out and the second never happens, so
    the attacker wins (it is not a draw of two players below 0)."""
    state = battle_ready()
    state["players"][0]["lp"] = 200
    state["players"][1]["lp"] = 500
    give(state, 0, "DBS-205")  # 800 to the opponent, 300 to yourself
    state, events = act(state, 0, "buff", "DBS-205")
    assert ENGINE.is_terminal(state)
    assert ENGINE.returns(state) == [1.0, -1.0]
    assert ENGINE.result(state)["victory"] == "knock_out"
    assert [state["players"][s]["lp"] for s in (0, 1)] == [200, -300]
    assert "300 damage" not in " ".join(e["text"] for e in events)


def test_a_knock_out_by_a_start_of_pick_trigger_comes_before_the_draw():
    """The same rule in the Pick phase: Fairy Pranksters' 300 damage at seat 1's Pick knocks
    her out, and her draw never happens (her hand keeps its size)."""
    state = battle_ready()
    set_item(state, 0, "DBS-505", face_down=False)
    state["players"][1]["lp"] = 200
    hand = len(state["players"][1]["hand"])
    state, _ = act(state, 0, "end_turn")
    assert ENGINE.result(state)["winners"] == [0]
    assert len(state["players"][1]["hand"]) == hand


def test_a_knock_out_by_a_hit_comes_before_its_on_hit_effects():
    """The same rule in a clash: a hit that knocks the defender out ends the game before the
    card's on-hit effects (here a GM card that would then restore 1000 LP to the defender)."""
    state = battle_ready()
    state["cards"]["GM-001"] = {
        "number": "GM-001",
        "name": "Merciful Drizzle",
        "kind": "battle",
        "character": "DBS-001",
        "cost": 1,
        "attack": 1600,
        "level": 2,
        "on_hit": [{"do": "heal", "amount": 1000, "target": "opponent"}],
    }
    state, _ = hit(state, "GM-001", 1599)
    assert state["players"][1]["lp"] == -1
    assert ENGINE.result(state)["winners"] == [0]


def _empty_deck_for_seat_1(state):
    me = state["players"][1]
    me["grave"] += me["deck"]
    me["deck"] = []


def _chain(state, seat, numbers):
    for number in numbers:
        give(state, seat, number, "chain")


def test_smack_down_the_higher_spell_chain_level_wins():
    """RULES line 14: a draw from an empty deck: the higher total Level of Spellcards wins
    (here the player who could not draw has the higher total and wins)."""
    state = battle_ready()
    _empty_deck_for_seat_1(state)
    _chain(state, 0, ["DBS-103", "DBS-102"])  # 3 + 2 = 5
    _chain(state, 1, ["DBS-119", "DBS-117"])  # 4 + 2 = 6
    state, events = act(state, 0, "end_turn")
    assert ENGINE.is_terminal(state)
    assert ENGINE.result(state)["victory"] == "smack_down"
    assert ENGINE.returns(state) == [-1.0, 1.0]
    assert "Spell Chain Levels: Player 1 5, Player 2 6" in events[-1]["text"]


@pytest.mark.parametrize(
    ("tie_rule", "returns"), [("draw", [0.0, 0.0]), ("drawer_loses", [1.0, -1.0])]
)
def test_smack_down_with_equal_levels_follows_the_house_rule(tie_rule, returns):
    state = battle_ready(options={"smack_down_tie": tie_rule})
    _empty_deck_for_seat_1(state)
    _chain(state, 0, ["DBS-103"])
    _chain(state, 1, ["DBS-118"])
    state, _ = act(state, 0, "end_turn")
    assert ENGINE.result(state)["victory"] == "smack_down"
    assert ENGINE.returns(state) == returns


def test_a_card_effect_drawing_from_an_empty_deck_is_no_smack_down():
    """Source §二 C: only the Pick phase's draw meeting an empty deck is a Smack Down."""
    state = battle_ready()
    me = state["players"][0]
    me["grave"] += me["deck"]
    me["deck"] = []
    give(state, 0, "DBS-203")  # draw 2
    state, _ = act(state, 0, "buff", "DBS-203")
    assert not ENGINE.is_terminal(state)


def test_special_victory_beats_knock_out():
    """Priority A > B (RULES line 15): Mokou in Hyper wins when her LP fall below 0 with three
    cards in her Spell Chain, though the same hit knocks her out."""
    state = battle_ready()
    call(state, 1, "DBS-005", "hyper")
    _chain(state, 1, ["DBS-116", "DBS-117", "DBS-118"])
    state, _ = hit(state, "DBS-102", 500)
    assert state["players"][1]["lp"] < 0
    assert ENGINE.result(state)["victory"] == "special"
    assert ENGINE.returns(state) == [-1.0, 1.0]
    # said once: the log named the card as it was met ("… meets a special victory condition")
    assert ENGINE.result(state)["text"] == f"{state['names'][1]} wins by a special victory."


def test_without_the_special_condition_the_same_hit_is_a_knock_out():
    state = battle_ready()
    call(state, 1, "DBS-005", "hyper")
    _chain(state, 1, ["DBS-116", "DBS-117"])  # only two cards
    state, _ = hit(state, "DBS-102", 500)
    assert ENGINE.result(state)["victory"] == "knock_out"
    assert ENGINE.returns(state) == [1.0, -1.0]


def test_knock_out_beats_smack_down():
    """Priority B > C: in seat 1's Pick phase Fairy Pranksters knocks her out while her draw
    meets an empty deck; she has the higher Spell Chain, but the K.O. decides."""
    state = battle_ready()
    set_item(state, 0, "DBS-505", face_down=False)  # 300 damage at the opponent's Pick
    state["players"][1]["lp"] = 200
    _empty_deck_for_seat_1(state)
    _chain(state, 1, ["DBS-120"])
    state, _ = act(state, 0, "end_turn")
    assert ENGINE.result(state)["victory"] == "knock_out"
    assert ENGINE.returns(state) == [1.0, -1.0]


def test_special_victory_beats_smack_down():
    """Priority A > C: Grand Finale Stage wins at the start of her Pick phase with five cards in
    her Spell Chain, the same moment her draw meets an empty deck with the lower Level total."""
    state = battle_ready()
    set_item(state, 1, "DBS-506", face_down=False)
    _empty_deck_for_seat_1(state)
    _chain(state, 1, ["DBS-116"] * 5)  # Level 5 in total
    _chain(state, 0, ["DBS-105", "DBS-105"])  # Level 10
    state, _ = act(state, 0, "end_turn")
    assert ENGINE.result(state)["victory"] == "special"
    assert ENGINE.returns(state) == [-1.0, 1.0]


def test_a_win_effect_is_a_special_victory():
    state = battle_ready()
    set_item(state, 0, "DBS-506", face_down=False)
    _chain(state, 0, ["DBS-101"] * 5)
    state, _ = act(state, 0, "end_turn")  # seat 1's Pick: not seat 0's trigger
    assert not ENGINE.is_terminal(state)
    state = to_battle(state)
    state, events = act(state, 1, "end_turn")
    assert ENGINE.result(state)["winners"] == [0]
    assert "special victory" in events[-1]["text"]
    assert str(ENGINE.summary(state)) == events[-1]["text"]
