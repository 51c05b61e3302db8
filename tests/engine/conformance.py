"""The protocol's promises (westernroses/protocol.py), checked over random games of any engine.

Each game's tests call :func:`play_random_game` from a hypothesis test (the seed and the seat
count drawn by hypothesis), so every engine is held to the same promises:

* every legal action applies; an action that is not legal is refused with a reason and leaves
  the state untouched; ``apply`` never mutates its input;
* JSON round trip of every state, and byte-for-byte replay of the whole log;
* no seat's view (nor a spectator's) holds an item hidden from it, nor the seed;
* ``waiting_on`` and each seat's own view and legal actions survive ``determinize`` for that
  seat (the pause depends on public information; the search bot's resampling is consistent),
  and in every world ``determinize`` deals, each seat waited on has a legal move (the search
  bot never meets a world in which nobody can act);
* the game ends within ``max_steps`` with returns for every seat.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from westernroses.protocol import GameEngine, IllegalAction, Seat, event_visible, replay


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _plain(item: Any) -> bool:
    """A string JSON writes as itself between quotes (no quote, backslash or control char)."""
    return isinstance(item, str) and item.isprintable() and '"' not in item and "\\" not in item


def written_in(text: str, items: Iterable[Any]) -> list[Any]:
    """The ``items`` whose JSON (:func:`canonical`) stands in ``text``: the same answer as
    ``canonical(item) in text`` item by item, in one pass over ``text`` for the plain strings
    (engine ids), which is what makes the many-game leak checks affordable at every step.

    Why it is the same: a plain string ``x`` has no quote, so ``"x"`` stands in ``text``
    exactly when two quotes that follow each other in ``text`` enclose ``x``. Whether every
    item is plain is asked once, of the items joined (a string is printable and free of
    quotes and backslashes exactly when each of its parts is), not item by item."""
    items = list(items)
    try:
        joined = "".join(items)
    except TypeError:  # not all strings: item by item below
        pass
    else:  # the usual case, all plain (a string is plain when every character is): one set
        if _plain(joined) and items:
            quoted = set(text.split('"')[1:-1])
            return [item for item in items if item in quoted]
    found: list[Any] = []
    between: set[str] | None = None
    for item in items:
        if _plain(item):
            if between is None:
                between = set(text.split('"')[1:-1])
            if item in between:
                found.append(item)
        elif canonical(item) in text:
            found.append(item)
    return found


def assert_no_leak(engine: GameEngine[Any], state: Any, seat: Seat | None) -> None:
    """No id hidden from ``seat`` appears in its view; the seed never does."""
    text = canonical(engine.view(state, seat))
    shown = written_in(text, engine.hidden_from(state, seat))
    assert not shown, f"seat {seat!r} can see hidden {shown!r}"
    assert '"seed"' not in text, f"seat {seat!r} can see the random seed"


def play_random_game(
    engine: GameEngine[Any],
    *,
    seats: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    config: Mapping[str, Any] | None = None,
    max_steps: int = 5000,
    choose: Callable[[random.Random, list[dict[str, Any]]], dict[str, Any]] | None = None,
    check_every: int = 1,
) -> Any:
    """Play one game with uniformly random legal actions, checking the protocol at every step
    (the expensive checks every ``check_every`` steps). Returns the final state."""
    rng = random.Random(seed)
    initial = engine.new_game(seats=seats, seed=seed, options=options, config=config)
    state = initial
    log: list[tuple[Seat, dict[str, Any]]] = []
    everyone: list[Seat | None] = [*range(seats), None]
    for step in range(max_steps):
        assert engine.from_json(json.loads(canonical(engine.to_json(state)))) is not None
        assert canonical(engine.to_json(engine.from_json(engine.to_json(state)))) == canonical(
            engine.to_json(state)
        )
        if engine.is_terminal(state):
            assert engine.waiting_on(state) == ()
            returns = engine.returns(state)
            assert len(returns) == seats
            assert engine.result(state)
            break
        waiting = engine.waiting_on(state)
        assert waiting, "a running game waits on somebody"
        if step % check_every == 0:
            for seat in everyone:
                assert_no_leak(engine, state, seat)
            for seat in range(seats):
                det = engine.determinize(state, seat, rng.randrange(2**53))
                assert engine.waiting_on(det) == waiting
                assert canonical(engine.view(det, seat)) == canonical(engine.view(state, seat))
                assert canonical(engine.legal_actions(det, seat)) == canonical(
                    engine.legal_actions(state, seat)
                )
                for other in waiting:
                    assert engine.legal_actions(det, other), (
                        f"determinize for seat {seat!r} dealt a world in which seat {other!r}, "
                        "waited on, has no legal move"
                    )
        seat = waiting[rng.randrange(len(waiting))]
        actions = engine.legal_actions(state, seat)
        assert actions, f"seat {seat!r} is waited on but has no legal action"
        for other in range(seats):
            if other not in waiting:
                assert engine.legal_actions(state, other) == []
        before = canonical(engine.to_json(state))
        if step % check_every == 0:
            bogus = {"type": "__not_an_action__"}
            try:
                engine.apply(state, seat, bogus)
            except IllegalAction as exc:
                assert str(exc)
            else:
                raise AssertionError("an unknown action type was accepted")
            assert canonical(engine.to_json(state)) == before
        action = choose(rng, actions) if choose else rng.choice(actions)
        assert engine.describe_action(state, seat, action)
        snapshot = copy.deepcopy(action)
        state, events = engine.apply(state, seat, action)
        assert action == snapshot, "apply mutated the action"
        for ev in events:
            assert isinstance(ev.get("text"), str) and ev["text"], ev
            for viewer in everyone:
                if not event_visible(ev, viewer):
                    continue
                shown = written_in(canonical(ev), engine.hidden_from(state, viewer))
                assert not shown, f"event shows {viewer!r} hidden {shown!r}"
        log.append((seat, action))
    else:
        raise AssertionError(f"the game did not end within {max_steps} steps")
    replayed = replay(engine, initial, log)
    assert canonical(engine.to_json(replayed)) == canonical(engine.to_json(state))
    return state
