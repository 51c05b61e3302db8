"""RAIGO, the token-tower tavern game (../shared/rules/raigo-rulebook-en.md), as a pure engine.

``ENGINE`` implements :class:`westernroses.protocol.GameEngine`. The modules: ``tokens`` (the
69 tokens), ``setup`` (new game, house rules), ``board`` (places and knowledge), ``hands``
(scoring a tower), ``resolution`` (Yang balls, tower resolution, the end), ``spells`` (token
spells and answers), ``turn`` (the four steps), ``actions`` (legal actions, words), ``player_view``
(views, hidden ids, determinize), ``shapes`` (what each action may carry), ``heuristic`` (a
greedy bot and an evaluator).
"""

from minigames.engines.raigo.engine import ENGINE, RaigoEngine

__all__ = ["ENGINE", "RaigoEngine"]
