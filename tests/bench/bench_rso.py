"""Rumbling Spell Orchestra: random-playout moves per second of the pure engine, beside
OpenSpiel's ``python_block_dominoes`` (also a pure-Python game) measured in the same run.

Not yet called from ``tests/bench/__main__.py`` (the lead wires the tavern benchmarks together);
run it alone with ``python -m tests.bench.bench_rso``.
"""

from __future__ import annotations

import random
import time

GAMES = 20


def _rso_moves_per_second() -> float:
    from minigames.engines.rso import ENGINE

    moves = 0
    start = time.perf_counter()
    for seed in range(GAMES):
        rng = random.Random(seed)
        state = ENGINE.new_game(seats=2, seed=seed)
        while not ENGINE.is_terminal(state):
            seat = ENGINE.waiting_on(state)[0]
            state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
            moves += 1
    return moves / (time.perf_counter() - start)


def _dominoes_moves_per_second() -> float:
    import pyspiel
    from open_spiel.python.games import block_dominoes  # noqa: F401 - registers the game

    game = pyspiel.load_game("python_block_dominoes")
    moves = 0
    start = time.perf_counter()
    for seed in range(GAMES * 5):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return moves / (time.perf_counter() - start)


def run() -> None:
    rso = _rso_moves_per_second()
    dominoes = _dominoes_moves_per_second()
    print(
        f"{'RSO random playout':<48} {rso:10.0f} moves/s  "
        f"{rso / dominoes:8.2f}× python_block_dominoes ({dominoes:.0f} moves/s)"
    )


if __name__ == "__main__":
    run()
