"""What a game lends undo requests (filled in its app's ``ready()``): ``guarded(table)`` - undo is
off unless the host allows it (a staked or rated table); ``host_of(table)`` - the user id who may
allow it. A game that registers nothing takes no undo requests."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class UndoHooks:
    guarded: Callable[[Any], bool]
    host_of: Callable[[Any], int]


_HOOKS: dict[str, UndoHooks] = {}


def register_undo_hooks(slug: str, hooks: UndoHooks) -> None:
    _HOOKS[slug] = hooks


def hooks_for(slug: str) -> UndoHooks | None:
    return _HOOKS.get(slug)
