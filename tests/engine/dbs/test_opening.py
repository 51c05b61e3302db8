"""The opening (rulebook §四, RULES lines 24-26) and the first player's skipped Pick (line 44)."""

from __future__ import annotations

import pytest

from minigames.engines.dbs import ENGINE, preset_deck
from westernroses.protocol import IllegalAction

from .helpers import opened


def test_new_game_starts_with_lp_10000_five_full_beads_and_both_choosing():
    """RULES line 24: LP 10000, 5 full beads, a character from the deck."""
    state = ENGINE.new_game(seats=2, seed=3)
    assert state["phase"] == "setup_character"
    for seat in (0, 1):
        me = state["players"][seat]
        assert me["lp"] == 10000
        assert me["beads"] == ["full"] * 5
        assert me["hand"] == []
    assert ENGINE.waiting_on(state) == (0, 1)
    # only character cards of her own deck may be chosen
    numbers = [a["card"] for a in ENGINE.legal_actions(state, 0)]
    assert numbers == ["DBS-001", "DBS-002"]


def test_the_character_choice_stays_hidden_until_both_have_chosen():
    state = ENGINE.new_game(seats=2, seed=3)
    state, events = ENGINE.apply(state, 0, {"type": "choose_character", "card": "DBS-002"})
    assert ENGINE.waiting_on(state) == (1,)
    pending = state["players"][0]["pending"]
    assert pending in ENGINE.hidden_from(state, 1)
    assert "Marisa" not in str(ENGINE.view(state, 1))
    assert all("Marisa" not in e["text"] for e in events if e["visible_to"] != [0])
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, {"type": "choose_character", "card": "DBS-001"})
    state, events = ENGINE.apply(state, 1, {"type": "choose_character", "card": "DBS-006"})
    # both shown tapped (Support), then 4 cards each
    assert [s["status"] for s in state["players"][0]["characters"]] == ["support"]
    assert any("Kirisame Marisa into her Character Area, tapped" in e["text"] for e in events)
    assert [len(p["hand"]) for p in state["players"]] == [4, 4]  # RULES line 25
    assert state["phase"] == "setup_retrieve"


def test_a_secret_character_choice_is_dealt_anew_in_the_other_seats_worlds():
    """RULES line 24 ("Both of the players can choose a character"), chosen in secret until
    both have: the search bot of the seat still choosing learns nothing of the other's choice;
    the worlds dealt for her hold either of the other's characters, her view in each hers."""
    state = ENGINE.new_game(seats=2, seed=3)
    state, _ = ENGINE.apply(state, 0, {"type": "choose_character", "card": "DBS-002"})
    numbers = set()
    for seed in range(12):
        world = ENGINE.determinize(state, 1, seed)
        assert ENGINE.view(world, 1) == ENGINE.view(state, 1)
        numbers.add(world["instances"][world["players"][0]["pending"]])
    assert numbers == {"DBS-001", "DBS-002"}


def test_opening_retrieval_adds_a_shown_card_and_reshuffles():
    """RULES line 26: look through the deck, add one card to the hand, shuffle."""
    state = ENGINE.new_game(seats=2, seed=5, options={"first_player": "second"})
    for seat, char in ((0, "DBS-001"), (1, "DBS-003")):
        state, _ = ENGINE.apply(state, seat, {"type": "choose_character", "card": char})
    deck_before = len(state["players"][0]["deck"])
    state, _ = ENGINE.apply(state, 0, {"type": "retrieve", "card": "DBS-105"})
    state, events = ENGINE.apply(state, 1, {"type": "retrieve", "card": "DBS-113"})
    me = state["players"][0]
    assert len(me["deck"]) == deck_before - 1
    retrieved = [iid for iid in me["hand"] if state["instances"][iid] == "DBS-105"]
    assert retrieved and retrieved[0] in me["known"]
    assert any(
        "Player 1 shows Floating Beyond Everything" in e["text"] and e["visible_to"] is None
        for e in events
    )
    # the shown card is visible to the opponent, the rest of the hand is not
    opponent_view = ENGINE.view(state, 1)["players"][0]
    assert [c["number"] for c in opponent_view["hand"]] == ["DBS-105"]
    assert opponent_view["hand_count"] == 5
    # house rule: the second seat goes first
    assert state["active"] == 1 and state["first"] == 1


def test_the_first_players_first_pick_draws_nothing_and_the_second_player_draws():
    """RULES line 44: the first player's first Pick phase is passed; line 42: at least one."""
    state = opened()
    assert state["turn"] == 1 and state["active"] == 0
    assert len(state["players"][0]["hand"]) == 5  # 4 + the retrieval, no draw
    from .helpers import to_battle

    state = to_battle(state)
    state, _ = ENGINE.apply(state, 0, {"type": "end_turn"})
    assert state["active"] == 1 and state["turn"] == 2
    assert len(state["players"][1]["hand"]) == 6  # no bead used: the minimum of one card


def test_new_game_refuses_illegal_decks_and_wrong_seats():
    with pytest.raises(ValueError, match="deck rules"):
        ENGINE.new_game(
            seats=2, seed=1, config={"decks": [["DBS-101"] * 40, preset_deck("witch-and-blade")]}
        )
    with pytest.raises(ValueError, match="two players"):
        ENGINE.new_game(seats=3, seed=1)
    with pytest.raises(ValueError, match="no house rule"):
        ENGINE.new_game(seats=2, seed=1, options={"lp": 8000})
    with pytest.raises(ValueError, match="not one of the choices"):
        ENGINE.new_game(seats=2, seed=1, options={"pay_order": "gold"})


def test_a_game_carries_its_gm_cards_and_needs_nothing_else():
    card = {
        "number": "GM-001",
        "name": "Tavern Brawl Shot",
        "kind": "battle",
        "character": "DBS-001",
        "cost": 0,
        "attack": 900,
        "level": 1,
    }
    deck = preset_deck("shrine-and-stars")
    deck[deck.index("DBS-101")] = "GM-001"
    state = ENGINE.new_game(
        seats=2, seed=2, config={"decks": [deck, preset_deck("witch-and-blade")], "cards": [card]}
    )
    assert state["cards"]["GM-001"]["name"] == "Tavern Brawl Shot"
    assert set(state["cards"]) == set(deck) | set(preset_deck("witch-and-blade"))
