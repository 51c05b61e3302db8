"""The preset decks' balance: every pairing of a card game's preset decks, heuristic bot
against heuristic bot, seats alternating (docs/bots.md, "The preset decks' balance").

::

    nice python -m minigames.bots.presets --game rso --games 134

For RSO and DBS (the games with preset decks) it plays ``--games`` games of each pairing of two
different presets: game ``n`` of a pairing is seeded ``first_seed + n`` and the first deck sits
in seat ``n % 2``, so each deck plays each seat equally often and a run is a pure function of
its arguments. It prints the matrix (each cell: the row deck's wins against the column deck)
and, per deck, its wins over all its games with a 95% Wilson interval, and writes the same as
JSON to ``test-artifacts/bots/presets-<game>.json`` (rewritten after every pairing).

Issue 36's bar: every preset wins 40% to 60% of at least 400 games over all its pairings
(134 games a pairing: 402 a deck), and no pairing is worse than 35/65. A draw is no win.

No Django: the bots and engines are pure Python.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from minigames.bots.choose import Strength, choose_action
from minigames.bots.measure import ARTIFACTS, wilson
from minigames.engines.registry import ENGINE_MODULES, get_engine

#: The games that have preset decks.
GAMES = ("rso", "dbs")
#: Issue 36: a preset's share of wins over all its pairings, and a pairing's worst share.
DECK_BAND = (0.40, 0.60)
PAIRING_FLOOR = 0.35


def _presets(game: str) -> list[dict[str, Any]]:
    """``game``'s preset decks: both card games give them in one shape (docs/decks.md)."""
    if game not in GAMES:
        raise ValueError(f"{game!r} has no preset decks; choose one of {', '.join(GAMES)}.")
    module = importlib.import_module(ENGINE_MODULES[game])
    presets: list[dict[str, Any]] = module.preset_decks()
    return presets


def preset_keys(game: str) -> list[str]:
    """The keys of ``game``'s preset decks, in the order its data lists them."""
    return [str(deck["key"]) for deck in _presets(game)]


def preset_names(game: str) -> dict[str, str]:
    """Each preset's name in words, by key."""
    return {str(deck["key"]): str(deck["name"]) for deck in _presets(game)}


def _deck_config(game: str, first: str, second: str) -> dict[str, Any]:
    """The engine's ``config`` seating ``first`` in seat 0 and ``second`` in seat 1."""
    cards = {str(deck["key"]): list(deck["cards"]) for deck in _presets(game)}
    return {"decks": [cards[first], cards[second]]}


def play(
    game: str,
    decks: tuple[str, str],
    *,
    seed: int,
    strengths: tuple[Strength, Strength] = ("heuristic", "heuristic"),
) -> list[float]:
    """One game: seat ``i`` plays ``decks[i]`` at ``strengths[i]``; the engine's returns.
    Of several seats waited on at once, the one to act is drawn from ``seed``."""
    engine = get_engine(game)
    order = random.Random(seed)
    state = engine.new_game(seats=2, seed=seed, config=_deck_config(game, *decks))
    move = 0
    while not engine.is_terminal(state):
        waiting = list(engine.waiting_on(state))
        seat = waiting[order.randrange(len(waiting))]
        action = choose_action(
            engine, state, seat, strengths[int(seat)], seed * 10_000 + move, None
        )
        state, _ = engine.apply(state, seat, action)
        move += 1
    return [float(r) for r in engine.returns(state)]


@dataclass
class Pairing:
    """Two decks' games against each other: ``wins[i]`` for ``decks[i]``."""

    decks: tuple[str, str]
    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0

    def rate(self, deck: str) -> float:
        return self.wins[self.decks.index(deck)] / self.games if self.games else 0.0


def play_pairing(game: str, decks: tuple[str, str], *, games: int, first_seed: int = 0) -> Pairing:
    """``games`` games of ``decks[0]`` against ``decks[1]``, the first deck in seat ``n % 2``."""
    pairing = Pairing(decks)
    for n in range(games):
        mine = n % 2
        seated = (decks[0], decks[1]) if mine == 0 else (decks[1], decks[0])
        returns = play(game, seated, seed=first_seed + n)
        pairing.games += 1
        if returns[mine] > returns[1 - mine]:
            pairing.wins[0] += 1
        elif returns[mine] < returns[1 - mine]:
            pairing.wins[1] += 1
        else:
            pairing.draws += 1
    return pairing


