"""A check for the engines' hand-written state copies (RSO's and DBS's ``clone``)."""

from __future__ import annotations

from typing import Any


def shared_containers(a: Any, b: Any, path: str) -> list[str]:
    """Paths at which ``a`` and ``b`` hold one and the same dict or list: what a move applied
    to one would change in the other."""
    if not isinstance(a, (dict, list)):
        return []
    if a is b:
        return [path]
    if isinstance(a, dict):
        return [p for k in a for p in shared_containers(a[k], b[k], f"{path}.{k}")]
    pairs = zip(a, b, strict=True)
    return [p for i, (x, y) in enumerate(pairs) for p in shared_containers(x, y, f"{path}[{i}]")]


def check_every_step(engine: Any, clone: Any, shared_keys: Any, seed: int) -> int:
    """Plays a random game of ``engine`` from ``seed``; at every step ``clone(state)`` must
    equal the state, keep its keys in order and share no container outside ``shared_keys``.
    Returns the number of steps played."""
    import random

    rng = random.Random(seed)
    state = engine.new_game(seats=2, seed=seed)
    steps = 0
    while not engine.is_terminal(state):
        copy = clone(state)
        assert copy == state and list(copy) == list(state)
        shared = [
            p
            for key, value in state.items()
            if key not in shared_keys
            for p in shared_containers(value, copy[key], key)
        ]
        assert shared == [], f"step {steps}: {shared}"
        seat = rng.choice(engine.waiting_on(state))
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        steps += 1
    return steps


def cards_after_games(engine: Any, cards: Any, games: int = 3) -> dict[str, str]:
    """The bundled ``cards()`` (each card's repr) after ``games`` random games of ``engine``:
    equal to before when no game changed them."""
    import random

    rng = random.Random(7)
    for seed in range(games):
        state = engine.new_game(seats=2, seed=seed)
        while not engine.is_terminal(state):
            seat = rng.choice(engine.waiting_on(state))
            state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return {n: repr(c) for n, c in cards().items()}
