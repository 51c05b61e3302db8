"""Exact odds against brute force, simulation and the ruleset's worked examples ("Basic rolls",
"Critical Success and Failure", "Versus Checks", Spectrum Mystery's "Lucky")."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.icepool_odds import icepool_check_odds
from westernroses.checks import (
    AllFail,
    Outcome,
    Participant,
    check,
    judge,
    versus,
)
from westernroses.dice import DiceExpression
from westernroses.house_rules import HouseRules
from westernroses.probability import (
    _distribution,
    check_odds,
    dice_distribution,
    reroll_odds,
    total_distribution,
    versus_odds,
)

FAST = settings(max_examples=40, deadline=None)
FACES = range(1, 7)


class Scripted:
    """Dice chosen by the test, in order; running out raises IndexError."""

    def __init__(self, dice: Iterable[int]) -> None:
        self._dice = list(dice)
        self.seed = 0
        self.sequence = 0

    def d6(self) -> int:
        self.sequence += 1
        return self._dice.pop(0)


class FastSource:
    """random.Random as a dice source: fine for simulations, never for persisted games."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)
        self.seed = seed
        self.sequence = 0

    def d6(self) -> int:
        self.sequence += 1
        return self._random.randrange(1, 7)


# --------------------------------------------------------------------------- distributions


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_dice_distribution_equals_brute_force(n: int) -> None:
    """Basic rolls: all rolls are d6; counting every ordered roll of n dice gives the same."""
    brute = Counter(sum(roll) for roll in product(FACES, repeat=n))
    assert dice_distribution(n) == tuple(brute[n + k] for k in range(5 * n + 1))


def test_dice_distribution_known_values() -> None:
    """Basic rolls: 2d has the familiar 1-2-3-4-5-6-5-4-3-2-1 triangle."""
    assert dice_distribution(0) == (1,)
    assert dice_distribution(1) == (1,) * 6
    assert dice_distribution(2) == (1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1)


def test_dice_distributions_are_symmetric_and_complete() -> None:
    """Basic rolls: n dice run from n to 6n, symmetric about 3.5n, 6**n outcomes in all."""
    for n in range(101):
        counts = dice_distribution(n)
        assert len(counts) == 5 * n + 1
        assert counts == counts[::-1]
        assert sum(counts) == 6**n


def test_one_hundred_dice_are_fast() -> None:
    """Limits: 100 dice is the maximum; the exact distribution takes milliseconds."""
    _distribution.cache_clear()
    started = time.perf_counter()
    counts = dice_distribution(100)
    odds = check_odds(100, 0, 350)
    vs = versus_odds(100, 0, 100, 0, 350)
    assert time.perf_counter() - started < 2
    assert len(counts) == 501
    assert odds.any_success + odds.any_failure == 1
    assert vs.a_wins == vs.b_wins


@pytest.mark.parametrize("n", [-1, 101])
def test_dice_distribution_rejects_out_of_range(n: int) -> None:
    """Limits: 0 to 100 dice."""
    with pytest.raises(ValueError):
        dice_distribution(n)
    with pytest.raises(TypeError):
        dice_distribution(True)


@FAST
@given(st.integers(0, 4), st.integers(-20, 20), st.integers(1, 3))
def test_total_distribution_equals_brute_force(dice: int, modifier: int, multiplier: int) -> None:
    """Basic rolls / Drunken Master: totals of nd(Xm)±k by enumerating every roll."""
    brute = Counter(multiplier * sum(r) + modifier for r in product(FACES, repeat=dice))
    exact = total_distribution((dice, modifier, multiplier))
    assert exact == {t: Fraction(c, 6**dice) for t, c in sorted(brute.items())}


@FAST
@given(st.integers(0, 100), st.integers(-1000, 1000), st.integers(1, 10))
def test_total_distribution_sums_to_exactly_one(dice: int, modifier: int, mult: int) -> None:
    """Probabilities of every total add up to exactly 1 (Fractions, no rounding)."""
    distribution = total_distribution(DiceExpression(dice, modifier, mult))
    assert sum(distribution.values()) == 1
    assert min(distribution) == dice * mult + modifier
    assert max(distribution) == 6 * dice * mult + modifier


def test_total_distribution_of_notation() -> None:
    """Basic rolls: 4d+4 runs 8 to 28; Drunken Master 3dX2 only makes even totals 6 to 36;
    a 2x(3d+1) group is the same as 6d+2."""
    assert list(total_distribution("4d+4")) == list(range(8, 29))
    assert list(total_distribution("3dX2")) == list(range(6, 37, 2))
    assert total_distribution("2x(3d+1)") == total_distribution("6d+2")
    assert total_distribution((4, 2)) == total_distribution("4d+4-2")


# --------------------------------------------------------------------------- checks


