"""The bot ladder of a game: whether its three strengths are ordered (docs/bots.md, "The ladder").

::

    nice python -m minigames.bots.ladder --game rso --games 200

Issue 36's bar, per game: over ``--games`` games, seats alternating, the top strength wins at
least half its games against the middle one, and the middle one at least 80% against random.
The top strength is ``search`` unless ``--top heuristic`` says the game's search does not beat
its heuristic (then the ladder is heuristic over random only, and the docs say so).

Each rung is :func:`minigames.bots.measure.measure` (game ``n`` seeded ``first_seed + n``, the
measured bot first in even games), the search bounded by ``--simulations`` (the count 2 s allows
on an idle core: docs/bots.md gives it per game), not the clock, so a run is a pure function of
its arguments whatever the machine's load. It prints each rung with its 95% Wilson interval and
writes them as JSON to ``test-artifacts/bots/ladder-<game>.json`` (rewritten after each rung;
each rung's own per-game JSON goes beside it).

No Django: the bots and engines are pure Python.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from minigames.bots.choose import Strength
from minigames.bots.measure import ARTIFACTS, measure, measured_settings
from minigames.engines.registry import ENGINE_MODULES

#: Issue 36: the top strength's share against the middle one, the middle one's against random.
TOP_BAR = 0.50
MIDDLE_BAR = 0.80


def rungs(top: Strength) -> list[tuple[Strength, Strength, float]]:
    """(strength, opponent, bar) for each rung of the ladder whose top is ``top``."""
    if top == "heuristic":
        return [("heuristic", "random", MIDDLE_BAR)]
    return [("search", "heuristic", TOP_BAR), ("heuristic", "random", MIDDLE_BAR)]


def ladder(
    game: str,
    *,
    games: int,
    simulations: int,
    top: Strength = "search",
    first_seed: int = 0,
    out: Path | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Every rung of ``game``'s ladder; the record written to ``out``."""
    settings = measured_settings(game, simulations=simulations)
    record: dict[str, Any] = {
        "game": game,
        "top": top,
        "simulations": simulations,
        "games_asked": games,
        "first_seed": first_seed,
        "rungs": [],
    }
    for strength, opponent, bar in rungs(top):
        rung_out = (
            None if out is None else out.with_name(f"{out.stem}-{strength}-vs-{opponent}.json")
        )
        result = measure(
            game,
            strength=strength,
            opponent=opponent,
            games=games,
            settings=settings,
            first_seed=first_seed,
            out=rung_out,
            progress=progress,
        )
        record["rungs"].append(
            {
                key: result[key]
                for key in ("strength", "opponent", "games", "wins", "draws", "losses", "rate")
            }
            | {
                "wilson_95": result["wilson_95"],
                "bar": bar,
                "met": result["rate"] >= bar,
                "seconds": result["seconds"],
            }
        )
        record["date"] = datetime.now(UTC).isoformat(timespec="seconds")
        if out is not None:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(record, indent=2) + "\n")
    return record


def format_rung(game: str, rung: dict[str, Any]) -> str:
    low, high = rung["wilson_95"]
    verdict = "meets" if rung["met"] else "misses"
    return (
        f"{game}: {rung['strength']} won {rung['wins']} of {rung['games']} against "
        f"{rung['opponent']} ({rung['rate']:.1%}; 95% Wilson {low:.1%} to {high:.1%}; "
        f"{rung['draws']} draws) - {verdict} the bar of {rung['bar']:.0%}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m minigames.bots.ladder", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--game", required=True, choices=sorted(ENGINE_MODULES))
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument(
        "--simulations",
        type=int,
        default=None,
        help="search simulations a move (default: the game's own setting, docs/bots.md)",
    )
    parser.add_argument("--top", default="search", choices=("search", "heuristic"))
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="the JSON file to write")
    parser.add_argument("--progress", action="store_true", help="a line per game")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    simulations = args.simulations or LADDER_SIMULATIONS[args.game]
    out = args.out or ARTIFACTS / f"ladder-{args.game}.json"
    record = ladder(
        args.game,
        games=args.games,
        simulations=simulations,
        top=args.top,
        first_seed=args.first_seed,
        out=out,
        progress=args.progress,
    )
    for rung in record["rungs"]:
        print(format_rung(args.game, rung))
    print(f"{simulations} simulations a move -> {out}")
    return 0


#: Simulations a move for the ladder: what the table's 2 s allow on an idle core (docs/bots.md).
LADDER_SIMULATIONS: dict[str, int] = {"raigo": 24, "spirit_war": 16, "rso": 32, "dbs": 32}


if __name__ == "__main__":
    raise SystemExit(main())
