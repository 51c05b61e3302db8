"""Seeding the bots' ratings: rated bot-against-bot games played in the process, so a
leaderboard's "Search bot 1650" means something before people have played the bots much
(``manage.py rate_bots``; docs/bots.md, "Ratings").

Each game seats two of the three strengths (every pair in turn, seats swapped every other
game) and is counted by the same service as a table's result
(:func:`tables.ratings.services.rate_result`), at the site's open tables, placed by the same
rules (:func:`minigames.rated.placings`). A game is keyed by its run and number, so running
the same run again counts nothing twice. The search plays at ``settings`` (by default a cheap
one: fewer simulations than at a table, and no clock, so a run is a pure function of its
seed); its rating then is that of a weaker search than a table's, which docs/bots.md says.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from minigames.bots import STRENGTHS, SearchSettings, Strength, choose_action
from minigames.engines.registry import get_engine

from .rated import placings

#: A cheap search for seeding: a table's plays 1,000 simulations within 2 s a move.
CHEAP = SearchSettings(simulations=24)
#: The most moves one game may take before it is given up (no tavern game comes near).
MOVE_LIMIT = 5000


@dataclass(frozen=True)
class Played:
    """One seeding game: the strengths by seat and the sides' ranks (0 the best)."""

    strengths: tuple[str, ...]
    ranks: tuple[int, ...]
    counted: bool


def pairings(games: int) -> list[tuple[Strength, Strength]]:
    """The seatings of ``games`` games: every pair of strengths in turn, swapped every other
    round so neither sits first always."""
    pairs = list(combinations(STRENGTHS, 2))
    out: list[tuple[Strength, Strength]] = []
    for n in range(games):
        a, b = pairs[n % len(pairs)]
        out.append((a, b) if (n // len(pairs)) % 2 == 0 else (b, a))
    return out


def play(game: str, strengths: tuple[Strength, ...], seed: int, settings: SearchSettings) -> Any:
    """One game between bots of ``strengths`` (seat by seat); its final state."""
    engine = get_engine(game)
    order = random.Random(seed)
    state = engine.new_game(seats=len(strengths), seed=seed)
    for move in range(MOVE_LIMIT):
        if engine.is_terminal(state):
            return state
        waiting = list(engine.waiting_on(state))
        seat = waiting[order.randrange(len(waiting))]
        action = choose_action(
            engine, state, seat, strengths[int(seat)], seed * 10_000 + move, None,
            settings=settings,
        )  # fmt: skip
        state, _events = engine.apply(state, seat, action)
    raise RuntimeError(f"{game}: a bot game did not end within {MOVE_LIMIT} moves.")


def seed_bot_ratings(
    game: str,
    games: int,
    *,
    run: str,
    seed: int = 1,
    settings: SearchSettings = CHEAP,
    progress: Callable[[int, Played], None] | None = None,
) -> list[Played]:
    """Play ``games`` rated bot games of ``game`` and count each (the run's name ``run`` keys
    them: the same run again counts nothing twice). Returns what each game did."""
    from django.db import transaction

    from tables.ratings.services import Player, Team, rate_result

    out = []
    for n, strengths in enumerate(pairings(games)):
        state = play(game, strengths, seed + n, settings)
        placed = placings(game, state, len(strengths))
        with transaction.atomic():
            counted = rate_result(
                key=f"bots:{run}:{n}"[:80],
                game=game,
                campaign_id=None,
                teams=[
                    Team(players=tuple(Player(bot=strengths[s]) for s in side), rank=rank)
                    for side, rank in placed
                ],
            )
        played = Played(strengths, tuple(rank for _, rank in placed), counted)
        out.append(played)
        if progress is not None:
            progress(n, played)
    return out
