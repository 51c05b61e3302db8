"""What the engine remembers between calls, in one place, and a way to forget it.

Pure functions of immutable inputs are remembered across states (see docs/battle.md,
"Performance"): reachability per board position (``arena.ends``), areas and step tables per
arena, parsed card designs and their prices, the JSON of a card's target squares. Answers
about one state (its legal actions, a hit's open choices) live on the sealed state itself
(:meth:`BattleState.remember`). None of it changes a result:
``tests/engine/battle/test_fast_paths.py`` plays thousands of random battles against a fresh
engine with everything forgotten.
"""

from __future__ import annotations

from westernroses.battle import abilities, actions, arena, spellcasting


def clear() -> None:
    """Forget everything remembered across states (memory, or a test's straightforward run)."""
    arena.clear_caches()
    spellcasting.clear_caches()
    actions.shared_squares_json.cache_clear()
    actions._open_area_json.cache_clear()
    actions.forget_house_rules()
    abilities.forget()
