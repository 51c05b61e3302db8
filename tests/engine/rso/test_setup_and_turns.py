"""Starting the game and the four phases (rulebook rumbling-spell-orchestra-gameplay.txt,
"Starting the Game" lines 21-33, "Game Flow" lines 151-230)."""

from __future__ import annotations

import pytest

from minigames.engines.rso import ENGINE
from minigames.engines.rso.state import HAND_LIMIT
from tests.engine.conformance import canonical
from tests.engine.rso.helpers import (
    FILLER,
    new_game,
    pass_window,
    put,
    spell,
    start,
    started,
    texts,
)


def test_leader_choice_is_simultaneous_and_secret_until_both_chose():
    """Line 23: each player chooses a Leader; chosen face down and revealed together."""
    state = ENGINE.new_game(seats=2, seed=5)
    assert ENGINE.waiting_on(state) == (0, 1)
    choice = ENGINE.legal_actions(state, 0)[1]
    state, events = ENGINE.apply(state, 0, choice)
    assert ENGINE.waiting_on(state) == (1,)
    other_view = ENGINE.view(state, 1)
    assert other_view["players"][0]["leader_chosen"] is True
    assert other_view["players"][0]["leader"] is None
    assert other_view["players"][0]["my_leader_choice"] is None
    assert ENGINE.view(state, 0)["players"][0]["my_leader_choice"]["id"] == choice["card"]
    public = [e for e in events if e["visible_to"] != [0]]
    assert all("Marisa" not in e["text"] for e in public)
    state, events = ENGINE.apply(state, 1, ENGINE.legal_actions(state, 1)[0])
    assert "reveals Marisa Kirisame as Leader (15 HP)" in texts(events)


def test_a_secret_leader_choice_is_dealt_anew_in_the_other_seats_worlds():
    """Line 23 ("place their character cards face-down and reveal them simultaneously"): the
    search bot of the seat still choosing learns nothing of the other's Leader either; the
    worlds dealt for her hold any of the other's characters, and her view in each is hers."""
    state = ENGINE.new_game(seats=2, seed=5)
    state, _ = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[1])
    seen = canonical(ENGINE.view(state, 1))
    numbers = set()
    for seed in range(12):
        world = ENGINE.determinize(state, 1, seed)
        assert canonical(ENGINE.view(world, 1)) == seen
        numbers.add(world["inst"][world["players"][0]["pending_leader"]])
    assert len(numbers) > 1


def test_hp_from_the_leader_sp_zero_and_six_card_hands():
    """Line 31: HP is the Leader's starting HP, SP 0; line 25: each draws 6 cards."""
    state = ENGINE.new_game(seats=2, seed=5)
    state, _ = ENGINE.apply(
        state, 0, {"type": "choose_leader", "card": state["players"][0]["characters"][0]}
    )
    state, _ = ENGINE.apply(state, 1, ENGINE.legal_actions(state, 1)[0])
    p0, p1 = state["players"]
    assert (p0["hp"], p0["sp"]) == (17, 0)  # Reimu Hakurei: 17 HP
    assert (p1["hp"], p1["sp"]) == (15, 0)  # Sakuya Izayoi: 15 HP
    assert len(p0["hand"]) == len(p1["hand"]) == 6
    assert len(p0["deck"]) == len(p1["deck"]) == 34


def _at_mulligan(spells_in_hand):
    """A game at seat 0's mulligan with exactly ``spells_in_hand`` spells in her hand."""
    event = {
        "number": "T-E1",
        "name": "Test Breather",
        "kind": "event",
        "cost": 0,
        "phases": ["replenish"],
        "effects": [{"do": "gain_sp", "amount": 1}],
    }
    from tests.engine.rso.helpers import deck

    decks = [deck(["T-C1"] * 4, {"T-E1": 3}), deck(["T-C2"] * 4, {})]
    state = new_game([event], decks)
    for seat in (0, 1):
        state, _ = ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0])
    player = state["players"][0]
    player["deck"].extend(player["hand"])
    player["hand"] = []
    events = [c for c in player["deck"] if state["inst"][c] == "T-E1"]
    spells = [c for c in player["deck"] if state["inst"][c] != "T-E1"]
    hand = spells[:spells_in_hand] + events[: 6 - spells_in_hand]
    # with only three events, top up a spell-free hand with the opponent-free filler rule
    for c in hand:
        player["deck"].remove(c)
    player["hand"] = hand
    return state


def test_mulligan_with_no_spell_as_often_as_needed():
    """Line 27: no Spell in hand: mulligan, as many times as needed."""
    state = _at_mulligan(0)
    state["players"][0]["hand"] = state["players"][0]["hand"][:3]  # three events, no spell
    assert {"type": "mulligan"} in ENGINE.legal_actions(state, 0)
    state["players"][0]["one_spell_mulligan_used"] = True
    assert {"type": "mulligan"} in ENGINE.legal_actions(state, 0)
    state, events = ENGINE.apply(state, 0, {"type": "mulligan"})
    assert "reveals a hand with no Spell (Test Breather, Test Breather, Test Breather)" in texts(
        events
    )
    assert len(state["players"][0]["hand"]) == 6
    assert ENGINE.waiting_on(state) == (0,)


