"""What each battle action may carry, checked by the table core before the engine sees it.

The shapes are the engine's (``westernroses/battle/actions.py`` and ``overrides.py`` list
them); the bounds are ours: ids and slugs are short, square lists small, and a GM's new
combatant at most 50 kB. Anything else, such as a ``note``, is refused with a 400.
"""

from __future__ import annotations

from typing import Final

from tables.schema import ActionSchema, Bool, Int, Json, List, Square, Str, schemas

ID: Final = 40
SMALL: Final = -100_000, 100_000


def _who(required: bool = True) -> Str:
    return Str(ID, required=required)


def _int(required: bool = False) -> Int:
    return Int(*SMALL, required=required, nullable=True)


BATTLE_ACTIONS: Final = schemas(
    ActionSchema("start"),
    ActionSchema("do_nothing", {"combatant": _who()}),
    ActionSchema("concentrate", {"combatant": _who()}),
    ActionSchema("end_turn", {"combatant": _who(False)}),
    ActionSchema("move", {"combatant": _who(), "to": Square(), "free": Bool(required=False)}),
    ActionSchema(
        "attack",
        {
            "combatant": _who(),
            "attack": Str(ID),
            "target": Json(200, nullable=True),
            "free": Bool(required=False, nullable=True),
            "goddess": Bool(required=False, nullable=True),
        },
    ),
    ActionSchema(
        "use_spellcard",
        {
            "combatant": _who(),
            "card": Str(ID),
            "targets": List(Square(), required=False, nullable=True),
            "amount": _int(),
            "second": Json(2_000, required=False, nullable=True),
            "free": Bool(required=False, nullable=True),
        },
    ),
    ActionSchema(
        "use_ability",
        {
            "combatant": _who(),
            "ability": Str(ID),
            "target": Json(200, required=False, nullable=True),
        },
    ),
    ActionSchema("collect_power", {"combatant": _who(), "drop": Str(ID)}),
    ActionSchema(
        "react",
        {
            "combatant": _who(False),
            "hit": Str(ID, required=False),
            "choice": Str(ID),
            "card": Str(ID, required=False, nullable=True),
        },
    ),
    ActionSchema("recover_weapons", {"combatant": _who()}),
    # GM overrides (westernroses/battle/overrides.py); the engine checks the values.
    ActionSchema(
        "gm_adjust",
        {
            "combatant": _who(),
            "hp": Json(40, required=False, nullable=True),
            "spell_power": Json(40, required=False, nullable=True),
            "meter": Json(40, required=False, nullable=True),
        },
    ),
    ActionSchema(
        "gm_add_status",
        {
            "combatant": _who(),
            "status": Str(ID),
            "turns": Json(40, required=False, nullable=True),
            "source": Str(ID, required=False, nullable=True),
            "save": Bool(required=False, nullable=True),
        },
    ),
    ActionSchema(
        "gm_remove_status",
        {
            "combatant": _who(),
            "effect": Str(ID, required=False, nullable=True),
            "status": Str(ID, required=False, nullable=True),
        },
    ),
    ActionSchema("gm_set_drunkenness", {"combatant": _who(), "level": Json(40, required=False)}),
    ActionSchema("gm_move", {"combatant": _who(), "to": Json(200, nullable=True)}),
    ActionSchema("gm_set_target", {"name": Str(ID), "target": Json(40)}),
    ActionSchema("gm_add_combatant", {"combatant": Json(50_000)}),
    ActionSchema("gm_remove_combatant", {"combatant": _who()}),
    ActionSchema("gm_end_battle", {"winner": Str(ID, required=False, nullable=True)}),
    # Fog of war: the rectangle between two corners (westernroses/battle/fog.py).
    ActionSchema("gm_fog", {"from": Square(), "to": Square()}),
    ActionSchema("gm_reveal", {"from": Square(), "to": Square()}),
    ActionSchema("gm_undo"),
)
