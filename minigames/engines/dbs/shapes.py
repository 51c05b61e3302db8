"""What each Dream Battle of SpellCard action may carry (:mod:`westernroses.action_shapes`),
checked by the table core before the engine sees it.

The engine decides whether a move is legal; these shapes only bound it. Every DBS move names
at most a card (a card number while choosing a character or retrieving, else a card instance)
and, setting a Trap or a Constant over a full row, the card it replaces (``setup``,
``phases``, ``battle``).
"""

from __future__ import annotations

from typing import Final

from westernroses.action_shapes import ActionShape, Str, shapes

#: Card numbers ("DBS-101") and card instance ids are short.
ID: Final = 40

#: The moves that name one card.
CARD_MOVES: Final = (
    "choose_character",
    "retrieve",
    "center",
    "extra_sp",
    "call_character",
    "declare",
    "buff",
    "discard",
    "hyper",
    "instant",
    "counter",
    "trap",
)
#: The moves that name one card, and the card in play it replaces when the row is full.
REPLACING_MOVES: Final = ("set_trap", "constant")
#: The moves that name nothing.
PLAIN_MOVES: Final = ("skip_change", "end_set", "end_turn", "no_counter")

ACTIONS: Final = shapes(
    *(ActionShape(kind, {"card": Str(ID)}) for kind in CARD_MOVES),
    *(
        ActionShape(kind, {"card": Str(ID), "replace": Str(ID, required=False)})
        for kind in REPLACING_MOVES
    ),
    *(ActionShape(kind) for kind in PLAIN_MOVES),
)
