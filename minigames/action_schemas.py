"""What each tavern game's actions may carry, checked before the engine sees them.

See tables/schema.py.

The engines decide whether a move is legal; these schemas only bound its shape, so a player
cannot push an unknown key or a huge value into the log every seat downloads. The field lists
come from the engines' legal actions (every type and key a random game offers; see
docs/tavern.md); a key the engine never offers is a 400 before any lock.
"""

from __future__ import annotations

from typing import Any

from tables.schema import ActionSchema, Bool, Int, List, Str, schemas

_ID = 40  # token, card and space ids are short ("rso-card-73", "left")
_SEAT = Int(0, 5)


def _card(**kw: Any) -> Str:
    return Str(_ID, **kw)


RAIGO_ACTIONS = schemas(
    ActionSchema("fetch", {"token": _card(), "hand": _card()}),
    ActionSchema("end_fetch"),
    ActionSchema("select", {"count": Int(1, 2)}),
    ActionSchema("place", {"token": _card(), "space": _card()}),
    ActionSchema("pile", {"hand": _card(), "tower": Int(0, 9)}),
    ActionSchema(
        "chant",
        {
            "hand": _card(),
            "effect": _card(),
            "seat": Int(0, 5, required=False),
            "tower": Int(0, 9, required=False),
            "space": _card(required=False),
            "end": _card(required=False),
        },
    ),
    ActionSchema("keep", {"hand": _card()}),
    ActionSchema(
        "switch_pick",
        {
            "canyon": _card(required=False),
            "seat": Int(0, 5, required=False),
            "space": _card(required=False),
        },
    ),
    ActionSchema("decline"),
    ActionSchema("purify_done"),
    ActionSchema("purify_discard", {"token": _card()}),
    ActionSchema("arrange", {"left": _card(nullable=True), "right": _card(nullable=True)}),
    ActionSchema("shield", {"hand": _card()}),
    ActionSchema("discard", {"token": _card()}),
    ActionSchema("roar", {"hand": _card(), "tower": Int(0, 9)}),
    ActionSchema("destroy", {"tower": Int(0, 9)}),
)

SPIRIT_WAR_ACTIONS = schemas(
    ActionSchema("draw"),
    ActionSchema("attack", {"target": _SEAT}),
    ActionSchema("summon", {"card": _card()}),
    ActionSchema("pass_support"),
    ActionSchema("support", {"card": _card()}),
    ActionSchema("discard", {"card": _card()}),
    ActionSchema("skip_attack"),
    ActionSchema("no_spirit"),
    ActionSchema("vote", {"choice": _card()}),
)

_DISCARD = List(_card(), max_items=10, required=False)

RSO_ACTIONS = schemas(
    ActionSchema("choose_leader", {"card": _card()}),
    ActionSchema("keep"),
    ActionSchema("mulligan"),
    ActionSchema("pass"),
    ActionSchema("no_attack"),
    ActionSchema("reserve", {"card": _card()}),
    ActionSchema("done"),
    ActionSchema(
        "play_event",
        {
            "card": _card(),
            "target": _card(required=False),
            "discard": _DISCARD,
            "awaken": Bool(required=False),
        },
    ),
    ActionSchema("activate", {"spell": _card(), "discard": _DISCARD}),
    ActionSchema("equip", {"card": _card(), "target": _card(required=False)}),
    ActionSchema("attack", {"spell": _card()}),
    ActionSchema("intercept", {"spell": _card()}),
    ActionSchema("no_intercept"),
    ActionSchema(
        "use_special",
        {
            "card": _card(),
            "ability": Int(0, 20),
            "target": _card(required=False),
            "discard": _DISCARD,
        },
    ),
    ActionSchema("pay_border"),
    ActionSchema("take_hit"),
    ActionSchema("discard", {"card": _card()}),
)

DBS_ACTIONS = schemas(
    *(
        ActionSchema(kind, {"card": _card()})
        for kind in (
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
    ),
    ActionSchema("set_trap", {"card": _card(), "replace": _card(required=False)}),
    ActionSchema("constant", {"card": _card(), "replace": _card(required=False)}),
    *(ActionSchema(kind) for kind in ("skip_change", "end_set", "end_turn", "no_counter")),
)

#: game slug -> its action schemas.
ACTIONS = {
    "raigo": RAIGO_ACTIONS,
    "spirit_war": SPIRIT_WAR_ACTIONS,
    "rso": RSO_ACTIONS,
    "dbs": DBS_ACTIONS,
}
