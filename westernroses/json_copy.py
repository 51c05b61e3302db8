"""A JSON round trip of a game state, fast: what ``json.loads(json.dumps(value))`` gives.

The table core saves every state and loads it back through an engine's ``to_json`` and
``from_json``, and the many-game checks do so at every step; the standard library's round
trip of a card game's state cost the card games' checks about a tenth of their time. orjson
gives the same values (a tuple becomes a list, a key that is not a string its JSON text);
what it refuses (an integer beyond 64 bits) takes the standard library's way.
"""

from __future__ import annotations

import json
from typing import Any

import orjson


def json_copy(value: Any) -> Any:
    """``json.loads(json.dumps(value))``, by orjson where it can."""
    try:
        return orjson.loads(orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS))
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.loads(json.dumps(value))
