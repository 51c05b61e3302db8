"""Bot-against-bot games for the bots' tests and the tavern benchmark."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from minigames.bots import Heuristics, SearchSettings, Strength, choose_action
from westernroses.protocol import GameEngine


def play_match(
    engine: GameEngine[Any],
    strengths: Mapping[int, Strength],
    *,
    seed: int,
    settings: SearchSettings | None = None,
    heuristics: Heuristics | None = None,
    time_limit: float | None = None,
    last: int | None = None,
    options: Mapping[str, Any] | None = None,
    config: Mapping[str, Any] | None = None,
) -> list[float]:
    """Play one game, seat ``i`` at ``strengths[i]``; the engine's returns.

    When several seats are waited on at once the order is drawn from ``seed``, except that seat
    ``last`` (if given) always acts last (she would see the others' face-down choices if the
    bots peeked). ``time_limit=None``: each search is bounded by its simulations only, so the
    whole game is a pure function of ``seed``.
    """
    order = random.Random(seed)
    state = engine.new_game(seats=len(strengths), seed=seed, options=options, config=config)
    move = 0
    while not engine.is_terminal(state):
        waiting = list(engine.waiting_on(state))
        if last in waiting and len(waiting) > 1:
            waiting.remove(last)
        seat = waiting[order.randrange(len(waiting))]
        action = choose_action(
            engine,
            state,
            seat,
            strengths[int(seat)],
            seed * 10_000 + move,
            time_limit,
            settings=settings,
            heuristics=heuristics,
        )
        state, _ = engine.apply(state, seat, action)
        move += 1
    return engine.returns(state)


def win_rate(
    engine: GameEngine[Any],
    strength: Strength,
    against: Strength,
    *,
    games: int,
    first_seed: int = 0,
    **kwargs: Any,
) -> tuple[float, float]:
    """``strength``'s share of wins and of draws over ``games`` two-seat games against
    ``against``, changing seats every game."""
    wins = draws = 0
    for n in range(games):
        me = n % 2
        strengths: dict[int, Strength] = {me: strength, 1 - me: against}
        returns = play_match(engine, strengths, seed=first_seed + n, **kwargs)
        wins += returns[me] > 0
        draws += returns[me] == 0
    return wins / games, draws / games
