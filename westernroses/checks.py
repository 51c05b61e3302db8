"""Checks: dice pools, criticals, targets, versus checks and re-rolls (ruleset "Basic rolls").

Pure Python: no Django, DRF or Celery imports.
"""

from __future__ import annotations

from westernroses.house_rules import DEFAULT_HOUSE_RULES, HouseRules


def pool_size(stat: int, rules: HouseRules = DEFAULT_HOUSE_RULES) -> int:
    """Dice rolled for a stat: floor(stat / stat_per_die), at least ``min_dice`` (ruling 1).

    "Basic rolls": a pony with PWR 12 rolls 4d, an oni with PWR 18 rolls 6d. Floor division
    keeps negative stats (curses, drink) at or below zero before the minimum applies.
    """
    return max(stat // rules.stat_per_die, rules.min_dice)
