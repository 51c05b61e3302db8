"""Bot-against-bot RAIGO games of 2, 3 and 4 seats, checked as they are played
(tests/engine/many_games.py): every token in exactly one place after every move (the 2-player
set has no Eights and one token out of play, rulebook "Setup for 2 players"), no legal move
refused, no illegal one applied, no view or event showing a seat a token hidden from her (the
towers face down, the Inner Tokens, Raizan: rulebook "Hidden information"), no re-dealt world
without a move for a seat waited on, and the log replays to the same state byte for byte.

Hypothesis draws the seed, which seat plays the greedy heuristic (the others the random bot)
and every house rule: 300 games in the suite, 3,000 in ``make soak``.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from minigames.engines.raigo import ENGINE
from tests.engine.many_games import Tally, house_rules, play_checked_game, play_many
from tests.engine.raigo.helpers import assert_tokens_accounted


def stage(state: dict[str, Any]) -> str:
    """The part of a turn a state is in (the tally's phases), or the question asked."""
    prompt = state.get("prompt")
    return f"prompt:{prompt['kind']}" if prompt else f"turn:{state['turn']['stage']}"


def test_bot_games_keep_every_promise() -> None:
    tally = Tally()
    seat_counts: set[int] = set()

    def one_game(seed: int, seats: int, heuristic_seat: int, options: dict[str, Any]) -> None:
        bots = ["random"] * seats
        if heuristic_seat < seats:
            bots[heuristic_seat] = "heuristic"
        final = play_checked_game(
            ENGINE,
            seed=seed,
            bots=bots,
            check_places=assert_tokens_accounted,
            tally=tally,
            options=options,
            phase=stage,
        )
        assert all(r in (-1.0, 0.0, 1.0) for r in ENGINE.returns(final))
        seat_counts.add(seats)

    games = play_many(
        300,
        one_game,
        seed=st.integers(0, 2**53 - 1),
        seats=st.sampled_from([2, 3, 4]),
        heuristic_seat=st.integers(0, 4),
        options=house_rules(ENGINE),
    )
    assert tally.games == games and seat_counts == {2, 3, 4}, (tally.games, seat_counts)
    assert tally.probes > 3 * games and tally.all_moves_tried > games, tally
    assert tally.outcomes.get("decided", 0) > games // 2, tally.outcomes
