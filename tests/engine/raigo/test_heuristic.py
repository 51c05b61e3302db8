"""The greedy bot and the evaluator (minigames/engines/raigo/heuristic.py)."""

from __future__ import annotations

import math
import random

import pytest

from minigames.engines.raigo import ENGINE
from minigames.engines.raigo.board import player
from minigames.engines.raigo.heuristic import (
    evaluate,
    heuristic_action,
    random_action,
    search_action,
    search_evaluate,
)
from minigames.engines.raigo.tokens import kind
from tests.engine.raigo.helpers import bare, give, start


def duel(seed: int, seats: int = 2) -> float:
    """One game: the heuristic bot in seat ``seed % seats`` (and her partner) against random."""
    rng = random.Random(seed)
    state = ENGINE.new_game(seats=seats, seed=seed)
    hero = seed % seats
    team = {hero % 2, hero % 2 + 2} if seats == 4 else {hero}
    while not ENGINE.is_terminal(state):
        seat = ENGINE.waiting_on(state)[0]
        bot = heuristic_action if seat in team else random_action
        action = bot(state, seat, rng)
        assert action in ENGINE.legal_actions(state, seat)
        state, _ = ENGINE.apply(state, seat, action)
        assert -1.0 <= evaluate(state, seat) <= 1.0
    return ENGINE.returns(state)[hero]


def test_heuristic_beats_random_clearly_with_two_players():
    results = [duel(seed) for seed in range(12)]
    assert sum(r > 0 for r in results) >= 10, results


def test_heuristic_beats_random_with_three_players():
    results = [duel(seed, 3) for seed in range(9)]
    assert sum(r > 0 for r in results) >= 5, results  # random alone would win about 3


def test_evaluate_is_the_result_once_the_game_is_over():
    state = bare(2)
    give(state, 0, body=["five", "four", "three"], left="one", right="two", balls=1)
    state = start(state, 0, "select")
    assert ENGINE.is_terminal(state)
    assert evaluate(state, 0) == -1.0 and evaluate(state, 1) == 1.0


def test_evaluate_prefers_a_tower_with_a_hand_to_an_unsettled_one():
    good, bad = bare(2), bare(2)
    give(good, 0, towers=[["three", "three", "three"]])
    give(bad, 0, towers=[["one", "three", "three"]])
    assert evaluate(good, 0) > 0 > evaluate(bad, 0)
    assert evaluate(good, 1) < 0


def test_heuristic_answers_a_katana_with_its_shield():
    state = bare(3)
    give(state, 0, left="katana")
    give(state, 1, right="shield", towers=[["six", "five"]])
    state = start(state)
    state, _ = ENGINE.apply(
        state,
        0,
        {"type": "chant", "hand": "left", "effect": "katana", "seat": 1, "tower": 0, "end": "top"},
    )
    assert heuristic_action(state, 1, random.Random(0)) == {"type": "shield", "hand": "right"}


def test_the_search_values_a_held_token_by_the_hand_it_would_make():
    """Three Threes are a Sakura: 2 points ("About hands"), +1 since every token is Silent
    (RULINGS RAIGO 3). With two Threes on her tower, a Three in her left hand is worth half of
    what piling it would add to the search's evaluation (0.8 x 3 for the Sakura, less 0.4 for
    the two-token start); a Seven would make that tower Unsettled, so its best use is to start
    an empty tower (0.1). The heuristic bot's evaluation ignores held
    tokens and scores both alike."""
    with_three, with_seven = bare(2), bare(2)
    give(with_three, 0, left="three", towers=[["three", "three"]])
    give(with_seven, 0, left="seven", towers=[["three", "three"]])
    gain = 0.5 * (0.8 * 3 - 0.4)
    assert search_evaluate(with_three, 0) == pytest.approx(math.tanh((0.4 + gain) / 4))
    assert search_evaluate(with_seven, 0) == pytest.approx(math.tanh((0.4 + 0.5 * 0.1) / 4))
    assert evaluate(with_three, 0) == evaluate(with_seven, 0)


def test_the_search_policy_fetches_the_token_that_fits_her_tower():
    """Fetch: the search's greedy rule moves the Three (it would make the Sakura) to a hand,
    never the Seven; to the heuristic bot both fetches look alike."""
    state = bare(2)
    give(state, 0, body=["seven", "three"], towers=[["three", "three"]])
    state = start(state, 0, "fetch")
    three = next(t for t in player(state, 0)["body"] if kind(t).key == "three")
    for seed in range(8):
        action = search_action(state, 0, random.Random(seed))
        assert action["type"] == "fetch" and action["token"] == three, action