def test_mulligan_with_exactly_one_spell_only_once():
    """Line 29: exactly one Spell: a mulligan, but only once."""
    state = _at_mulligan(1)
    assert ENGINE.legal_actions(state, 0) == [{"type": "keep"}, {"type": "mulligan"}]
    state, _ = ENGINE.apply(state, 0, {"type": "mulligan"})
    assert state["players"][0]["one_spell_mulligan_used"] is True
    player = state["players"][0]
    # Arrange one spell again: no second one-spell mulligan.
    events = [c for c in player["hand"] + player["deck"] if state["inst"][c] == "T-E1"]
    spells = [c for c in player["hand"] + player["deck"] if state["inst"][c] != "T-E1"]
    player["deck"] = list(player["hand"] + player["deck"])
    player["hand"] = [spells[0], *events]
    for c in player["hand"]:
        player["deck"].remove(c)
    assert ENGINE.legal_actions(state, 0) == [{"type": "keep"}]
    with pytest.raises(Exception, match="not allowed"):
        ENGINE.apply(state, 0, {"type": "mulligan"})


def test_two_spells_allow_no_mulligan():
    state = _at_mulligan(2)
    assert ENGINE.legal_actions(state, 0) == [{"type": "keep"}]


def test_first_turn_no_draw_for_player_one_but_player_two_draws():
    """Line 161: Player 1 draws except on her first turn (not so Player 2); SP +1 + Reserve."""
    state = started(first=1)
    p1 = state["players"][1]
    assert state["attacker"] == 1 and len(p1["hand"]) == 6 and p1["sp"] == 1
    state, _ = pass_window(state)
    state, _ = ENGINE.apply(state, 1, {"type": "no_attack"})
    state, _ = ENGINE.apply(state, 1, {"type": "done"})
    p2 = state["players"][0]
    assert state["attacker"] == 0 and state["turn"] == 2
    assert len(p2["hand"]) == 7  # Player 2 draws on her first turn
    assert p2["sp"] == 1


def test_sp_gain_counts_reserve_spells():
    """Line 103/161: SP +1 plus one per Reserve spell."""
    state = started(first=0)
    for _ in range(3):
        put(state, 1, FILLER[0]["number"], "reserve")
    state, _ = pass_window(state)
    state, _ = ENGINE.apply(state, 0, {"type": "no_attack"})
    state, events = ENGINE.apply(state, 0, {"type": "done"})
    assert state["players"][1]["sp"] == 4
    assert "gains 4 SP (1 plus 3 Reserve spells)" in texts(events)


def test_alternating_plays_end_after_two_passes():
    """Lines 161-176: after a play the other side may answer; two passes in a row end it."""
    breather = {
        "number": "T-E1",
        "name": "Test Breather",
        "kind": "event",
        "cost": 0,
        "phases": ["replenish"],
        "effects": [{"do": "gain_sp", "amount": 1}],
    }
    from tests.engine.rso.helpers import deck

    state = started(
        [breather],
        first=0,
        decks=[deck(["T-C1"] * 4, {"T-E1": 3}), deck(["T-C2"] * 4, {"T-E1": 3})],
    )
    e0 = put(state, 0, "T-E1", "hand")
    e1 = put(state, 1, "T-E1", "hand")
    assert ENGINE.waiting_on(state) == (0,)
    state, _ = ENGINE.apply(state, 0, {"type": "play_event", "card": e0})
    assert ENGINE.waiting_on(state) == (1,)
    state, _ = ENGINE.apply(state, 1, {"type": "play_event", "card": e1})
    state, _ = ENGINE.apply(state, 0, {"type": "pass"})
    assert state["phase"] == "replenish" and ENGINE.waiting_on(state) == (1,)
    state, _ = ENGINE.apply(state, 1, {"type": "pass"})
    assert state["phase"] == "battle"
    assert state["players"][0]["sp"] == 2 and state["players"][1]["sp"] == 1


def test_preparation_one_reserve_activate_by_paying():
    """Lines 210-216: one spell to the Reserve per phase, free; activate by paying its SP."""
    state = started(first=0)
    state, _ = pass_window(state)
    state, _ = ENGINE.apply(state, 0, {"type": "no_attack"})
    hand_spells = list(state["players"][0]["hand"])
    state, _ = ENGINE.apply(state, 0, {"type": "reserve", "card": hand_spells[0]})
    assert state["players"][0]["sp"] == 1
    assert not any(a["type"] == "reserve" for a in ENGINE.legal_actions(state, 0))
    assert {"type": "activate", "spell": hand_spells[0]} in ENGINE.legal_actions(state, 0)
    state, _ = ENGINE.apply(state, 0, {"type": "activate", "spell": hand_spells[0]})
    assert state["players"][0]["sp"] == 0
    assert state["players"][0]["active"] == [hand_spells[0]]


