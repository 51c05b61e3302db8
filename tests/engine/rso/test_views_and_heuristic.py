"""What each seat sees (hidden hands and deck orders), and the greedy heuristic's score."""

from __future__ import annotations

import random

from minigames.engines.rso import ENGINE
from minigames.engines.rso.heuristic import evaluate, heuristic_action
from tests.engine.conformance import canonical
from tests.engine.rso.helpers import started


def test_hands_and_deck_order_are_hidden():
    state = started(first=0, decks=["shrine-and-star", "grand-library"])
    mine, theirs = state["players"][0]["hand"], state["players"][1]["hand"]
    view = ENGINE.view(state, 0)
    text = canonical(view)
    assert [c["id"] for c in view["players"][0]["hand"]] == mine
    assert view["players"][1]["hand"] is None and view["players"][1]["hand_count"] == 6
    for inst in theirs + state["players"][0]["deck"] + state["players"][1]["deck"]:
        assert f'"{inst}"' not in text
    assert ENGINE.hidden_from(state, 0) == set(
        theirs + state["players"][0]["deck"] + state["players"][1]["deck"]
    )
    spectator = canonical(ENGINE.view(state, None))
    assert all(f'"{c}"' not in spectator for c in mine + theirs)
    assert '"seed"' not in text and '"seed"' not in spectator


def test_the_view_carries_visible_cards_in_words():
    state = started(first=0, decks=["shrine-and-star", "grand-library"])
    view = ENGINE.view(state, 0)
    reimu = view["cards"]["RSO-001"]
    assert reimu["name"] == "Reimu Hakurei"
    assert "Special [Battle, 1 SP]" in reimu["lines"][-1]
    visible = list(state["players"][0]["hand"])
    for player in state["players"]:
        visible += player["characters"] + player["reserve"] + player["active"]
        visible += player["discard"] + player["supports"]
    # only cards this seat can see are described: never one known only from the other hand
    assert set(view["cards"]) == {state["inst"][c] for c in visible}


def test_evaluate_prefers_more_hp_and_reads_the_end():
    state = started(first=0)
    assert evaluate(state, 0) == -evaluate(state, 1)
    state["players"][0]["sp"] = 0  # the attacker's Replenish SP
    assert evaluate(state, 0) == evaluate(state, 1) == 0.0
    state["players"][1]["hp"] -= 10
    assert evaluate(state, 0) > 0.3 > -0.3 > evaluate(state, 1)
    state["phase"] = state["step"] = "over"
    state["winner"] = 0
    assert evaluate(state, 0) == 1.0 and evaluate(state, 1) == -1.0


def test_heuristic_activates_and_attacks():
    state = started(first=0, decks=["shrine-and-star", "grand-library"])
    rng = random.Random(1)
    seen = set()
    for _ in range(400):
        if ENGINE.is_terminal(state):
            break
        seat = ENGINE.waiting_on(state)[0]
        action = heuristic_action(state, seat, rng)
        assert action in ENGINE.legal_actions(state, seat)
        seen.add(action["type"])
        state, _ = ENGINE.apply(state, seat, action)
    assert {"activate", "attack", "reserve"} <= seen
