"""The one store of game tables: load a row, save a move, read a head, keep a state.

Every read and write of a table on the hot paths goes through here, so the speed-ups sit
behind one interface instead of being threaded through the move as separate hooks:

* **load** (:func:`load_row`, :func:`load_values`): the table row read for a move or a poll,
  its SQL compiled once per game and viewer (:mod:`tables.compiled`);
* **save** (:func:`tables.services.log_and_save`, which moves the **head** with its write:
  :func:`publish`, :func:`publishing`);
* **head** (:func:`head`, :func:`remember_head`): the unchanged poll answered from Redis
  (:mod:`tables.heads`, :mod:`tables.poll_auth`);
* **kept state** (:func:`kept_state`, :func:`keep_state`, :func:`kept_row`, ...): the engine
  state and the row a move left, kept in the process for the next move
  (:mod:`tables.kept_states`), keyed by the database's epoch (:mod:`tables.epoch`);
* the **view cache** (:func:`cached`, :func:`cache`): a rendered view kept per version.

``settings.TABLE_FAST_PATHS`` (default on) turns every speed-up off at once: each read asks
the database through the plain ORM, nothing is kept or taken from a process or from Redis, and
a move is always worked out on a fresh read. The answers are the same either way
(``tests/tables/test_store.py`` plays the same games both ways and compares every answer);
only the number of round trips differs. One thing stays on: a write still moves the table's
head in Redis, since other processes (with the speed-ups on) may answer polls from it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

from django.conf import settings
from django.db.models import QuerySet

from apibase.redis_down import soft_get, soft_set

from . import compiled, epoch, heads, kept_states

Head = heads.Head


def fast() -> bool:
    """Whether the speed-ups are on (``settings.TABLE_FAST_PATHS``)."""
    return bool(getattr(settings, "TABLE_FAST_PATHS", True))


# --- load ----------------------------------------------------------------------------------


def load_row(key: Hashable, build: Callable[[int], QuerySet[Any]], pk: int) -> Any | None:
    """The first model instance of ``build(pk)``, or None (compiled once per ``key``)."""
    if fast():
        return compiled.model_row(key, build, pk)
    return next(iter(build(pk)), None)


def load_values(key: Hashable, build: Callable[[int], QuerySet[Any]], pk: int) -> Any | None:
    """The first row of ``build(pk)`` (a ``values_list``), or None (compiled once per ``key``)."""
    if fast():
        return compiled.values_row(key, build, pk)
    return next(iter(build(pk)), None)


def seat_check(
    key: Hashable, build: Callable[[int], QuerySet[Any]], pk: int
) -> tuple[str, list[Any]] | None:
    """The SQL a write on a kept row checks the user's seat with (fast paths only)."""
    return compiled.seat_check(key, build, pk) if fast() else None


# --- head ----------------------------------------------------------------------------------


def head(label: str, pk: Any, user_id: int) -> Head | None:
    """The cached head of table ``pk`` with ``user_id``'s grant under its scope, or None (ask
    the database; always None with the fast paths off)."""
    return heads.poll_head(label, pk, user_id) if fast() else None


def request_head(found: Head | None) -> Head | None:
    """A head the poll's authentication read with the token, or None with the fast paths off."""
    return found if fast() else None


def remember_head(label: str, pk: Any, version: int, scope: str) -> None:
    """A read's head, for the next unchanged poll (moves the head forward only)."""
    if fast():
        heads.remember(label, pk, version, scope)


def publish(table: Any) -> None:
    """The table's head moves to its version (always: other processes may read heads)."""
    heads.publish(table)


def publishing(table: Any) -> Any:
    """:func:`publish` overlapped with the write it goes with (always, as :func:`publish`)."""
    return heads.publishing(table)


# --- kept state ----------------------------------------------------------------------------


def kept_state(table: Any) -> Any | None:
    """The engine state a move of this process left ``table`` in at its version, or None."""
    return kept_states.kept(table) if fast() else None


def keep_state(key: Hashable, state: Any) -> None:
    if fast():
        kept_states.keep(key, state)


def state_key(table: Any) -> Hashable:
    return kept_states.key_of(table)


def keep_row(table: Any, names: tuple[str, ...]) -> None:
    if fast():
        kept_states.keep_row(table, names)


def kept_row(model: Any, pk: Any, version: int) -> Any | None:
    return kept_states.kept_row(model, pk, version) if fast() else None


def keep_seat(table: Any, user_id: Any, columns: Mapping[str, Any]) -> None:
    if fast():
        kept_states.keep_seat(table, user_id, columns)


def kept_seat(model: Any, pk: Any, user_id: Any) -> dict[str, Any] | None:
    return kept_states.kept_seat(model, pk, user_id) if fast() else None


def forget_all() -> None:
    """Drop everything kept in this process (and the compiled reads)."""
    kept_states.forget_all()
    compiled.forget_all()


# --- the view cache ------------------------------------------------------------------------


def epoch_now() -> str:
    """The database's epoch: part of every per-version key (:mod:`tables.epoch`)."""
    return epoch.current()


def cached(key: str) -> bytes | None:
    """A rendered answer kept under ``key`` (None: a miss, Redis away, or fast paths off)."""
    if not fast():
        return None
    found = soft_get(key)
    return found if isinstance(found, bytes) else None


def cache(key: str, value: bytes, seconds: int) -> None:
    if fast():
        soft_set(key, value, seconds)
