"""Exact odds for rolls, checks and versus checks.

Why exact: the GM screen shows "chance to lift the boulder" and the tests compare it with the
live engine, so the numbers must be the rulebook's, not a simulation's. Everything here counts
outcomes with Python ints (n d6 have 6**n equally likely ordered results) and returns
:class:`~fractions.Fraction`; floats appear only in ``to_dict`` for display. The totals are
judged by the same :func:`westernroses.checks.judge` / :func:`~westernroses.checks.versus_rank`
as live checks, so odds and results can never disagree.

Fast as well as exact (issue 15): a check is judged once per run of dice totals that read
alike (at most seven runs, cut at the critical bands and the target's thresholds) and counted
with running sums of the cached distribution, in integers over ``6**dice``; fractions are built
only at the end. ``make bench`` times 100d warm (target 0.5 ms) beside icepool on every pool.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise
from typing import Any

from westernroses.checks import (
    CHECK_RULES,
    AllFail,
    CriticalBands,
    Outcome,
    _judge,
    critical_bands,
    judge,
    versus_rank,
)
from westernroses.dice import MAX_DICE, DiceExpression, parse
from westernroses.house_rules import DEFAULT_HOUSE_RULES, HouseRules


def _display(value: Fraction) -> dict[str, Any]:
    """Exact "num/den" for storage and comparison, a rounded percentage for people."""
    return {
        "exact": f"{value.numerator}/{value.denominator}",
        "percent": round(float(value) * 100, 2),
    }


def _rules_record(rules: HouseRules) -> dict[str, int]:
    return {name: value for name, value in rules.changed().items() if name in CHECK_RULES}


# --------------------------------------------------------------------------- distributions


@lru_cache(maxsize=MAX_DICE + 1)
def _distribution(n: int) -> tuple[int, ...]:
    if n == 0:
        return (1,)
    previous = _distribution(n - 1)
    # Adding a die: new[k] = previous[k-5] + ... + previous[k], via prefix sums.
    prefix = [0]
    for count in previous:
        prefix.append(prefix[-1] + count)
    size = len(previous)
    return tuple(prefix[min(k, size - 1) + 1] - prefix[max(k - 5, 0)] for k in range(size + 5))


def dice_distribution(n: int) -> tuple[int, ...]:
    """Counts of each total of ``n`` d6: item ``k`` is how many of the ``6**n`` ordered rolls
    total ``n + k`` (so the tuple runs from the minimum ``n`` to the maximum ``6n``).

    Cached: 100d6 is built once from 99d6 and so on, a few milliseconds in all.
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"n must be an int, not {type(n).__name__}")
    if not 0 <= n <= MAX_DICE:
        raise ValueError(f"n must be between 0 and {MAX_DICE}, got {n}")
    return _distribution(n)


#: What :func:`total_distribution` accepts: an expression, notation, (dice, modifier) or
#: (dice, modifier, multiplier).
RollSpec = DiceExpression | str | tuple[int, int] | tuple[int, int, int]


def _expression(spec: RollSpec) -> DiceExpression:
    if isinstance(spec, DiceExpression):
        return spec
    if isinstance(spec, str):
        return parse(spec)
    if len(spec) == 2:
        return DiceExpression(spec[0], spec[1])
    return DiceExpression(spec[0], spec[1], spec[2])


def total_distribution(spec: RollSpec) -> dict[int, Fraction]:
    """Probability of each total of a roll, ascending. ``spec`` is an expression, notation, or
    ``(dice, modifier[, multiplier])``. Totals a roll cannot make are absent (e.g. odd totals
    of ``3dX2``)."""
    expression = _expression(spec)
    counts = dice_distribution(expression.dice)
    outcomes = 6**expression.dice
    return {
        expression.multiplier * (expression.dice + k) + expression.modifier: Fraction(c, outcomes)
        for k, c in enumerate(counts)
    }


# --------------------------------------------------------------------------- checks


