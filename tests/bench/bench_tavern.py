"""Tavern games: random-playout moves per second of every importable tavern engine, beside
OpenSpiel's own Python game ``python_block_dominoes`` measured in the same run (issue 12: "make
bench reports random-playout moves per second ... beside OpenSpiel's python_block_dominoes"),
the same playouts through the OpenSpiel adapter, and the search bot's think time per move at
its strongest setting (at most 2 s is the promise).

A "move" is one player action; dominoes' deal is played (chance actions) but not counted. The
engines are played through their protocol (``waiting_on``/``legal_actions``/``apply``), the way
the search bot's rollouts play them. The two test games (Secret Duel, Prize Bids) are measured
too, as a floor: they show what the adapter and the search cost on a game that costs nothing.

Results print as the other benchmarks do and are also written as JSON to
``test-artifacts/bench/tavern.json`` (or ``$WR_BENCH_DIR/tavern.json``).

Runs without Django: ``python -c "from tests.bench import bench_tavern; bench_tavern.run()"``.
"""

from __future__ import annotations

import importlib
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from tests.bench.timing import record, report, section, write_json

#: Player moves per playout measurement (whole games until at least this many), best of REPEAT.
PLAYOUT_MOVES = 3000
REPEAT = 3
#: Positions per engine at which the search bot's think time is measured.
THINK_POSITIONS = 8
BASELINE = "python_block_dominoes"


def dominoes_rate(seed: int, clock: Callable[[], float] = time.perf_counter) -> float:
    """Random-playout player moves per second of OpenSpiel's Python block dominoes, by
    ``clock`` (wall time here; the battle engine's benchmark passes CPU time)."""
    import pyspiel
    from open_spiel.python.games import block_dominoes  # noqa: F401 - registers the game

    game = pyspiel.load_game(BASELINE)
    rng = random.Random(seed)
    best = 0.0
    for _ in range(REPEAT):
        moves = 0
        start = clock()
        while moves < PLAYOUT_MOVES:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(outcomes, weights)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    moves += 1
        best = max(best, moves / (clock() - start))
    return best


def _engine_rate(engine: Any, seats: int, seed: int) -> float:
    """Random-playout moves per second through the engine's protocol."""
    rng = random.Random(seed)
    best = 0.0
    for _ in range(REPEAT):
        moves = 0
        start = time.perf_counter()
        while moves < PLAYOUT_MOVES:
            state = engine.new_game(seats=seats, seed=rng.randrange(2**31))
            while not engine.is_terminal(state):
                waiting = engine.waiting_on(state)
                seat = waiting[rng.randrange(len(waiting))]
                actions = engine.legal_actions(state, seat)
                state, _ = engine.apply(state, seat, actions[rng.randrange(len(actions))])
                moves += 1
        best = max(best, moves / (time.perf_counter() - start))
    return best


def _adapter_rate(engine: Any, seats: int, seed: int) -> float:
    """Random-playout moves per second through the OpenSpiel adapter (ids, infostate-free)."""
    from minigames.bots.adapter import load_game

    rng = random.Random(seed)
    best = 0.0
    for _ in range(REPEAT):
        moves = 0
        start = time.perf_counter()
        while moves < PLAYOUT_MOVES:
            state = load_game(engine, seats, seed=rng.randrange(2**31)).new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
        best = max(best, moves / (time.perf_counter() - start))
    return best


def _think_times(engine: Any, seats: int, seed: int) -> dict[str, float]:
    """The search bot's wall time per move (``choose_action`` at full strength with its default
    2 s limit, set-up included) at positions along a random game."""
    from minigames.bots import choose_action

    rng = random.Random(seed)
    times: list[float] = []
    game_seed = seed
    while len(times) < THINK_POSITIONS:
        state = engine.new_game(seats=seats, seed=game_seed)
        game_seed += 1
        while not engine.is_terminal(state) and len(times) < THINK_POSITIONS:
            waiting = engine.waiting_on(state)
            seat = waiting[rng.randrange(len(waiting))]
            actions = engine.legal_actions(state, seat)
            if len(actions) > 1 and rng.random() < 0.5:
                start = time.perf_counter()
                choose_action(engine, state, seat, "search", rng.randrange(2**31))
                times.append(time.perf_counter() - start)
            state, _ = engine.apply(state, seat, actions[rng.randrange(len(actions))])
    return {"mean_s": statistics.mean(times), "max_s": max(times), "positions": len(times)}


def _engines() -> list[tuple[str, Any, str]]:
    """``(slug, engine, note)`` for every tavern engine that imports, then the test games."""
    from minigames.engines.registry import ENGINE_MODULES

    found: list[tuple[str, Any, str]] = []
    for slug, module in ENGINE_MODULES.items():
        try:
            found.append((slug, importlib.import_module(module).ENGINE, ""))
        except ImportError as exc:
            print(f"{slug:<48} not measured: {module} does not import ({exc})")
    for module in ("tests.games.duel", "tests.games.bids"):
        engine = importlib.import_module(module).ENGINE
        found.append((engine.slug, engine, " (test game)"))
    return found


def run(seed: int = 1) -> dict[str, Any]:
    section("tavern games (random playouts, search think time)")
    baseline_rate = dominoes_rate(seed)
    results: dict[str, Any] = {
        "baseline": {"game": BASELINE, "moves_per_s": baseline_rate},
        "engines": {},
    }
    for slug, engine, note in _engines():
        seats = max(2, engine.min_seats)
        rate = _engine_rate(engine, seats, seed)
        adapted = _adapter_rate(engine, seats, seed)
        think = _think_times(engine, seats, seed)
        report(
            f"{slug}{note}: random playout move ({rate:,.0f}/s)",
            1 / rate,
            f"{BASELINE} move",
            1 / baseline_rate,
        )
        report(
            f"{slug}{note}: the same through the adapter ({adapted:,.0f}/s)",
            1 / adapted,
            f"{BASELINE} move",
            1 / baseline_rate,
        )
        print(
            f"{slug + note + ': search bot think time per move':<48} "
            f"{think['mean_s'] * 1e3:10.1f} ms mean, {think['max_s'] * 1e3:.1f} ms max "
            f"over {think['positions']} positions (limit 2000 ms)"
        )
        record(
            f"{slug}{note}: search bot think time per move",
            value=f"{think['mean_s'] * 1e3:.0f} ms mean, {think['max_s'] * 1e3:.0f} ms most",
            target="<= 2 s",
            met=think["max_s"] <= 2.0,
        )
        results["engines"][slug] = {
            "seats": seats,
            "test_game": bool(note),
            "moves_per_s": rate,
            "adapter_moves_per_s": adapted,
            "ratio_to_baseline": rate / baseline_rate,
            "search_think_time": think,
        }
    write_json("tavern", results)
    return results