def test_boulder_odds_from_the_ruleset() -> None:
    """Basic rolls / Critical Success: against 25 the pony (4d) succeeds only by a critical
    (22-24: 15 of 1296 rolls). The +4 strength spell's "fighting (albeit slim) chance" was written
    before criticals: every 4d+4 roll above 25 needs dice of 22+, already a critical, so with
    ruling 2 the spell doesn't change her odds. The plastered oni's 6d-4 "still gives her a
    better chance ... than her pony friend"."""
    pony = check_odds(4, 0, 25)
    assert pony.success == 0
    assert pony.critical_success == Fraction(15, 1296)
    buffed = check_odds(4, 4, 25)
    assert buffed.any_success == pony.any_success
    assert max(total_distribution("4d+4")) > 25
    oni = check_odds(6, -4, 25)
    assert oni.success > 0
    assert oni.any_success > buffed.any_success


@pytest.mark.parametrize(
    ("target", "crit_successes"),
    [(31, 15), (32, 5), (33, 1), (34, 0)],  # 22, 23, 24 drop out as the target reaches +10
)
def test_critical_success_ten_below_target_fails(target: int, crit_successes: int) -> None:
    """Critical Success: "if a critical success is still 10 or more lower than the target
    number, even a critical success is considered a failure"."""
    assert check_odds(4, 0, target).critical_success == Fraction(crit_successes, 1296)


@FAST
@given(st.integers(0, 100), st.integers(-60, 60), st.integers(-20, 400), st.integers(0, 10))
def test_check_odds_sum_to_exactly_one(dice: int, modifier: int, target: int, band: int) -> None:
    """Critical Success and Failure: the four outcomes partition every roll."""
    odds = check_odds(dice, modifier, target, HouseRules(critical_band=band))
    assert odds.critical_success + odds.success + odds.failure + odds.critical_failure == 1
    assert all(0 <= odds.of(o) <= 1 for o in Outcome)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 3), st.integers(-8, 8), st.integers(-2, 30), st.integers(0, 6))
def test_live_checks_agree_with_check_odds_for_every_roll(
    dice: int, modifier: int, target: int, band: int
) -> None:
    """Critical Success and Failure: running the live check on every possible roll of the pool
    gives exactly the counts check_odds predicts."""
    rules = HouseRules(critical_band=band)
    outcomes: Counter[Outcome] = Counter()
    for faces in product(FACES, repeat=dice):
        result = check(dice, modifier, target, Scripted(faces), rules)
        assert result.outcome is not None
        outcomes[result.outcome] += 1
    odds = check_odds(dice, modifier, target, rules)
    assert {o: Fraction(outcomes[o], 6**dice) for o in Outcome} == {o: odds.of(o) for o in Outcome}


def test_every_total_of_the_pony_is_classified_like_the_odds() -> None:
    """Critical Success and Failure: 4d vs 12, total by total: 4-6 critical failures, 7-12
    failures, 13-21 successes, 22-24 critical successes."""
    expected = dict.fromkeys(range(4, 7), Outcome.CRITICAL_FAILURE)
    expected |= dict.fromkeys(range(7, 13), Outcome.FAILURE)
    expected |= dict.fromkeys(range(13, 22), Outcome.SUCCESS)
    expected |= dict.fromkeys(range(22, 25), Outcome.CRITICAL_SUCCESS)
    assert {t: judge(t, 4, 0, 12).outcome for t in range(4, 25)} == expected
    counts = dice_distribution(4)
    odds = check_odds(4, 0, 12)
    for outcome in Outcome:
        total = sum(counts[t - 4] for t, o in expected.items() if o is outcome)
        assert odds.of(outcome) == Fraction(total, 1296)


def test_check_odds_match_a_simulation() -> None:
    """Target Numbers: the 'average' 4d against 12, 200,000 simulated rolls vs the exact odds."""
    rng = random.Random(20240601)
    faces = rng.choices(FACES, k=800_000)
    totals = Counter(sum(faces[i : i + 4]) for i in range(0, 800_000, 4))
    simulated: Counter[Outcome] = Counter()
    for total, count in totals.items():
        outcome = judge(total, 4, 0, 12).outcome
        assert outcome is not None
        simulated[outcome] += count
    odds = check_odds(4, 0, 12)
    for outcome in Outcome:
        assert abs(simulated[outcome] / 200_000 - float(odds.of(outcome))) < 0.005


def test_check_odds_to_dict() -> None:
    """Odds are stored exactly as "num/den" and shown as percentages."""
    data = check_odds(4, 0, 25).to_dict()
    assert data["critical_success"] == {"exact": "5/432", "percent": 1.16}
    assert data["success"] == {"exact": "0/1", "percent": 0.0}
    assert data["any_failure"] == {"exact": "427/432", "percent": 98.84}
    assert check_odds(4, 0, 25, HouseRules(critical_band=2)).to_dict()["house_rules"] == {
        "critical_band": 2
    }


