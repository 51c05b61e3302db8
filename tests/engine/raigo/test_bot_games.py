"""A thousand bot-against-bot RAIGO games, checked as they are played (issue 12, "Done when").

Each hypothesis example is one game of 2, 3 or 4 seats between random and heuristic bots
(hypothesis draws the seed and which seats play the greedy heuristic); the checks are
tests/engine/checked_games.py's: every token in exactly one place after every move (the 2-player
set has no Eights and one token out of play, rulebook "Setup for 2 players"), no legal move
refused, no illegal one applied, no view or event showing a seat a token hidden from her (the
towers face down, the Inner Tokens, Raizan: rulebook "Hidden information"), the log replays to
the same state byte for byte.

:data:`GAMES` per seat count keeps the module within about 90 s on one core (measured: 2
seats ~60 ms a game, 4 seats ~140 ms, random bots; a heuristic seat doubles that; the whole
module 80 s of CPU on 23 November 2026);
``WR_MANY_GAMES`` multiplies it for a longer run outside the suite.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minigames.engines.raigo import ENGINE
from minigames.engines.raigo.heuristic import heuristic_action
from tests.engine.checked_games import play_checked_bot_game
from tests.engine.raigo.helpers import assert_tokens_accounted

SCALE = float(os.environ.get("WR_MANY_GAMES", "1"))
#: Games per seat count in the suite (1,000 in all).
GAMES = {2: 400, 3: 320, 4: 280}


@pytest.mark.parametrize("seats", sorted(GAMES))
def test_bot_games_keep_every_promise(seats: int) -> None:
    @settings(
        max_examples=int(GAMES[seats] * SCALE),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(
        seed=st.integers(0, 2**53 - 1),
        heuristic_seats=st.sets(st.integers(0, seats - 1), max_size=1),
    )
    def one_game(seed: int, heuristic_seats: set[int]) -> None:
        bots = ["heuristic" if s in heuristic_seats else "random" for s in range(seats)]
        final = play_checked_bot_game(
            ENGINE,
            seats=seats,
            seed=seed,
            bots=bots,  # type: ignore[arg-type]
            heuristic=heuristic_action,
            check_places=assert_tokens_accounted,
        )
        assert ENGINE.is_terminal(final)
        assert all(r in (-1.0, 0.0, 1.0) for r in ENGINE.returns(final))

    one_game()
