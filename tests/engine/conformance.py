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
* hidden choices stay hidden (:func:`check_hidden_choices`): of the acting seat's legal
  actions, those with the same ``public_action`` are applied each, and every other seat and a
  spectator must get byte-identical views, legal actions, ``waiting_on`` and events from them;
  an action naming a card another seat already sees (a known card played face down) is
  always among those compared, against one naming a card she does not see;
* every legal action (and every ``timeout_action``) fits its type's shape in
  ``engine.action_shapes()`` unchanged, and the same action with a key its type does not
  declare is refused (:func:`check_shapes`), as is a type the game does not have: the table
  core, which checks shapes before the engine, never refuses a move the engine offers;
* the game ends within ``max_steps`` with returns for every seat.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import orjson

from westernroses.action_shapes import ShapeError, check
from westernroses.protocol import GameEngine, IllegalAction, Seat, event_visible, replay


def canonical(value: Any) -> str:
    """``value`` as one JSON text: keys sorted, no spaces, UTF-8 as itself. orjson, not
    ``json.dumps``: the many-game properties write a view, a state or events at every step, and
    orjson plays them in a sixth less CPU than the standard library's encoder did."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()


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


#: At most this many actions of one public face are applied and compared at a checked step,
#: and at most :data:`HIDDEN_APPLIES` in all: enough to hold a known card against unknown
#: ones and two unknown ones against each other, cheap enough for every checked step.
HIDDEN_GROUP = 3
HIDDEN_APPLIES = 8


def seen_by(engine: GameEngine[Any], state: Any, events: list[Any], seat: Seat | None) -> str:
    """Everything ``seat`` (None: a spectator) gets of ``state`` and the ``events`` that led to
    it, as one string: her view, her legal actions, whom the game waits on, her events."""
    return canonical(
        {
            "view": engine.view(state, seat),
            "legal": [] if seat is None else engine.legal_actions(state, seat),
            "waiting": list(engine.waiting_on(state)),
            "events": [ev for ev in events if event_visible(ev, seat)],
        }
    )


def _names_seen(action: Mapping[str, Any], texts: Iterable[str]) -> bool:
    """Whether ``action`` names something (a card id) another seat already sees."""
    values = [v for k, v in action.items() if k != "type" and isinstance(v, str)]
    return bool(values) and any(written_in(text, values) for text in texts)


def check_hidden_choices(
    engine: GameEngine[Any],
    state: Any,
    seat: Seat,
    actions: list[dict[str, Any]],
    others: list[Seat | None],
    rng: random.Random,
    stats: Counter[str] | None = None,
) -> None:
    """Of ``seat``'s legal ``actions``, those with one public face must look alike to
    ``others``: apply a few of each face (one naming a card some other seat sees first, when
    there is one) and compare what each other seat and spectator gets."""
    faces: dict[str, list[dict[str, Any]]] = {}
    for action in actions:
        faces.setdefault(canonical(engine.public_action(state, seat, action)), []).append(action)
    groups = [group for group in faces.values() if len(group) > 1]
    if not groups:
        return
    before = [canonical(engine.view(state, other)) for other in others]
    budget = HIDDEN_APPLIES
    for group in groups:
        known = [a for a in group if _names_seen(a, before)]
        picked = [rng.choice(known)] if known else []
        rest = [a for a in group if a not in picked]
        picked += rng.sample(rest, min(len(rest), HIDDEN_GROUP - len(picked)))
        picked = picked[:budget]
        if len(picked) < 2:
            break
        budget -= len(picked)
        first = picked[0]
        state_a, events_a = engine.apply(state, seat, first)
        seen_a = [seen_by(engine, state_a, events_a, other) for other in others]
        for action in picked[1:]:
            state_b, events_b = engine.apply(state, seat, action)
            for other, a_text in zip(others, seen_a, strict=True):
                b_text = seen_by(engine, state_b, events_b, other)
                assert a_text == b_text, (
                    f"seat {other!r} can tell {first!r} from {action!r} played by seat {seat!r}, "
                    f"though both show the face {engine.public_action(state, seat, first)!r}"
                )
        if stats is not None:
            stats["compared"] += len(picked) - 1
            stats["known_compared"] += int(first in known and any(a not in known for a in picked))


#: A key no game's action declares (:func:`check_shapes` adds it to a legal action).
UNDECLARED = "__undeclared__"


def check_shapes(
    engine: GameEngine[Any], actions: Iterable[Mapping[str, Any]], rng: random.Random
) -> None:
    """Every one of ``actions`` (legal ones) fits its type's shape and comes back unchanged;
    one of them with a key its type does not declare is refused, naming the key, and so is a
    type the game does not have."""
    known = engine.action_shapes()
    assert known is engine.action_shapes(), "action_shapes() is one mapping, the same each call"
    actions = list(actions)
    for action in actions:
        try:
            cleaned = check(action, known)
        except ShapeError as exc:
            raise AssertionError(
                f"the legal action {action!r} does not fit its shape: {exc}"
            ) from None
        assert cleaned == dict(action), f"the shape check changed {action!r} into {cleaned!r}"
    if not actions:
        return
    extra = {**rng.choice(actions), UNDECLARED: 1}
    try:
        check(extra, known)
    except ShapeError as exc:
        assert UNDECLARED in exc.fields and UNDECLARED in str(exc), str(exc)
    else:
        raise AssertionError(f"a key no shape declares was accepted: {extra!r}")
    try:
        check({"type": "__not_an_action__"}, known)
    except ShapeError:
        pass
    else:
        raise AssertionError("an action type the game does not have fits its shapes")


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
    stats: Counter[str] | None = None,
) -> Any:
    """Play one game with uniformly random legal actions, checking the protocol at every step
    (the expensive checks every ``check_every`` steps). Returns the final state; ``stats``, if
    given, counts the hidden-choice comparisons made (``compared``; ``known_compared``: of a
    card another seat sees against one she does not), so a game's tests can show the check
    met its hidden choices."""
    rng = random.Random(seed)
    checks = random.Random(seed + 1)  # its own source: the checks never change the game played
    shaped = random.Random(seed + 2)  # and the shape checks none of the others'
    initial = engine.new_game(seats=seats, seed=seed, options=options, config=config)
    state = initial
    log: list[tuple[Seat, dict[str, Any]]] = []
    everyone: list[Seat | None] = [*range(seats), None]
    for step in range(max_steps):
        assert engine.from_json(orjson.loads(canonical(engine.to_json(state)))) is not None
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
            for other in waiting:  # a timeout goes through the table core's shape check too
                timeout = engine.timeout_action(state, other)
                if timeout is not None:
                    check_shapes(engine, [timeout], shaped)
        seat = waiting[rng.randrange(len(waiting))]
        actions = engine.legal_actions(state, seat)
        assert actions, f"seat {seat!r} is waited on but has no legal action"
        check_shapes(engine, actions, shaped)
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
            others: list[Seat | None] = [s for s in everyone if s != seat]
            check_hidden_choices(engine, state, seat, actions, others, checks, stats)
            assert canonical(engine.to_json(state)) == before
        action = choose(rng, actions) if choose else rng.choice(actions)
        assert str(engine.describe_action(state, seat, action))
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


def play_shaped_game(
    engine: GameEngine[Any],
    *,
    seats: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    config: Mapping[str, Any] | None = None,
    max_steps: int = 5000,
) -> Any:
    """Play one game with uniformly random legal actions, checking only the action shapes
    (:func:`check_shapes`) of every seat waited on at every step: cheap enough for many
    games where :func:`play_random_game` affords a few. Returns the final state."""
    rng = random.Random(seed)
    shaped = random.Random(seed + 2)
    state = engine.new_game(seats=seats, seed=seed, options=options, config=config)
    for _ in range(max_steps):
        if engine.is_terminal(state):
            return state
        waiting = engine.waiting_on(state)
        for seat in waiting:
            check_shapes(engine, engine.legal_actions(state, seat), shaped)
        seat = waiting[rng.randrange(len(waiting))]
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    raise AssertionError(f"the game did not end within {max_steps} steps")
