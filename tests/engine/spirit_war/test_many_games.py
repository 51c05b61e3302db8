"""Bot-against-bot Spirit Wars of 2 to 6 seats, checked as they are played
(tests/engine/many_games.py): every card in exactly one place after every move (decks, hands,
Abyss, History, the battle's slots, the Mini Spirit War's piles: rules "Introduction to the
Spirit War decks"), no legal move refused, no illegal one applied, no view or event showing a
seat a card or a choice hidden from her (hands, face-down summons and Support cards, the deck
orders), no re-dealt world without a move for a seat waited on, and the log replays to the same
state byte for byte.

Hypothesis draws the seed, which seats (at most two) play the greedy heuristic (the others the
random bot) and every house rule that is a choice (the card counts stay at their defaults: they
only lengthen the games): 300 games in the suite, 3,000 in ``make soak``.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from minigames.engines.spirit_war import ENGINE
from minigames.engines.spirit_war.piles import locations
from tests.engine.many_games import Tally, house_rules, play_checked_game, play_many


def check_places(state: dict[str, Any]) -> None:
    """Every card in exactly one place (``locations`` raises on a card in two), none lost."""
    assert sorted(locations(state)) == sorted(state["cards"]), "a card is lost"


def test_bot_games_keep_every_promise() -> None:
    tally = Tally()
    seat_counts: set[int] = set()

    def one_game(seed: int, seats: int, heuristic: set[int], options: dict[str, Any]) -> None:
        bots = ["heuristic" if s in heuristic else "random" for s in range(seats)]
        final = play_checked_game(
            ENGINE,
            seed=seed,
            bots=bots,
            check_places=check_places,
            tally=tally,
            options=options,
        )
        assert ENGINE.returns(final).count(1.0) <= 1  # one Spirit King at most
        seat_counts.add(seats)

    games = play_many(
        300,
        one_game,
        seed=st.integers(0, 2**53 - 1),
        seats=st.integers(2, 6),
        heuristic=st.sets(st.integers(0, 5), max_size=2),
        options=house_rules(ENGINE, numbers=False),
    )
    assert tally.games == games and seat_counts == {2, 3, 4, 5, 6}, (tally.games, seat_counts)
    assert tally.probes > 3 * games and tally.all_moves_tried > games, tally
    # the probes reached every part of the game: battles, Support cards, discards, the end
    assert {"attack", "summon", "support", "discard"} <= tally.phases, tally.phases
