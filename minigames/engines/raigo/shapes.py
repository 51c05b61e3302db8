"""What each RAIGO action may carry (:mod:`westernroses.action_shapes`), checked by the table
core before the engine sees it.

The engine decides whether a move is legal; these shapes only bound it, so a player cannot
push an unknown key or a huge value into the log every seat downloads. The types and keys are
those the engine's legal actions use (``actions``, ``turn``, ``spells``); the numbers are the
game's own: a seat below :data:`~minigames.engines.raigo.setup.MAX_SEATS`, a tower below
:data:`~minigames.engines.raigo.board.MOST_TOWERS`, a selection among
:data:`~minigames.engines.raigo.turn.SELECT_COUNTS`.
"""

from __future__ import annotations

from typing import Final

from minigames.engines.raigo.board import MOST_TOWERS
from minigames.engines.raigo.setup import MAX_SEATS
from minigames.engines.raigo.turn import SELECT_COUNTS
from westernroses.action_shapes import ActionShape, Int, Str, shapes

#: Token ids ("raigo-token-68"), spaces ("body2", "left"), effects and tower ends are short.
ID: Final = 40


def _id(*, required: bool = True, nullable: bool = False) -> Str:
    return Str(ID, required=required, nullable=nullable)


def _seat(*, required: bool = True) -> Int:
    return Int(0, MAX_SEATS - 1, required=required)


def _tower(*, required: bool = True) -> Int:
    return Int(0, MOST_TOWERS - 1, required=required)


ACTIONS: Final = shapes(
    ActionShape("fetch", {"token": _id(), "hand": _id()}),
    ActionShape("end_fetch"),
    ActionShape("select", {"count": Int(min(SELECT_COUNTS), max(SELECT_COUNTS))}),
    ActionShape("place", {"token": _id(), "space": _id()}),
    ActionShape("pile", {"hand": _id(), "tower": _tower()}),
    ActionShape(
        "chant",
        {
            "hand": _id(),
            "effect": _id(),
            "seat": _seat(required=False),
            "tower": _tower(required=False),
            "space": _id(required=False),
            "end": _id(required=False),
        },
    ),
    ActionShape("keep", {"hand": _id()}),
    ActionShape(
        "switch_pick",
        {
            "canyon": _id(required=False),
            "seat": _seat(required=False),
            "space": _id(required=False),
        },
    ),
    ActionShape("decline"),
    ActionShape("purify_done"),
    ActionShape("purify_discard", {"token": _id()}),
    ActionShape("arrange", {"left": _id(nullable=True), "right": _id(nullable=True)}),
    ActionShape("shield", {"hand": _id()}),
    ActionShape("discard", {"token": _id()}),
    ActionShape("roar", {"hand": _id(), "tower": _tower()}),
    ActionShape("destroy", {"tower": _tower()}),
)
