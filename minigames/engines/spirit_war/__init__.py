"""Spirit War, the tavern's elemental card battle for 2 to 6 players (docs/games/spirit-war.md).

``ENGINE`` implements :class:`westernroses.protocol.GameEngine`; ``shapes`` holds what each
action may carry; ``heuristic`` holds the greedy bot policy and the evaluator for the search bot.
"""

from __future__ import annotations

from minigames.engines.spirit_war.engine import ENGINE, SpiritWarEngine

__all__ = ["ENGINE", "SpiritWarEngine"]