def _oracle_counts(dice: int, modifier: int, target: int, rules: HouseRules) -> dict[Outcome, int]:
    """The straightforward way, kept as the oracle: judge every dice total of the pool."""
    counts = dict.fromkeys(Outcome, 0)
    for k, count in enumerate(dice_distribution(dice)):
        outcome = judge(dice + k, dice, modifier, target, rules).outcome
        assert outcome is not None
        counts[outcome] += count
    return counts


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 100),
    st.integers(-60, 60),
    st.integers(-20, 660),
    st.integers(0, 10),
    st.integers(1, 100),
)
def test_check_odds_equal_judging_every_total(
    dice: int, modifier: int, target: int, band: int, margin: int
) -> None:
    """Critical Success and Failure: check_odds judges one total per run of totals that read
    alike; judging every total of the pool (the oracle) gives the same exact fractions, and
    Lucky's re-roll odds follow from them as P(o)·[o succeeded] + P(failed)·P(o)."""
    rules = HouseRules(critical_band=band, critical_fail_margin=margin)
    counts = _oracle_counts(dice, modifier, target, rules)
    p = {o: Fraction(c, 6**dice) for o, c in counts.items()}
    assert {o: check_odds(dice, modifier, target, rules).of(o) for o in Outcome} == p
    failed = p[Outcome.FAILURE] + p[Outcome.CRITICAL_FAILURE]
    lucky = reroll_odds(dice, modifier, target, rules)
    assert {o: lucky.of(o) for o in Outcome} == {
        o: (p[o] if o.succeeded else 0) + failed * p[o] for o in Outcome
    }


def test_check_odds_equal_icepool_for_every_pool() -> None:
    """The odds equal icepool's (an independent exact dice library) for every pool from 1d to
    100d: icepool sums the d6 and buckets the totals by the same judge."""
    for dice in range(1, 101):
        modifier, target = dice % 7 - 3, (7 * dice) // 2 + dice % 5
        ours = check_odds(dice, modifier, target)
        theirs = icepool_check_odds(dice, modifier, target)
        assert {o: ours.of(o) for o in Outcome} == theirs, dice


@FAST
@given(st.integers(0, 12), st.integers(-10, 10), st.integers(0, 50))
def test_lucky_odds(dice: int, modifier: int, target: int) -> None:
    """Lucky: re-rolling a failure once (keeping the new roll) succeeds with 1 - (1 - p)**2."""
    plain = check_odds(dice, modifier, target)
    lucky = reroll_odds(dice, modifier, target)
    assert lucky.lucky
    assert lucky.any_success == 1 - (1 - plain.any_success) ** 2
    assert lucky.critical_success + lucky.success + lucky.failure + lucky.critical_failure == 1
    assert lucky.critical_failure == plain.any_failure * plain.critical_failure


# --------------------------------------------------------------------------- versus


def _brute_versus(
    a: tuple[int, int], b: tuple[int, int], target: int | None, all_fail: AllFail
) -> tuple[Fraction, Fraction, Fraction]:
    """Run the live versus on every first roll; a first roll that needs a tie-break runs out of
    scripted dice and is split by the brute-forced no-target odds P(A>B) / (1 - P(A=B))."""
    wins: Counter[str | None] = Counter()
    ties = 0
    for da in product(FACES, repeat=a[0]):
        for db in product(FACES, repeat=b[0]):
            people = [Participant("a", *a), Participant("b", *b)]
            try:
                result = versus(people, target, Scripted(da + db), all_fail=all_fail)
            except IndexError:
                ties += 1
                continue
            wins[result.winner] += 1
    ahead = Counter(
        (sum(da) + a[1] > sum(db) + b[1]) - (sum(da) + a[1] < sum(db) + b[1])
        for da in product(FACES, repeat=a[0])
        for db in product(FACES, repeat=b[0])
    )
    outcomes = 6 ** (a[0] + b[0])
    a_tb = Fraction(ahead[1], ahead[1] + ahead[-1]) if ahead[1] + ahead[-1] else Fraction(0)
    b_tb = 1 - a_tb if ahead[1] + ahead[-1] else Fraction(0)
    return (
        Fraction(wins["a"], outcomes) + Fraction(ties, outcomes) * a_tb,
        Fraction(wins["b"], outcomes) + Fraction(ties, outcomes) * b_tb,
        Fraction(ties, outcomes),
    )


