"""What each Rumbling Spell Orchestra action may carry (:mod:`westernroses.action_shapes`),
checked by the table core before the engine sees it.

The engine decides whether a move is legal; these shapes only bound it. The types and keys are
those of the engine's legal actions (``setup``, ``phases``, ``abilities``). Any cost may ask
for hand cards (``discard``) or Supports sent from the field (``sacrifice``), whether an
extra, Activate, Battle or Special cost, so every paying move may carry both; neither can name
more cards than a deck holds (:data:`~minigames.engines.rso.decks.DECK_SIZE`). A Special is
named by its index on the card, below :data:`~minigames.engines.rso.vocabulary.MAX_ABILITIES`.
"""

from __future__ import annotations

from typing import Final

from minigames.engines.rso.decks import DECK_SIZE
from minigames.engines.rso.vocabulary import MAX_ABILITIES
from westernroses.action_shapes import ActionShape, Bool, Field, Int, List, Str, shapes

#: Card instance ids ("rso-card-73") are short.
ID: Final = 40


def _card(*, required: bool = True) -> Str:
    return Str(ID, required=required)


_CARDS: Final = List(_card(), max_items=DECK_SIZE, required=False)


def _paid(kind: str, fields: dict[str, Field]) -> ActionShape:
    """A move that pays a cost: it may name the hand cards discarded and the Supports sent
    from the field."""
    return ActionShape(kind, {**fields, "discard": _CARDS, "sacrifice": _CARDS})


ACTIONS: Final = shapes(
    ActionShape("choose_leader", {"card": _card()}),
    ActionShape("keep"),
    ActionShape("mulligan"),
    ActionShape("pass"),
    ActionShape("no_attack"),
    ActionShape("reserve", {"card": _card()}),
    ActionShape("done"),
    _paid(
        "play_event",
        {"card": _card(), "target": _card(required=False), "awaken": Bool(required=False)},
    ),
    _paid("activate", {"spell": _card()}),
    _paid("equip", {"card": _card(), "target": _card(required=False)}),
    _paid("attack", {"spell": _card()}),
    _paid("intercept", {"spell": _card()}),
    ActionShape("no_intercept"),
    _paid(
        "use_special",
        {
            "card": _card(),
            "ability": Int(0, MAX_ABILITIES - 1),
            "target": _card(required=False),
            "awaken": Bool(required=False),
        },
    ),
    ActionShape("pay_border"),
    ActionShape("take_hit"),
    ActionShape("discard", {"card": _card()}),
)