@dataclass(frozen=True, slots=True)
class CheckOdds:
    """Exact chance of each :class:`~westernroses.checks.Outcome`; the four add up to 1."""

    dice: int
    modifier: int
    target: int
    critical_success: Fraction
    success: Fraction
    failure: Fraction
    critical_failure: Fraction
    rules: HouseRules = field(default=DEFAULT_HOUSE_RULES, repr=False)
    lucky: bool = False

    @property
    def any_success(self) -> Fraction:
        return self.critical_success + self.success

    @property
    def any_failure(self) -> Fraction:
        return self.failure + self.critical_failure

    def of(self, outcome: Outcome) -> Fraction:
        return {
            Outcome.CRITICAL_SUCCESS: self.critical_success,
            Outcome.SUCCESS: self.success,
            Outcome.FAILURE: self.failure,
            Outcome.CRITICAL_FAILURE: self.critical_failure,
        }[outcome]

    def to_dict(self) -> dict[str, Any]:
        return {
            "dice": self.dice,
            "modifier": self.modifier,
            "target": self.target,
            "lucky": self.lucky,
            "critical_success": _display(self.critical_success),
            "success": _display(self.success),
            "failure": _display(self.failure),
            "critical_failure": _display(self.critical_failure),
            "any_success": _display(self.any_success),
            "any_failure": _display(self.any_failure),
            "house_rules": _rules_record(self.rules),
        }


@lru_cache(maxsize=MAX_DICE + 1)
def _cumulative(n: int) -> tuple[int, ...]:
    """Running sums of :func:`dice_distribution`: item ``k`` counts the rolls of ``n`` d6
    whose dice total is below ``n + k`` (so a run of totals is counted by one subtraction)."""
    out = [0]
    for count in _distribution(n):
        out.append(out[-1] + count)
    return tuple(out)


@lru_cache(maxsize=1024)
def _bands(dice: int, band: int) -> CriticalBands:
    """A pool's critical bands (they depend on the rules' ``critical_band`` alone): keyed by
    the number, since hashing the whole rule set costs more than the lookup saves."""
    return critical_bands(dice, HouseRules(critical_band=band))


def _runs(
    dice: int, modifier: int, target: int, rules: HouseRules, bands: CriticalBands
) -> list[tuple[int, int]]:
    """The dice totals of a check cut into runs ``[start, stop)`` that :func:`judge` reads
    alike.

    A check's outcome depends on its dice total only through four thresholds: the two
    critical bands, beating the target (``total > target``) and a critical success close
    enough to the target to stand (``target - total < critical_fail_margin``). Cutting at each
    of them leaves at most seven runs, each judged once; the per-total loop this replaces is
    kept in the tests as the oracle (``tests/engine/test_probability.py``).
    """
    lowest, stop = dice, 6 * dice + 1
    beat = target - modifier + 1
    cuts = {
        lowest,
        stop,
        bands.success.start,
        bands.success.stop,
        bands.failure.start,
        bands.failure.stop,
        beat,
        beat - rules.critical_fail_margin,
    }
    points = sorted(c for c in cuts if lowest <= c <= stop)
    return list(pairwise(points))


def _outcome_counts(dice: int, modifier: int, target: int, rules: HouseRules) -> dict[Outcome, int]:
    """How many of the ``6**dice`` ordered rolls give each outcome (exact integers: fractions
    are built once, at the edge, by the caller)."""
    counts = dict.fromkeys(Outcome, 0)
    cumulative = _cumulative(dice)
    bands = _bands(dice, rules.critical_band)
    for start, stop in _runs(dice, modifier, target, rules, bands):
        # ``judge`` itself, with the pool's critical bands worked out once.
        outcome = _judge(start, modifier, target, bands, rules).outcome
        if outcome is None:  # pragma: no cover - a target always gives an outcome
            raise ValueError("check odds need a target")
        counts[outcome] += cumulative[stop - dice] - cumulative[start - dice]
    return counts


def check_odds(
    dice: int, modifier: int, target: int, rules: HouseRules = DEFAULT_HOUSE_RULES
) -> CheckOdds:
    """Exact odds of a check of ``dice`` d6 + ``modifier`` against ``target``."""
    counts = _outcome_counts(dice, modifier, target, rules)
    outcomes = 6**dice
    return CheckOdds(
        dice,
        modifier,
        target,
        critical_success=Fraction(counts[Outcome.CRITICAL_SUCCESS], outcomes),
        success=Fraction(counts[Outcome.SUCCESS], outcomes),
        failure=Fraction(counts[Outcome.FAILURE], outcomes),
        critical_failure=Fraction(counts[Outcome.CRITICAL_FAILURE], outcomes),
        rules=rules,
    )


