"""The greedy bot and the evaluation (minigames/engines/dbs/heuristic.py)."""

from __future__ import annotations

import random

from minigames.engines.dbs import ENGINE
from minigames.engines.dbs.heuristic import evaluate, heuristic_action

from .helpers import act, clear_hand, give, opened, to_battle


def test_the_greedy_bot_beats_random_play():
    wins = 0
    for game in range(20):
        state = ENGINE.new_game(seats=2, seed=game)
        rng = random.Random(game)
        bot = game % 2
        while not ENGINE.is_terminal(state):
            seat = ENGINE.waiting_on(state)[0]
            if seat == bot:
                action = heuristic_action(state, seat, rng)
            else:
                action = rng.choice(ENGINE.legal_actions(state, seat))
            assert action in ENGINE.legal_actions(state, seat)
            state, _ = ENGINE.apply(state, seat, action)
        wins += ENGINE.returns(state)[bot] > 0
    assert wins >= 17


def test_the_bot_counters_with_a_card_that_holds_the_attack():
    state = opened()
    clear_hand(state, 0)
    clear_hand(state, 1)
    state = to_battle(state)
    give(state, 0, "DBS-101")  # 1000
    weak = give(state, 1, "DBS-116")  # 1500 when countering: enough
    give(state, 1, "DBS-117")  # 2000: also enough but dearer
    state, _ = act(state, 0, "declare", "DBS-101")
    assert heuristic_action(state, 1, random.Random(0)) == {"type": "counter", "card": weak}


def test_evaluation_follows_lp_and_ends_at_the_result():
    state = opened()
    assert abs(evaluate(state, 0)) < 0.2
    state["players"][1]["lp"] = 3000
    assert evaluate(state, 0) > 0.5 and evaluate(state, 1) < -0.5
    assert -1.0 <= evaluate(state, 0) <= 1.0
