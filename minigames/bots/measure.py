"""Measure a bot's win rate against another over many seeded two-seat games, for any engine.

The issues' "Done when" asks for win rates over 200 games (the search bot against the random
bot: 90% for RAIGO and Spirit War, 85% for RSO and DBS). The suite's win-rate test plays far
fewer games, since the search is dear; this command plays the full count, outside the suite::

    nice python -m minigames.bots.measure --game rso --opponent random --games 200

Seats alternate every game (the measured bot sits first in even games); game ``n`` is seeded
``first_seed + n`` and every search is bounded by its simulations, not the clock, so a run is a
pure function of its arguments and one game can be replayed alone. It prints the wins, draws
and the win rate with a 95% Wilson score interval, and writes the same as JSON (rewritten after
every game, so a run cut short still leaves its numbers) to ``test-artifacts/bots/``.

``--sees-all`` measures a search bot that cheats: it searches the true state, every hand and
the deck order, instead of worlds dealt by ``determinize`` (:func:`sees_all_action`). It is an
upper bound on what a fair search at the same settings could win, for measurements only; no
table's bot can play it (:func:`~minigames.bots.choose.choose_action` never does).

No Django: the bots and engines are pure Python.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from minigames.bots.adapter import load_game
from minigames.bots.choose import STRENGTHS, Strength, choose_action
from minigames.bots.heuristics import Heuristics, heuristics_for
from minigames.bots.search import SearchSettings, make_bot, strongest
from minigames.engines.registry import ENGINE_MODULES, get_engine
from westernroses.protocol import Action, GameEngine, Seat

#: Where the JSON goes unless ``--out`` says otherwise (never committed).
ARTIFACTS = Path("test-artifacts") / "bots"


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% for ``z=1.96``): unlike the
    normal approximation it stays inside [0, 1] and is sound near 0% and 100%."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def sees_all_action(
    engine: GameEngine[Any],
    state: Any,
    seat: Seat,
    seed: int,
    *,
    settings: SearchSettings,
    heuristics: Heuristics | None = None,
) -> Action:
    """The move of a search bot that sees everything: an upper bound for measurements: this
    bot cheats.

    The same search as the ``"search"`` strength (same settings, evaluator and seeds), except
    that every simulation starts from the true ``state`` (every hand, the deck order, the
    engine's random source, so the next draws too) instead of a world ``determinize`` deals.
    Whatever it wins bounds what a fair search with these settings could win. It lives here,
    not in :mod:`minigames.bots.choose`, so that no table's bot or advisor can reach it.
    """
    if seat not in engine.waiting_on(state) or not engine.legal_actions(state, seat):
        raise ValueError(f"{engine.title}: seat {seat} is not asked to act now.")
    game = load_game(engine, len(engine.returns(state)))
    root = game.state_from_engine(state, leader=seat)
    bot = make_bot(
        game,
        settings=settings,
        heuristics=heuristics if heuristics is not None else heuristics_for(engine),
        seed=seed,
        time_limit=None,
        sees_all=True,
    )
    return game.action(int(bot.step(root)))


def play_game(
    engine: GameEngine[Any],
    strengths: Mapping[int, Strength],
    *,
    seed: int,
    settings: SearchSettings,
    sees_all: frozenset[int] = frozenset(),
) -> tuple[list[float], int]:
    """One game, seat ``i`` at ``strengths[i]``: the engine's returns and the number of moves.

    The seats in ``sees_all`` play :func:`sees_all_action` (the search that cheats) instead.
    When several seats are waited on at once the one to act is drawn from ``seed``; a seat
    that has no legal move would be a protocol breach and raises.
    """
    order = random.Random(seed)
    state = engine.new_game(seats=len(strengths), seed=seed)
    move = 0
    while not engine.is_terminal(state):
        waiting = list(engine.waiting_on(state))
        seat = waiting[order.randrange(len(waiting))]
        if int(seat) in sees_all:
            action = sees_all_action(engine, state, seat, seed * 10_000 + move, settings=settings)
        else:
            action = choose_action(
                engine,
                state,
                seat,
                strengths[int(seat)],
                seed * 10_000 + move,
                None,
                settings=settings,
            )
        state, _ = engine.apply(state, seat, action)
        move += 1
    return [float(r) for r in engine.returns(state)], move


def measure(
    game: str,
    *,
    strength: Strength,
    opponent: Strength,
    games: int,
    settings: SearchSettings,
    first_seed: int = 0,
    out: Path | None = None,
    progress: bool = True,
    sees_all: bool = False,
) -> dict[str, Any]:
    """Play ``games`` games of ``game`` and return (and write to ``out``) the tally.

    ``sees_all``: the measured bot is the search that sees the true state
    (:func:`sees_all_action`; ``strength`` must then be ``"search"``).
    """
    if sees_all and strength != "search":
        raise ValueError("Only the search bot can be made to see everything.")
    engine = get_engine(game)
    started = time.monotonic()
    wins = draws = moves = 0
    record: dict[str, Any] = {}
    #: per game: its seed, the measured bot's seat, and "win", "draw" or "loss"
    results: list[dict[str, Any]] = []
    for n in range(games):
        me = n % 2
        returns, length = play_game(
            engine,
            {me: strength, 1 - me: opponent},
            seed=first_seed + n,
            settings=settings,
            sees_all=frozenset({me}) if sees_all else frozenset(),
        )
        wins += returns[me] > 0
        draws += returns[me] == 0
        moves += length
        outcome = "win" if returns[me] > 0 else "draw" if returns[me] == 0 else "loss"
        results.append({"seed": first_seed + n, "seat": me, "outcome": outcome, "moves": length})
        played = n + 1
        low, high = wilson(wins, played)
        record = {
            "game": game,
            "strength": strength,
            "sees_all": sees_all,
            "opponent": opponent,
            "games": played,
            "games_asked": games,
            "wins": wins,
            "draws": draws,
            "losses": played - wins - draws,
            "rate": wins / played,
            "wilson_95": [low, high],
            "simulations": settings.simulations,
            "guided_moves": settings.guided_moves,
            "settings": asdict(settings),
            "first_seed": first_seed,
            "mean_moves": moves / played,
            "seconds": round(time.monotonic() - started, 1),
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "results": results,
        }
        if out is not None:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(record, indent=2) + "\n")
        if progress:
            print(
                f"{game} game {played}/{games}: {outcome} ({wins}/{played}, {record['seconds']} s)",
                file=sys.stderr,
                flush=True,
            )
    return record


def measured_settings(
    game: str,
    *,
    simulations: int,
    guided_moves: int | None = None,
    epsilon: float | None = None,
    prior_weight: float | None = None,
    uct_c: float | None = None,
    final_policy: str | None = None,
    max_world_samples: int | None = None,
    node_key: str | None = None,
    paired_worlds: int | None = None,
) -> SearchSettings:
    """The engine's strongest search settings (the table's bot's) at ``simulations``, with the
    fields given changed (``guided_moves=-1``: playouts to the end of the game); random playouts
    are cut at 40 moves, as in the win-rate test."""
    changes: dict[str, Any] = {"simulations": simulations, "rollout_moves": 40}
    if guided_moves is not None:
        changes["guided_moves"] = None if guided_moves < 0 else guided_moves
    given = (
        ("epsilon", epsilon),
        ("prior_weight", prior_weight),
        ("uct_c", uct_c),
        ("final_policy", final_policy),
        ("max_world_samples", max_world_samples),
        ("node_key", node_key),
        ("paired_worlds", paired_worlds),
    )
    for field, value in given:
        if value is not None:
            changes[field] = value
    return replace(strongest(heuristics_for(get_engine(game))), **changes)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m minigames.bots.measure", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--game", required=True, choices=sorted(ENGINE_MODULES))
    parser.add_argument("--strength", default="search", choices=STRENGTHS)
    parser.add_argument("--opponent", default="random", choices=STRENGTHS)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--simulations", type=int, default=32, help="search simulations a move")
    parser.add_argument(
        "--guided-moves",
        type=int,
        default=None,
        help="heuristic moves in a guided playout (0: the leaf alone, -1: to the end of the "
        "game; default: the engine's strongest setting)",
    )
    parser.add_argument("--epsilon", type=float, default=None, help="random-move chance")
    parser.add_argument("--prior-weight", type=float, default=None, help="PUCT prior weight")
    parser.add_argument("--uct-c", type=float, default=None, help="exploration constant")
    parser.add_argument(
        "--final-policy",
        default=None,
        choices=("max_visit_count", "max_value"),
        help="how the searched move is chosen",
    )
    parser.add_argument(
        "--worlds", type=int, default=None, help="distinct worlds dealt per search (-1: one each)"
    )
    parser.add_argument(
        "--node-key",
        default=None,
        choices=("mover", "searcher"),
        help="what names a node of the search tree: the information state of the seat to "
        "move (OpenSpiel's) or of the searching seat (single-observer ISMCTS)",
    )
    parser.add_argument(
        "--paired-worlds",
        type=int,
        default=None,
        help="score each leaf by playouts in this many worlds dealt with the same seeds at "
        "every leaf of a search (0: one playout in the simulation's own world)",
    )
    parser.add_argument(
        "--sees-all",
        action="store_true",
        help="the measured search bot cheats: it searches the true state, every hand and the "
        "deck order (an upper bound for measurements)",
    )
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="the JSON file to write")
    parser.add_argument("--quiet", action="store_true", help="no line per game")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.sees_all and args.strength != "search":
        parser.error("--sees-all is for the search bot")
    name = f"{args.strength}-sees-all" if args.sees_all else args.strength
    out = args.out or ARTIFACTS / (
        f"measure-{args.game}-{name}-vs-{args.opponent}-{args.simulations}sims.json"
    )
    settings = measured_settings(
        args.game,
        simulations=args.simulations,
        guided_moves=args.guided_moves,
        epsilon=args.epsilon,
        prior_weight=args.prior_weight,
        uct_c=args.uct_c,
        final_policy=args.final_policy,
        max_world_samples=args.worlds,
        node_key=args.node_key,
        paired_worlds=args.paired_worlds,
    )
    record = measure(
        args.game,
        strength=args.strength,
        opponent=args.opponent,
        games=args.games,
        settings=settings,
        first_seed=args.first_seed,
        out=out,
        progress=not args.quiet,
        sees_all=args.sees_all,
    )
    low, high = record["wilson_95"]
    print(
        f"{args.game}: {name} won {record['wins']} of {record['games']} games against "
        f"{args.opponent} ({record['rate']:.1%}; 95% Wilson interval {low:.1%} to {high:.1%}; "
        f"{record['draws']} draws; {args.simulations} simulations a move; "
        f"{record['seconds']} s) -> {out}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
