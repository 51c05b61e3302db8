"""Pick, Change, Set and End (rulebook §六 ①②③⑤, RULES lines 40-58 and 70-73)."""

from __future__ import annotations

import pytest

from minigames.engines.dbs import ENGINE
from westernroses.protocol import IllegalAction

from .helpers import act, call, clear_hand, give, kinds, number_of, opened, set_item, to_battle


def _pass_to_seat_1(state):
    state = to_battle(state)
    state, events = ENGINE.apply(state, 0, {"type": "end_turn"})
    assert state["active"] == 1 and state["phase"] == "change"
    return state, events


@pytest.mark.parametrize(
    ("beads", "drawn", "after"),
    [
        # RULES line 43: two empty intact beads draw two cards; then one bead is refilled
        (["empty", "empty", "full", "full", "full"], 2, ["full", "empty", "full", "full", "full"]),
        # line 42: at least one card even with no empty bead
        (["full"] * 5, 1, ["full"] * 5),
        # broken beads are not intact: they neither draw nor refill
        (
            ["broken", "broken", "empty", "full", "full"],
            1,
            ["broken", "broken", "full", "full", "full"],
        ),
        (["empty"] * 5, 5, ["full", "empty", "empty", "empty", "empty"]),
    ],
)
def test_pick_draws_one_card_per_empty_intact_bead_then_refills_one(beads, drawn, after):
    state = opened()
    state["players"][1]["beads"] = list(beads)
    state["players"][0]["beads"] = ["empty", "empty", "full", "full", "full"]
    hand = len(state["players"][1]["hand"])
    state, _ = _pass_to_seat_1(state)
    assert len(state["players"][1]["hand"]) == hand + drawn
    assert state["players"][1]["beads"] == after
    # "both of the players can recover a point of SP bead" (line 42)
    assert state["players"][0]["beads"] == ["full", "empty", "full", "full", "full"]


def test_a_short_deck_draws_what_it_has_and_is_not_a_smack_down():
    """Source §二 C (Chinese note): drawing several with at least one card left is no Smack Down."""
    state = opened()
    state["players"][1]["beads"] = ["empty", "empty", "empty", "full", "full"]
    me = state["players"][1]
    me["grave"] += me["deck"][1:]
    me["deck"] = me["deck"][:1]
    state, _ = _pass_to_seat_1(state)
    assert state["result"] is None
    assert state["players"][1]["deck"] == []


def test_change_a_calls_a_character_tapped_and_allows_one_action_per_turn():
    """RULES line 48 (A) and line 51: one action, once a turn."""
    state = opened()
    clear_hand(state, 0)
    marisa = give(state, 0, "DBS-002")
    give(state, 0, "DBS-001")  # Reimu is already in play: not callable twice
    assert [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "call_character"] == [
        {"type": "call_character", "card": marisa}
    ]
    state, _ = act(state, 0, "call_character", "DBS-002")
    assert {"card": marisa, "status": "support"} in state["players"][0]["characters"]
    assert state["phase"] == "set"
    assert "call_character" not in kinds(state, 0)


def test_change_b_stands_a_character_up_as_center_and_taps_the_old_center():
    """RULES line 49 (B); source 六.2 b: the previous upright character is tapped again."""
    state = opened()
    reimu = state["players"][0]["characters"][0]["card"]
    marisa = call(state, 0, "DBS-002", "center")
    state, _ = act(state, 0, "center", "DBS-001")
    statuses = {c["card"]: c["status"] for c in state["players"][0]["characters"]}
    assert statuses == {reimu: "center", marisa: "support"}


def test_change_c_sends_the_center_to_the_duel_zone_and_only_one_center_or_hyper():
    """RULES line 50 (C) and line 51: at most one character in Center or Hyper."""
    state = opened()
    state["players"][0]["characters"][0]["status"] = "center"
    call(state, 0, "DBS-002")
    state, _ = act(state, 0, "hyper", "DBS-001")
    assert state["players"][0]["characters"][0]["status"] == "hyper"
    # next own turn: no Center may be made while the Hyper stands
    state["phase"] = "change"
    assert "center" not in kinds(state, 0)
    assert "hyper" not in kinds(state, 0)


def test_status_limits_on_spellcards():
    """RULES lines 48-52: Center-limited Spellcards need Center (or Hyper), Hyper-limited need
    Hyper, and a Spellcard needs its character in play."""
    state = opened()
    clear_hand(state, 0)
    center_card = give(state, 0, "DBS-104")
    hyper_card = give(state, 0, "DBS-105")
    absent = give(state, 0, "DBS-106")  # Marisa is not in play
    battle = to_battle(json_copy(state))
    declarable = {a["card"] for a in ENGINE.legal_actions(battle, 0) if a["type"] == "declare"}
    assert declarable == set()
    state, _ = act(state, 0, "center", "DBS-001")
    state = to_battle(state)
    declarable = {a["card"] for a in ENGINE.legal_actions(state, 0) if a["type"] == "declare"}
    assert declarable == {center_card}
    state["players"][0]["characters"][0]["status"] = "hyper"
    declarable = {a["card"] for a in ENGINE.legal_actions(state, 0) if a["type"] == "declare"}
    assert declarable == {center_card, hyper_card}
    assert absent not in declarable


def json_copy(state):
    return ENGINE.from_json(ENGINE.to_json(state))


