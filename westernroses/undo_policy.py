"""When a move may be taken back: Board Game Arena's undo policy, written once for every engine.

A seat may take back a move only while it taught nobody anything and left chance untouched:
no random draw was made (the state's seeded random source, ``state["rng"]``, is where it was:
a die, a shuffle, a draw from a shuffled pile all move it) and nothing hidden was revealed (no
item hidden from any seat, or from a spectator, before the move is visible to it after; no
event of the move is private to some seats). Taking back such a move gives nobody a second
try at chance and nobody an unfair look.

An engine takes part by giving ``is_undoable(before, seat, action, after, events)`` (an
optional addition to :mod:`westernroses.protocol`; an engine without it never undoes): the
tavern's four call :func:`nothing_drawn_or_revealed`, and may refuse more of their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from westernroses.protocol import Event, GameEngine


def nothing_drawn_or_revealed(
    engine: GameEngine[Any], before: Any, after: Any, events: Sequence[Event]
) -> bool:
    """Whether the move from ``before`` to ``after`` (with ``events``) drew nothing at random
    and revealed nothing hidden to any seat or spectator (see the module docstring)."""
    if engine.is_terminal(after):
        return False  # a finished game is settled (stakes, results): never taken back
    if engine.to_json(before).get("rng") != engine.to_json(after).get("rng"):
        return False
    if any(ev.get("visible_to") is not None or ev.get("hidden_from") for ev in events):
        return False
    seats: list[Any] = [*range(len(engine.returns(before))), None]
    return all(not (engine.hidden_from(before, s) - engine.hidden_from(after, s)) for s in seats)
