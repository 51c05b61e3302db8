"""The search bot's win rate over many two-player games, measured outside the suite.

Issue 12 ("Done when"): the search bot beats the random bot in at least 90% of 200 two-player
games of RAIGO and Spirit War, and the heuristic bot in at least 60%. The suite plays a few of
those games (tests/bots/test_win_rates.py); this command plays all of them::

    nice python -m tests.bench.measure_bots --game raigo --opponent random --games 200 \
        --simulations 32 --processes 2

Seats alternate every game; game ``n`` is seeded ``first_seed + n`` and every search is bounded
by its simulation count, not the clock, so a run is a pure function of its arguments (and can be
split across processes without changing a single game). It prints the win rate with its 95%
Wilson interval and writes every game's result to
``test-artifacts/bench/bots-<game>-<opponent>-<simulations>.json`` as it goes (a long run that
is stopped keeps what it played).
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import multiprocessing
import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from minigames.bots import SearchSettings
from minigames.engines.registry import ENGINE_MODULES

ARTIFACTS = Path("test-artifacts/bench")
#: The suite's search settings (tests/bots/test_win_rates.py): playouts of 8 heuristic moves.
GUIDED_MOVES = 8
ROLLOUT_MOVES = 40


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``wins`` in ``games`` (95% for ``z=1.96``)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _play(job: tuple[str, str, int, int, int]) -> dict[str, Any]:
    """One game: the search bot at seat ``n % 2`` against ``opponent``."""
    from tests.bots.match import play_match

    slug, opponent, simulations, guided, seed = job
    engine = importlib.import_module(ENGINE_MODULES[slug]).ENGINE
    settings = SearchSettings(
        simulations=simulations, guided_moves=guided, rollout_moves=ROLLOUT_MOVES
    )
    me = seed % 2
    started = time.perf_counter()
    returns = play_match(engine, {me: "search", 1 - me: opponent}, seed=seed, settings=settings)  # type: ignore[dict-item]
    return {
        "seed": seed,
        "search_seat": me,
        "returns": returns,
        "won": returns[me] > 0,
        "draw": returns[me] == 0,
        "seconds": round(time.perf_counter() - started, 2),
    }


def measure(
    slug: str,
    opponent: str,
    *,
    games: int,
    simulations: int,
    guided: int = GUIDED_MOVES,
    first_seed: int = 0,
    processes: int = 1,
    out: Path | None = None,
) -> dict[str, Any]:
    """Play the games, writing the running tally to ``out`` after each; the final record."""
    out = out or ARTIFACTS / f"bots-{slug}-{opponent}-{simulations}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    jobs = [(slug, opponent, simulations, guided, first_seed + n) for n in range(games)]
    record: dict[str, Any] = {
        "game": slug,
        "opponent": opponent,
        "simulations": simulations,
        "guided_moves": guided,
        "first_seed": first_seed,
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "games": [],
    }
    started = time.perf_counter()

    def tally(result: dict[str, Any]) -> None:
        record["games"].append(result)
        played = len(record["games"])
        wins = sum(g["won"] for g in record["games"])
        low, high = wilson(wins, played)
        record.update(
            played=played,
            wins=wins,
            draws=sum(g["draw"] for g in record["games"]),
            rate=wins / played,
            wilson95=[round(low, 4), round(high, 4)],
            seconds=round(time.perf_counter() - started, 1),
        )
        out.write_text(json.dumps(record, indent=1))
        print(
            f"{slug} vs {opponent}: {wins}/{played} = {wins / played:.1%} "
            f"(95% Wilson {low:.1%}-{high:.1%}), game {result['seed']} "
            f"{'won' if result['won'] else 'lost'} in {result['seconds']} s",
            flush=True,
        )

    if processes <= 1:
        for job in jobs:
            tally(_play(job))
    else:
        with multiprocessing.get_context("spawn").Pool(processes) as pool:
            for result in pool.imap_unordered(_play, jobs):
                tally(result)
    record["finished"] = datetime.now(UTC).isoformat(timespec="seconds")
    record["games"].sort(key=lambda g: g["seed"])
    out.write_text(json.dumps(record, indent=1))
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, choices=sorted(ENGINE_MODULES))
    parser.add_argument("--opponent", default="random", choices=["random", "heuristic"])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--simulations", type=int, default=32)
    parser.add_argument("--guided-moves", type=int, default=GUIDED_MOVES)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--processes", type=int, default=1, choices=[1, 2])
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    os.environ.setdefault("WR_NO_SERVICES", "1")
    record = measure(
        args.game,
        args.opponent,
        games=args.games,
        simulations=args.simulations,
        guided=args.guided_moves,
        first_seed=args.first_seed,
        processes=args.processes,
        out=args.out,
    )
    low, high = record["wilson95"]
    print(
        f"RESULT {args.game} search({args.simulations}) vs {args.opponent}: "
        f"{record['wins']}/{record['played']} = {record['rate']:.1%} "
        f"(95% Wilson {low:.1%}-{high:.1%}) in {record['seconds']} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