def test_a_hyper_character_returns_to_hand_at_the_end_of_her_next_defence():
    """Source 六.2 c: at the end of your next defence phase the Duel Zone character returns."""
    state = opened()
    reimu = state["players"][0]["characters"][0]["card"]
    state["players"][0]["characters"][0]["status"] = "center"
    state, _ = act(state, 0, "hyper", "DBS-001")
    state, _ = act(state, 0, "end_set")
    state, _ = act(state, 0, "end_turn")
    assert state["players"][0]["characters"][0]["status"] == "hyper"  # still there in seat 1's turn
    state = to_battle(state)
    state, events = act(state, 1, "end_turn")
    assert state["players"][0]["characters"] == []
    assert reimu in state["players"][0]["hand"] and reimu in state["players"][0]["known"]
    assert any("returns to Player 1's hand" in e["text"] for e in events)


def test_set_phase_extra_sp_up_to_five_face_down():
    """RULES lines 55-56: cards from hand into Extra SP, at most 5, face down."""
    state = opened()
    state, _ = act(state, 0, "skip_change")
    for _ in range(5):
        give(state, 0, "DBS-201")
    for _ in range(5):
        state, _ = act(state, 0, "extra_sp")
    assert len(state["players"][0]["extra_sp"]) == 5
    assert "extra_sp" not in kinds(state, 0)
    assert ENGINE.view(state, 1)["players"][0]["extra_sp"] == []
    assert ENGINE.view(state, 1)["players"][0]["extra_sp_count"] == 5
    known = state["players"][0]["known"]  # the shown retrieval: listed, not where it lies
    for iid in state["players"][0]["extra_sp"]:
        assert (iid in ENGINE.hidden_from(state, 1)) is (iid not in known)


def test_item_area_holds_two_and_a_third_trap_replaces_one():
    """RULES lines 56-57: Item Area ceiling 2; a replaced item goes to the grave."""
    state = opened()
    state, _ = act(state, 0, "skip_change")
    clear_hand(state, 0)
    first, second, third = (give(state, 0, n) for n in ("DBS-301", "DBS-302", "DBS-303"))
    state, _ = act(state, 0, "set_trap", "DBS-301")
    state, events = act(state, 0, "set_trap", "DBS-302")
    assert all("Looking-Glass" not in e["text"] for e in events if e["visible_to"] == [1])
    options = [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "set_trap"]
    assert options == [
        {"type": "set_trap", "card": third, "replace": first},
        {"type": "set_trap", "card": third, "replace": second},
    ]
    state, _ = ENGINE.apply(state, 0, options[0])
    assert [i["card"] for i in state["players"][0]["items"]] == [second, third]
    assert first in state["players"][0]["grave"]
    assert ENGINE.view(state, 1)["players"][0]["items"] == [
        {"face_down": True},
        {"face_down": True},
    ]


def test_extra_sp_pays_when_the_beads_run_out():
    """RULES line 57: Extra SP cards are discarded to the grave to pay SP."""
    state = opened()
    clear_hand(state, 0)
    state["players"][0]["beads"] = ["full", "empty", "empty", "empty", "empty"]
    spare = give(state, 0, "DBS-201", "extra_sp")
    give(state, 0, "DBS-103")  # Level 3, costs 2
    state = to_battle(state)
    state, events = act(state, 0, "declare", "DBS-103")
    assert state["players"][0]["beads"] == ["empty"] * 5
    assert state["players"][0]["extra_sp"] == [] and spare in state["players"][0]["grave"]
    assert any("1 SP bead and 1 Extra SP card" in e["text"] for e in events)


def test_extra_sp_first_house_rule():
    state = opened(options={"pay_order": "extra"})
    clear_hand(state, 0)
    give(state, 0, "DBS-201", "extra_sp")
    give(state, 0, "DBS-103")
    state = to_battle(state)
    state, _ = act(state, 0, "declare", "DBS-103")
    assert state["players"][0]["beads"] == ["empty", "full", "full", "full", "full"]


def test_end_phase_discards_down_to_five():
    """RULES line 71: more than 5 cards in hand after the turn are discarded down to 5."""
    state = opened()
    for _ in range(3):
        give(state, 0, "DBS-201")
    assert len(state["players"][0]["hand"]) == 8
    state = to_battle(state)
    state, _ = act(state, 0, "end_turn")
    assert state["phase"] == "discard" and ENGINE.waiting_on(state) == (0,)
    for _ in range(2):
        state, _ = act(state, 0, "discard")
    assert state["phase"] == "discard"
    state, _ = act(state, 0, "discard")
    assert len(state["players"][0]["hand"]) == 5
    assert state["active"] == 1 and state["phase"] == "change"


def test_a_hand_limit_bonus_keeps_six():
    state = opened()
    set_item(state, 0, "DBS-503", face_down=False)  # hand limit +1
    give(state, 0, "DBS-201")
    state = to_battle(state)
    state, _ = act(state, 0, "end_turn")
    assert state["active"] == 1 and len(state["players"][0]["hand"]) == 6


def test_phases_run_in_order_and_refuse_other_actions():
    """RULES line 73: the order of phases is irreversible."""
    state = opened()
    assert state["phase"] == "change"
    with pytest.raises(IllegalAction, match="Change phase"):
        ENGINE.apply(state, 0, {"type": "end_set"})
    state, _ = act(state, 0, "skip_change")
    assert "skip_change" not in kinds(state, 0)
    with pytest.raises(IllegalAction, match="not your turn"):
        ENGINE.apply(state, 1, {"type": "end_set"})
    card = state["players"][0]["hand"][0]
    assert number_of(state, card)
