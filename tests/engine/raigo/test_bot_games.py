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

from typing import Any

import pytest

from minigames.engines.raigo import ENGINE
from minigames.engines.raigo.heuristic import heuristic_action
from tests.engine.checked_games import play_many_checked_games
from tests.engine.raigo.helpers import assert_tokens_accounted

#: Games per seat count in the suite (1,000 in all).
GAMES = {2: 400, 3: 320, 4: 280}


@pytest.mark.parametrize("seats", sorted(GAMES))
def test_bot_games_keep_every_promise(seats: int) -> None:
    def check_end(final: dict[str, Any]) -> None:
        assert all(r in (-1.0, 0.0, 1.0) for r in ENGINE.returns(final))

    play_many_checked_games(
        ENGINE,
        seats=seats,
        games=GAMES[seats],
        max_heuristic_seats=1,
        heuristic=heuristic_action,
        check_places=assert_tokens_accounted,
        check_end=check_end,
    )
