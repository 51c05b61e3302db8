"""Which tavern game engines exist: slug → module, imported on first use.

Each engine module exposes ``ENGINE``, an object implementing
:class:`westernroses.protocol.GameEngine`. Importing lazily keeps a page that needs one game from
loading all four.
"""

from __future__ import annotations

import importlib
from typing import Any

from westernroses.protocol import GameEngine

#: slug → the module holding that game's ``ENGINE``.
ENGINE_MODULES: dict[str, str] = {
    "raigo": "minigames.engines.raigo",
    "spirit_war": "minigames.engines.spirit_war",
    "rso": "minigames.engines.rso",
    "dbs": "minigames.engines.dbs",
}


def get_engine(slug: str) -> GameEngine[Any]:
    """The engine for ``slug``; ``KeyError`` for an unknown game."""
    module = importlib.import_module(ENGINE_MODULES[slug])
    engine: GameEngine[Any] = module.ENGINE
    return engine