def summary(game: str, pairings: Sequence[Pairing]) -> dict[str, Any]:
    """The matrix, each deck's total with its Wilson interval, and whether issue 36's bar holds."""
    keys = preset_keys(game)
    names = preset_names(game)
    decks: dict[str, dict[str, Any]] = {}
    for key in keys:
        played = [p for p in pairings if key in p.decks]
        games = sum(p.games for p in played)
        wins = sum(p.wins[p.decks.index(key)] for p in played)
        draws = sum(p.draws for p in played)
        low, high = wilson(wins, games)
        decks[key] = {
            "name": names[key],
            "games": games,
            "wins": wins,
            "draws": draws,
            "rate": wins / games if games else 0.0,
            "wilson_95": [low, high],
        }
    matrix = {
        row: {
            col: next(
                (
                    {
                        "wins": p.wins[p.decks.index(row)],
                        "games": p.games,
                        "rate": p.rate(row),
                    }
                    for p in pairings
                    if set(p.decks) == {row, col}
                ),
                None,
            )
            for col in keys
            if col != row
        }
        for row in keys
    }
    low, high = DECK_BAND
    balanced = all(low <= d["rate"] <= high for d in decks.values() if d["games"]) and all(
        min(p.rate(p.decks[0]), p.rate(p.decks[1])) >= PAIRING_FLOOR for p in pairings
    )
    return {"game": game, "decks": decks, "matrix": matrix, "balanced": balanced}


def format_summary(record: dict[str, Any]) -> str:
    """The matrix and the per-deck totals as a Markdown table, for the terminal and the docs."""
    decks = record["decks"]
    keys = list(decks)
    lines = [
        "| deck | "
        + " | ".join(f"vs {decks[k]['name']}" for k in keys)
        + " | all games | 95% Wilson |",
        "|---|" + "---|" * (len(keys) + 2),
    ]
    for row in keys:
        cells = []
        for col in keys:
            cell = record["matrix"][row].get(col) if col != row else None
            cells.append(
                "" if cell is None else f"{cell['wins']}/{cell['games']} ({cell['rate']:.0%})"
            )
        deck = decks[row]
        low, high = deck["wilson_95"]
        lines.append(
            f"| {deck['name']} | "
            + " | ".join(cells)
            + f" | {deck['wins']}/{deck['games']} ({deck['rate']:.1%})"
            + f" | {low:.1%} to {high:.1%} |"
        )
    return "\n".join(lines)


def run(
    game: str,
    *,
    games: int,
    first_seed: int = 0,
    out: Path | None = None,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Every pairing of ``game``'s presets, ``games`` games each; the :func:`summary`."""
    started = time.monotonic()
    pairings: list[Pairing] = []
    record: dict[str, Any] = {}
    for decks in itertools.combinations(preset_keys(game), 2):
        pairing = play_pairing(game, decks, games=games, first_seed=first_seed)
        pairings.append(pairing)
        record = summary(game, pairings)
        record.update(
            games_a_pairing=games,
            first_seed=first_seed,
            strength="heuristic",
            seconds=round(time.monotonic() - started, 1),
            date=datetime.now(UTC).isoformat(timespec="seconds"),
            pairings=[
                {"decks": list(p.decks), "games": p.games, "wins": p.wins, "draws": p.draws}
                for p in pairings
            ],
        )
        if out is not None:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(record, indent=2) + "\n")
        if progress is not None:
            progress(
                f"{game}: {decks[0]} {pairing.wins[0]} - {pairing.wins[1]} {decks[1]}"
                f" ({pairing.draws} draws, {record['seconds']} s)"
            )
    return record


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m minigames.bots.presets", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--game", required=True, choices=GAMES)
    parser.add_argument(
        "--games", type=int, default=134, help="games a pairing (134: 402 games a deck)"
    )
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="the JSON file to write")
    parser.add_argument("--quiet", action="store_true", help="no line per pairing")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    out = args.out or ARTIFACTS / f"presets-{args.game}.json"

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    record = run(
        args.game,
        games=args.games,
        first_seed=args.first_seed,
        out=out,
        progress=None if args.quiet else say,
    )
    print(format_summary(record))
    verdict = "within" if record["balanced"] else "outside"
    print(
        f"\n{verdict} issue 36's bar (each deck 40% to 60% of its games, no pairing below "
        f"35%); {record['seconds']} s -> {out}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