def test_activation_needs_enough_sp():
    costly = spell("T-S9", "Costly Shot", cost=5)
    from tests.engine.rso.helpers import deck

    state = started(
        [costly], first=0, decks=[deck(["T-C1"] * 4, {"T-S9": 1}), deck(["T-C2"] * 4, {})]
    )
    s = put(state, 0, "T-S9", "reserve")
    state, _ = pass_window(state)
    state, _ = ENGINE.apply(state, 0, {"type": "no_attack"})
    assert not any(a.get("spell") == s for a in ENGINE.legal_actions(state, 0))
    with pytest.raises(Exception, match="not allowed"):
        ENGINE.apply(state, 0, {"type": "activate", "spell": s})


def test_end_phase_hand_limit_and_role_swap():
    """Line 230: discard down to seven, then the players swap roles."""
    state = started(first=0)
    for number in ("T-F01", "T-F01", "T-F02", "T-F02"):
        put(state, 0, number, "hand")
    assert len(state["players"][0]["hand"]) == 10
    state, _ = pass_window(state)
    state, _ = ENGINE.apply(state, 0, {"type": "no_attack"})
    state, _ = ENGINE.apply(state, 0, {"type": "done"})
    assert state["step"] == "discard" and ENGINE.waiting_on(state) == (0,)
    for _ in range(3):
        state, _ = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0])
    assert len(state["players"][0]["hand"]) == HAND_LIMIT
    assert state["attacker"] == 1 and state["phase"] == "replenish"


def test_win_when_hp_reaches_zero():
    """Line 61/155: a leader at 0 HP or less loses."""
    big = spell("T-S8", "Finisher", av=20, hv=9)  # Bram has 20 HP: exactly 0 loses
    from tests.engine.rso.helpers import deck

    state = started([big], first=0, decks=[deck(["T-C1"] * 4, {"T-S8": 1}), deck(["T-C2"] * 4, {})])
    s = put(state, 0, "T-S8", "active")
    state, _ = pass_window(state)
    state, _ = ENGINE.apply(state, 0, {"type": "attack", "spell": s})
    state, _ = ENGINE.apply(state, 1, {"type": "no_intercept"})
    state, _ = pass_window(state)
    assert ENGINE.is_terminal(state)
    assert ENGINE.returns(state) == [1.0, -1.0]
    assert ENGINE.waiting_on(state) == ()
    assert "Player B's leader has no HP left" in ENGINE.result(state)["reason"]


@pytest.mark.parametrize("rule", ["draw", "empty"])
def test_an_empty_deck_loses(rule):
    """Line 155: the game ends when a player's deck runs out (house rule: at the draw that
    fails, by default, or as soon as it is empty)."""
    state = started(first=0, options={"deck_out": rule})
    state["players"][1]["deck"] = state["players"][1]["deck"][:1]
    state, _ = pass_window(state)
    state, _ = ENGINE.apply(state, 0, {"type": "no_attack"})
    state, _ = ENGINE.apply(state, 0, {"type": "done"})
    if rule == "empty":
        assert ENGINE.is_terminal(state) and state["winner"] == 0
        return
    assert not ENGINE.is_terminal(state) and state["players"][1]["deck"] == []
    state, _ = pass_window(state)
    state, _ = ENGINE.apply(state, 1, {"type": "no_attack"})
    state, _ = ENGINE.apply(state, 1, {"type": "done"})
    if state["step"] == "discard":
        state, _ = ENGINE.apply(state, 1, ENGINE.legal_actions(state, 1)[0])
    state, _ = pass_window(state)
    state, _ = ENGINE.apply(state, 0, {"type": "no_attack"})
    state, events = ENGINE.apply(state, 0, {"type": "done"})
    assert ENGINE.is_terminal(state) and state["winner"] == 0
    assert "must draw from an empty deck" in texts(events)


def test_refused_actions_change_nothing():
    state = start(new_game())
    before = ENGINE.to_json(state)
    with pytest.raises(Exception, match="not your turn"):
        ENGINE.apply(state, 1 - state["attacker"], {"type": "pass"})
    with pytest.raises(Exception, match="not allowed"):
        ENGINE.apply(state, state["attacker"], {"type": "done"})
    assert ENGINE.to_json(state) == before


def test_timeout_and_words():
    state = start(new_game())
    seat = state["attacker"]
    assert ENGINE.timeout_action(state, seat) == {"type": "pass"}
    assert ENGINE.timeout_action(state, 1 - seat) is None
    assert str(ENGINE.describe_action(state, seat, {"type": "pass"})) == "Pass"
    assert str(ENGINE.summary(state)).startswith("Turn 1, Replenish phase: ")