def reroll_odds(
    dice: int, modifier: int, target: int, rules: HouseRules = DEFAULT_HOUSE_RULES
) -> CheckOdds:
    """Odds with Lucky used on any failed roll (the re-roll must be kept, so re-rolling a
    success can only hurt): P'(o) = P(o)·[o succeeded] + P(failed)·P(o), worked out in
    counts over ``6**(2·dice)`` ordered pairs of rolls."""
    counts = _outcome_counts(dice, modifier, target, rules)
    outcomes = 6**dice
    failed = counts[Outcome.FAILURE] + counts[Outcome.CRITICAL_FAILURE]
    pairs = outcomes * outcomes
    q = {
        o: Fraction((counts[o] * outcomes if o.succeeded else 0) + failed * counts[o], pairs)
        for o in Outcome
    }
    return CheckOdds(
        dice,
        modifier,
        target,
        critical_success=q[Outcome.CRITICAL_SUCCESS],
        success=q[Outcome.SUCCESS],
        failure=q[Outcome.FAILURE],
        critical_failure=q[Outcome.CRITICAL_FAILURE],
        rules=rules,
        lucky=True,
    )


# --------------------------------------------------------------------------- versus


@dataclass(frozen=True, slots=True)
class VersusOdds:
    """Exact chances of a two-sided versus; ``a_wins + b_wins + no_winner == 1``.

    ``tie_break`` is the chance the first roll ties and needs re-rolls (already folded into
    the wins). ``no_winner`` is everyone failing under ``NO_WINNER``, or a tie between two
    sides that roll no dice (nothing can break it).
    """

    a_wins: Fraction
    b_wins: Fraction
    no_winner: Fraction
    tie_break: Fraction
    target: int | None
    all_fail: AllFail

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "all_fail": str(self.all_fail),
            "a_wins": _display(self.a_wins),
            "b_wins": _display(self.b_wins),
            "no_winner": _display(self.no_winner),
            "tie_break": _display(self.tie_break),
        }


def _rank_counts(
    dice: int, modifier: int, target: int | None, rules: HouseRules, all_fail: AllFail
) -> tuple[Mapping[tuple[int, int], int], int]:
    """Counts of each versus rank of one side, and of rolls that cannot win."""
    ranked: dict[tuple[int, int], int] = {}
    cannot_win = 0
    for k, count in enumerate(dice_distribution(dice)):
        key = versus_rank(judge(dice + k, dice, modifier, target, rules), all_fail)
        if key is None:
            cannot_win += count
        else:
            ranked[key] = ranked.get(key, 0) + count
    return ranked, cannot_win


def _compare(
    a: tuple[Mapping[tuple[int, int], int], int], b: tuple[Mapping[tuple[int, int], int], int]
) -> tuple[int, int, int]:
    """(A ahead, B ahead, tied leaders) as counts of the joint ordered rolls; one sweep."""
    (a_ranked, a_below), (b_ranked, b_below) = a, b
    a_ahead = b_ahead = tied = 0
    for key in sorted(a_ranked.keys() | b_ranked.keys()):
        ca, cb = a_ranked.get(key, 0), b_ranked.get(key, 0)
        a_ahead += ca * b_below
        b_ahead += cb * a_below
        tied += ca * cb
        a_below += ca
        b_below += cb
    return a_ahead, b_ahead, tied


def versus_odds(
    a_dice: int,
    a_mod: int,
    b_dice: int,
    b_mod: int,
    target: int | None = None,
    rules: HouseRules = DEFAULT_HOUSE_RULES,
    all_fail: AllFail | None = None,
) -> VersusOdds:
    """Exact odds that A or B wins :func:`westernroses.checks.versus`, tie re-rolls included.

    A tie between the leaders is re-rolled without a target until broken, so it splits as a
    no-target versus does: P(A wins the tie-break) = P(A > B) / (1 − P(A = B)). ``all_fail``
    defaults to the house rule.
    """
    if all_fail is None:
        all_fail = AllFail.from_rules(rules)
    outcomes = 6 ** (a_dice + b_dice)
    a = _rank_counts(a_dice, a_mod, target, rules, all_fail)
    b = _rank_counts(b_dice, b_mod, target, rules, all_fail)
    a_ahead, b_ahead, tied = _compare(a, b)
    tie = Fraction(tied, outcomes)
    a_wins, b_wins = Fraction(a_ahead, outcomes), Fraction(b_ahead, outcomes)
    nobody = Fraction(a[1] * b[1], outcomes)
    if tied:
        tb_a, tb_b, _ = _compare(
            _rank_counts(a_dice, a_mod, None, rules, all_fail),
            _rank_counts(b_dice, b_mod, None, rules, all_fail),
        )
        if tb_a + tb_b:
            a_wins += tie * Fraction(tb_a, tb_a + tb_b)
            b_wins += tie * Fraction(tb_b, tb_a + tb_b)
        else:  # neither side rolls dice: the tie can never break
            nobody += tie
    return VersusOdds(a_wins, b_wins, nobody, tie, target, all_fail)
