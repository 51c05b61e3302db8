"""Bots for the tavern games: random, heuristic and OpenSpiel's information-set MCTS, over one
adapter from any :mod:`westernroses.protocol` engine to an OpenSpiel game (docs/bots.md).

Pure Python and OpenSpiel: no Django here; the table core calls :func:`choose_action` from a
Celery task and :func:`advise` for the practice-table advisor.
"""

from minigames.bots.choose import (
    DEFAULT_TIME_LIMIT,
    STRENGTHS,
    Advice,
    Strength,
    advise,
    choose_action,
)
from minigames.bots.heuristics import Heuristics, heuristics_for
from minigames.bots.search import STRONG, SearchSettings

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "STRENGTHS",
    "STRONG",
    "Advice",
    "Heuristics",
    "SearchSettings",
    "Strength",
    "advise",
    "choose_action",
    "heuristics_for",
]
