"""What each battle action may carry (:mod:`westernroses.action_shapes`), checked by the table
core before the engine sees it.

The types and keys are the engine's (``actions`` lists the moves, ``overrides`` the GM's);
the server's own keys (``player``, ``at``, ``expected_version``) are not a client's to send.
The bounds: squares lie within the largest arena (:data:`~westernroses.battle.arena.MAX_SIDE`),
ids and slugs are short, and a GM's new combatant is at most 50 kB. Anything else, such as a
``note``, is refused.
"""

from __future__ import annotations

from typing import Final

from westernroses.action_shapes import ActionShape, Bool, Int, Json, List, Square, Str, shapes
from westernroses.battle.arena import MAX_SIDE

#: The keys the server adds to an action (who sends it, when, against which version): never
#: a client's to send, so no shape declares them.
SERVER_KEYS: Final = ("player", "at", "expected_version")
#: Combatant, card, attack, ability, status and power-drop ids are short.
ID: Final = 40
#: A GM's numbers (and a card's amount) are checked by the engine; this only bounds them.
SMALL: Final = 100_000
#: A GM's new combatant, written whole.
COMBATANT_BYTES: Final = 50_000


def _who(required: bool = True) -> Str:
    return Str(ID, required=required)


def _square(*, required: bool = True, nullable: bool = False) -> Square:
    return Square(MAX_SIDE - 1, required=required, nullable=nullable)


ACTIONS: Final = shapes(
    ActionShape("start"),
    ActionShape("do_nothing", {"combatant": _who()}),
    ActionShape("concentrate", {"combatant": _who()}),
    ActionShape("end_turn", {"combatant": _who(False)}),
    ActionShape("move", {"combatant": _who(), "to": _square(), "free": Bool(required=False)}),
    ActionShape(
        "attack",
        {
            "combatant": _who(),
            "attack": Str(ID),
            "target": Json(200, nullable=True),
            "free": Bool(required=False, nullable=True),
            "goddess": Bool(required=False, nullable=True),
        },
    ),
    ActionShape(
        "use_spellcard",
        {
            "combatant": _who(),
            "card": Str(ID),
            "targets": List(_square(), required=False, nullable=True),
            "amount": Int(-SMALL, SMALL, required=False, nullable=True),
            "second": Json(2_000, required=False, nullable=True),
            "free": Bool(required=False, nullable=True),
        },
    ),
    ActionShape(
        "use_ability",
        {
            "combatant": _who(),
            "ability": Str(ID),
            "target": Json(200, required=False, nullable=True),
        },
    ),
    ActionShape("collect_power", {"combatant": _who(), "drop": Str(ID)}),
    ActionShape(
        "react",
        {
            "combatant": _who(False),
            "hit": Str(ID, required=False),
            "choice": Str(ID),
            "card": Str(ID, required=False, nullable=True),
        },
    ),
    ActionShape("recover_weapons", {"combatant": _who()}),
    # GM overrides (``overrides``); the engine checks the values.
    ActionShape(
        "gm_adjust",
        {
            "combatant": _who(),
            "hp": Json(40, required=False, nullable=True),
            "spell_power": Json(40, required=False, nullable=True),
            "meter": Json(40, required=False, nullable=True),
        },
    ),
    ActionShape(
        "gm_add_status",
        {
            "combatant": _who(),
            "status": Str(ID),
            "turns": Json(40, required=False, nullable=True),
            "source": Str(ID, required=False, nullable=True),
            "save": Bool(required=False, nullable=True),
        },
    ),
    ActionShape(
        "gm_remove_status",
        {
            "combatant": _who(),
            "effect": Str(ID, required=False, nullable=True),
            "status": Str(ID, required=False, nullable=True),
        },
    ),
    ActionShape("gm_set_drunkenness", {"combatant": _who(), "level": Json(40, required=False)}),
    ActionShape("gm_move", {"combatant": _who(), "to": Json(200, nullable=True)}),
    ActionShape("gm_set_target", {"name": Str(ID), "target": Json(40)}),
    ActionShape("gm_add_combatant", {"combatant": Json(COMBATANT_BYTES)}),
    ActionShape("gm_remove_combatant", {"combatant": _who()}),
    ActionShape("gm_end_battle", {"winner": Str(ID, required=False, nullable=True)}),
    # Fog of war: the rectangle between two corners (``fog``).
    ActionShape("gm_fog", {"from": _square(), "to": _square()}),
    ActionShape("gm_reveal", {"from": _square(), "to": _square()}),
    # Off the board a combatant is hidden from the players like one in fog, unless shown.
    ActionShape("gm_show", {"combatant": _who(), "shown": Bool()}),
    ActionShape("gm_undo"),
)
