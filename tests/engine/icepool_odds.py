"""The exact odds of a check computed by icepool, an independent exact dice library: the
equality test's second opinion and ``make bench``'s baseline for ``check_odds``."""

from __future__ import annotations

from fractions import Fraction

import icepool

from westernroses.checks import Outcome, judge
from westernroses.house_rules import DEFAULT_HOUSE_RULES, HouseRules


def icepool_check_odds(
    dice: int, modifier: int, target: int, rules: HouseRules = DEFAULT_HOUSE_RULES
) -> dict[Outcome, Fraction]:
    """icepool sums ``dice`` d6 and buckets every total by the live checks' own ``judge``."""

    def outcome(total: int) -> Outcome | None:
        return judge(total, dice, modifier, target, rules).outcome

    odds = (dice @ icepool.d6).map(outcome)
    denominator = odds.denominator()
    return {o: Fraction(odds.quantity(o), denominator) for o in Outcome}
