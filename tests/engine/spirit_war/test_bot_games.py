"""A thousand bot-against-bot Spirit Wars, checked as they are played (issue 12, "Done when").

Each hypothesis example is one game of 2 to 6 seats between random and heuristic bots
(hypothesis draws the seed and which seats play the greedy heuristic); the checks are
tests/engine/checked_games.py's: every card in exactly one place after every move (decks, hands,
Abyss, History, the battle's slots, the Mini Spirit War's piles: rules "Preparation" and
"The Abyss and History"), no legal move refused, no illegal one applied, no view or event showing
a seat a card hidden from her (hands, face-down summons and Support cards, the deck orders), the
log replays to the same state byte for byte.

:data:`GAMES` per seat count keeps the module within about 90 s on one core (measured: 2 seats
~45 ms a game, 6 seats ~140 ms; the whole module 75 s of CPU on 23 November 2026);
``WR_MANY_GAMES`` multiplies it for a longer run outside the suite.
"""

from __future__ import annotations

from typing import Any

import pytest

from minigames.engines.spirit_war import ENGINE
from minigames.engines.spirit_war.heuristic import heuristic_action
from minigames.engines.spirit_war.piles import locations
from tests.engine.checked_games import play_many_checked_games

#: Games per seat count in the suite (1,000 in all).
GAMES = {2: 280, 3: 200, 4: 200, 5: 160, 6: 160}


def check_places(state: dict[str, Any]) -> None:
    """Every card in exactly one place (``locations`` raises on a card in two), none lost."""
    assert sorted(locations(state)) == sorted(state["cards"]), "a card is lost"


@pytest.mark.parametrize("seats", sorted(GAMES))
def test_bot_games_keep_every_promise(seats: int) -> None:
    def check_end(final: dict[str, Any]) -> None:
        assert ENGINE.returns(final).count(1.0) <= 1

    play_many_checked_games(
        ENGINE,
        seats=seats,
        games=GAMES[seats],
        max_heuristic_seats=2,
        heuristic=heuristic_action,
        check_places=check_places,
        check_end=check_end,
    )
