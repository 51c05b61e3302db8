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
from collections.abc import Hashable, Mapping
from typing import Any, Final, NamedTuple

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
    """Drop every kept state, row and seat (tests that compare with and without)."""
    _KEPT.clear()
    _ROWS.clear()
    _SEATS.clear()


# ----------------------------------------------------------------------------- rows
# A game that opts in (``TableGame.keep_rows``) also keeps the row its last move wrote, and
# what the last read of the row said about each user's seat (``seat_columns``), so that the
# next move on the table can skip reading the row (``tables.services``): its one write then
# checks, in the same statement, that the row is still that one (id, creation time, version)
# and that the user's seat columns still read the same. Nothing kept is trusted unchecked.


class KeptRow(NamedTuple):
    """A row's columns (attribute names and values, the initial snapshot left out)."""

    names: tuple[str, ...]
    values: tuple[Any, ...]


_ROWS: OrderedDict[Hashable, KeptRow] = OrderedDict()
_SEATS: OrderedDict[Hashable, dict[str, Any]] = OrderedDict()


def _row_key(model: Any, pk: Any, version: int) -> Hashable:
    return (model._meta.label_lower, router.db_for_write(model), pk, version, epoch.current())


def _put(store: OrderedDict[Hashable, Any], key: Hashable, value: Any) -> None:
    store[key] = value
    store.move_to_end(key)
    while len(store) > MAX_KEPT:
        store.popitem(last=False)


def keep_row(table: Any, names: tuple[str, ...]) -> None:
    """Keep ``table``'s columns ``names`` at its version now (call once it is committed)."""
    row = KeptRow(names, tuple(getattr(table, name) for name in names))
    _put(_ROWS, _row_key(type(table), table.pk, int(table.version)), row)


def kept_row(model: Any, pk: Any, version: int) -> Any | None:
    """A fresh instance of the row ``pk`` as a move of this process left it at ``version``,
    or None."""
    db = router.db_for_write(model)
    row = _ROWS.get(_row_key(model, pk, version))
    return None if row is None else model.from_db(db, row.names, row.values)


def keep_seat(table: Any, user_id: Any, columns: Mapping[str, Any]) -> None:
    """Keep what a read of ``table`` said about user ``user_id``'s seat."""
    key = (type(table)._meta.label_lower, router.db_for_write(type(table)), table.pk, user_id)
    _put(_SEATS, key, dict(columns))


def kept_seat(model: Any, pk: Any, user_id: Any) -> dict[str, Any] | None:
    """What the last read of row ``pk`` in this process said about ``user_id``'s seat."""
    return _SEATS.get((model._meta.label_lower, router.db_for_write(model), pk, user_id))
