"""Bot-against-bot games with the protocol's promises checked, for the many-games properties
(issue 12, "Done when": thousands of bot-vs-bot games of each game and seat count).

:func:`play_checked_bot_game` plays one game between cheap bots (the random bot, and the
engine's greedy heuristic on a world re-dealt for its seat, as the heuristic bot plays) and
checks, as the game goes:

* every token or card is in exactly one place, after every move (``check_places``);
* no legal move is refused: the move played applies, and every other legal move of the acting
  seat applies too on the sampled steps;
* no illegal move applies: on the sampled steps a seat not waited on is refused the acting
  seat's move, and a legal move with a field it does not have is refused, both without touching
  the state;
* no seat's view (nor a spectator's) holds anything hidden from it, nor the seed, on the
  sampled steps, and no event shows a seat what is hidden from her;
* replaying the log from the first state gives the final state byte for byte.

The cheap checks run at every step, the dear ones every ``check_every`` steps (from a random
offset, so every kind of step is sampled over many games). The suite's shared, slower checker
is tests/engine/conformance.py (one random game with every check at every step).
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence
from typing import Any, Literal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.conformance import assert_no_leak, canonical, written_in
from westernroses.protocol import GameEngine, IllegalAction, Seat, event_visible, replay

Bot = Literal["random", "heuristic"]
Heuristic = Callable[[Any, int, random.Random], dict[str, Any]]


def _refused(
    engine: GameEngine[Any], state: Any, seat: Seat, action: dict[str, Any], before: str
) -> None:
    """``action`` is refused with a reason and ``state`` is still ``before`` (its JSON, taken
    once per sampled step: every move tried there is applied to the same state)."""
    try:
        engine.apply(state, seat, action)
    except IllegalAction as refusal:
        assert str(refusal), "a refusal says why"
    else:
        raise AssertionError(f"seat {seat!r} was allowed an illegal move {action!r}")
    assert canonical(engine.to_json(state)) == before, "a move tried changed the state"


def play_checked_bot_game(
    engine: GameEngine[Any],
    *,
    seats: int,
    seed: int,
    bots: Sequence[Bot],
    heuristic: Heuristic,
    check_places: Callable[[Any], None],
    check_every: int = 8,
    max_steps: int = 5000,
) -> Any:
    """Play one game, seat ``i`` played by ``bots[i]``, checking as the module says; the final
    state."""
    rng = random.Random(seed)
    initial = state = engine.new_game(seats=seats, seed=seed)
    check_places(state)
    viewers: list[Seat | None] = [*range(seats), None]
    log: list[tuple[Seat, dict[str, Any]]] = []
    offset = rng.randrange(check_every)
    for step in range(max_steps):
        if engine.is_terminal(state):
            break
        waiting = engine.waiting_on(state)
        seat = waiting[rng.randrange(len(waiting))]
        actions = engine.legal_actions(state, seat)
        assert actions, f"seat {seat!r} is waited on but has no legal move"
        if bots[int(seat)] == "heuristic" and len(actions) > 1:
            world = engine.determinize(state, seat, rng.randrange(2**53))
            action = heuristic(world, int(seat), rng)
            assert action in actions, f"the heuristic chose an illegal move {action!r}"
        else:
            action = actions[rng.randrange(len(actions))]
        dear = step % check_every == offset
        if dear:
            for viewer in viewers:
                assert_no_leak(engine, state, viewer)
            before = canonical(engine.to_json(state))
            for other in actions:
                engine.apply(state, seat, other)  # raises if a legal move is refused
            _refused(engine, state, seat, {**action, "__unknown_field__": 1}, before)
            for other_seat in range(seats):
                if other_seat not in waiting:
                    _refused(engine, state, other_seat, action, before)
        state, events = engine.apply(state, seat, action)
        check_places(state)
        if dear:
            for viewer in viewers:
                hidden = engine.hidden_from(state, viewer)
                for ev in events:
                    if event_visible(ev, viewer):
                        assert not written_in(canonical(ev), hidden), (viewer, ev)
        log.append((seat, action))
    else:
        raise AssertionError(f"the game did not end within {max_steps} moves")
    assert engine.waiting_on(state) == ()
    assert len(engine.returns(state)) == seats
    replayed = replay(engine, initial, log)
    assert canonical(engine.to_json(replayed)) == canonical(engine.to_json(state))
    return state


#: ``WR_MANY_GAMES`` multiplies every game count, for a longer run outside the suite.
SCALE = float(os.environ.get("WR_MANY_GAMES", "1"))


def play_many_checked_games(
    engine: GameEngine[Any],
    *,
    seats: int,
    games: int,
    max_heuristic_seats: int,
    heuristic: Heuristic,
    check_places: Callable[[Any], None],
    check_end: Callable[[Any], None],
) -> None:
    """``games`` (times :data:`SCALE`) checked games at ``seats`` seats, hypothesis drawing
    each seed and which seats (at most ``max_heuristic_seats``) play the heuristic, the others
    the random bot; ``check_end`` judges each final state. The settings are constants, so
    every xdist worker draws the same games."""

    @settings(
        max_examples=int(games * SCALE),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(
        seed=st.integers(0, 2**53 - 1),
        heuristic_seats=st.sets(st.integers(0, seats - 1), max_size=max_heuristic_seats),
    )
    def one_game(seed: int, heuristic_seats: set[int]) -> None:
        bots: list[Bot] = ["heuristic" if s in heuristic_seats else "random" for s in range(seats)]
        final = play_checked_bot_game(
            engine,
            seats=seats,
            seed=seed,
            bots=bots,
            heuristic=heuristic,
            check_places=check_places,
        )
        assert engine.is_terminal(final)
        check_end(final)

    one_game()
