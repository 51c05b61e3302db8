"""Engine states kept in the process after a move, so the next move on the same table skips
decoding its state.

A battle's move spent more time building the engine state from its stored JSON (objects for
every combatant, card and effect) than the engine spent on the move itself. The state a move
produced is exactly what the next move starts from, and a web worker often serves both, so
the core keeps it here (the game's ``keep`` hook says what to keep) and the game's ``load``
takes it back (:func:`kept`) when the row it read is at the same version.

Why this is safe:

* Engine states are never changed in place (the protocol's ``apply`` returns a new one), so
  one kept state can start any number of moves.
* The key is the row (model, database, primary key, creation time: a row that reuses a key
  elsewhere is another row), its version and the database's epoch (:mod:`tables.epoch`).
  Every change of a table's state adds one to its version, so a row at the version kept holds
  the state kept; after a PostgreSQL crash that may have lost a move (and lets its version be
  written again) the epoch is new, so nothing kept before it is found.
* A state is kept only once its write is committed (``on_commit``): a move rolled back with
  its transaction leaves nothing behind.
* Each process keeps its own few (:data:`MAX_KEPT`, the oldest dropped first); a miss only
  costs the decoding it would have cost anyway.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Any, Final

from django.db import router

from . import epoch

#: States kept per process (a few tables played at once by the users of one worker).
MAX_KEPT: Final = 64

_KEPT: OrderedDict[Hashable, Any] = OrderedDict()


def key_of(table: Any) -> Hashable:
    """The key of ``table`` at its version now (taken before anything else changes it)."""
    return (
        table._meta.label_lower,
        router.db_for_write(type(table)),
        table.pk,
        table.created_at,
        int(table.version),
        epoch.current(),
    )


def keep(key: Hashable, state: Any) -> None:
    """Keep ``state`` under ``key`` (:func:`key_of`)."""
    _KEPT[key] = state
    _KEPT.move_to_end(key)
    while len(_KEPT) > MAX_KEPT:
        _KEPT.popitem(last=False)


def kept(table: Any) -> Any | None:
    """The state kept for ``table`` at the version it was read at, or None."""
    return _KEPT.get(key_of(table))


def forget_all() -> None:
    """Drop every kept state (tests that compare with and without)."""
    _KEPT.clear()