@pytest.mark.parametrize(
    ("a", "b", "target", "all_fail"),
    [
        ((2, 0), (2, 0), None, AllFail.NO_WINNER),
        ((1, 3), (3, 0), None, AllFail.NO_WINNER),
        ((1, 0), (3, -2), 7, AllFail.NO_WINNER),
        ((2, 1), (2, 0), 8, AllFail.NO_WINNER),
        ((2, 1), (2, 0), 8, AllFail.CLOSEST),
        ((3, 0), (1, 8), 12, AllFail.CLOSEST),
        ((0, 5), (2, 0), None, AllFail.NO_WINNER),
        ((0, 5), (2, 0), 9, AllFail.CLOSEST),
    ],
)
def test_versus_odds_equal_brute_force(
    a: tuple[int, int], b: tuple[int, int], target: int | None, all_fail: AllFail
) -> None:
    """Versus Checks: exact odds match the live versus over every first roll, with ties
    re-rolled until broken (P(A wins) = P(A > B) / (1 - P(tie)) for the tie-break)."""
    odds = versus_odds(*a, *b, target, all_fail=all_fail)
    a_wins, b_wins, tie = _brute_versus(a, b, target, all_fail)
    assert (odds.a_wins, odds.b_wins, odds.tie_break) == (a_wins, b_wins, tie)
    assert odds.a_wins + odds.b_wins + odds.no_winner == 1


def test_versus_odds_without_target_formula() -> None:
    """Versus Checks: no target, higher roll wins; two 2d pools split evenly, and 2d+1 vs 2d
    wins P(A>B) / (1 - P(A=B))."""
    even = versus_odds(2, 0, 2, 0)
    assert (even.a_wins, even.b_wins, even.no_winner) == (Fraction(1, 2), Fraction(1, 2), 0)
    assert even.tie_break == Fraction(146, 1296)
    pairs = [
        (sum(x) + 1, sum(y)) for x in product(FACES, repeat=2) for y in product(FACES, repeat=2)
    ]
    greater = Fraction(sum(p > q for p, q in pairs), 1296)
    equal = Fraction(sum(p == q for p, q in pairs), 1296)
    assert versus_odds(2, 1, 2, 0).a_wins == greater / (1 - equal)


def test_versus_odds_no_dice_tie_never_breaks() -> None:
    """Ruling: two sides rolling no dice and tied can never break the tie: no winner."""
    odds = versus_odds(0, 3, 0, 3)
    assert (odds.a_wins, odds.b_wins, odds.no_winner) == (0, 0, 1)
    assert versus_odds(0, 4, 0, 3).a_wins == 1


@FAST
@given(
    st.integers(0, 20),
    st.integers(-10, 10),
    st.integers(0, 20),
    st.integers(-10, 10),
    st.one_of(st.none(), st.integers(0, 80)),
    st.sampled_from(AllFail),
)
def test_versus_odds_sum_to_one_and_are_symmetric(
    a_dice: int, a_mod: int, b_dice: int, b_mod: int, target: int | None, all_fail: AllFail
) -> None:
    """Versus Checks: someone wins or no one does (probabilities sum to exactly 1), and the
    order of the two sides doesn't matter."""
    ab = versus_odds(a_dice, a_mod, b_dice, b_mod, target, all_fail=all_fail)
    ba = versus_odds(b_dice, b_mod, a_dice, a_mod, target, all_fail=all_fail)
    assert ab.a_wins + ab.b_wins + ab.no_winner == 1
    assert (ab.a_wins, ab.b_wins, ab.no_winner) == (ba.b_wins, ba.a_wins, ba.no_winner)
    if target is None and (a_dice or b_dice):
        assert ab.no_winner == 0


@pytest.mark.parametrize(
    ("a", "b", "target", "all_fail"),
    [((3, 1), (4, 0), 12, AllFail.CLOSEST), ((2, 0), (2, 0), None, AllFail.NO_WINNER)],
)
def test_versus_odds_match_a_simulation(
    a: tuple[int, int], b: tuple[int, int], target: int | None, all_fail: AllFail
) -> None:
    """Versus Checks: 10,000 live versus checks (ties re-rolled) land on the exact odds
    (tolerance 0.025 is 5 standard deviations)."""
    source = FastSource(7)
    people = [Participant("a", *a), Participant("b", *b)]
    winners = Counter(
        versus(people, target, source, all_fail=all_fail).winner for _ in range(10_000)
    )
    odds = versus_odds(*a, *b, target, all_fail=all_fail)
    for key, exact in (("a", odds.a_wins), ("b", odds.b_wins), (None, odds.no_winner)):
        assert abs(winners[key] / 10_000 - float(exact)) < 0.025


def test_versus_odds_to_dict() -> None:
    """Versus odds are stored exactly and shown as percentages."""
    data = versus_odds(2, 0, 2, 0).to_dict()
    assert data["a_wins"] == {"exact": "1/2", "percent": 50.0}
    assert data["tie_break"]["exact"] == "73/648"
    assert data["all_fail"] == "no_winner"
