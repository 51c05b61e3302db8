"""Checks, criticals, versus checks and Lucky (ruleset "Basic rolls" to "Versus Checks", RULINGS
1, 2 and 11, Spectrum Mystery's "Lucky")."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterable
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from westernroses.checks import (
    AllFail,
    AlreadyRerolled,
    CheckResult,
    Critical,
    Outcome,
    Participant,
    RoundKind,
    VersusResult,
    check,
    critical_bands,
    judge,
    pool_size,
    reroll,
    reroll_versus,
    stat_check,
    verdict_words,
    versus,
    versus_rank,
)
from westernroses.dice import verify
from westernroses.house_rules import HouseRules
from westernroses.rng import RandomSource

FAST = settings(max_examples=60, deadline=None)


class Scripted:
    """Dice chosen by the test, in order (like a GM typing in physical dice)."""

    def __init__(self, dice: Iterable[int]) -> None:
        self._dice = list(dice)
        self.seed = 0
        self.sequence = 0

    def d6(self) -> int:
        self.sequence += 1
        return self._dice.pop(0)

    @property
    def left(self) -> int:
        return len(self._dice)


# --------------------------------------------------------------------------- pools


@pytest.mark.parametrize(
    ("stat", "dice"),
    [(12, 4), (18, 6), (13, 4), (14, 4), (15, 5), (3, 1), (2, 1), (0, 1), (-4, 1), (300, 100)],
)
def test_pool_size(stat: int, dice: int) -> None:
    """Basic rolls: "a pony with a power of 12 ... four dice ... an oni with a power of 18 ...
    six"; "round down"; ruling 1: at least 1 die."""
    assert pool_size(stat) == dice


def test_pool_size_follows_house_rules() -> None:
    """Ruling 1 is a house rule: stat per die and the minimum pool can be changed."""
    assert pool_size(12, HouseRules(stat_per_die=2)) == 6
    assert pool_size(2, HouseRules(min_dice=0)) == 0
    assert pool_size(2, HouseRules(min_dice=2)) == 2


# --------------------------------------------------------------------------- criticals


def test_critical_bands_for_the_pony() -> None:
    """Critical Success and Failure: on 4d "a 22, 23, and a 24" succeed; "a 4, 5, or 6" fail."""
    bands = critical_bands(4)
    assert list(bands.success) == [22, 23, 24]
    assert list(bands.failure) == [4, 5, 6]


@pytest.mark.parametrize(
    ("dice", "band", "success", "failure"),
    [
        (1, 3, [4, 5, 6], [1, 2, 3]),  # every 1d roll is critical
        (2, 3, [10, 11, 12], [2, 3, 4]),
        (3, 3, [16, 17, 18], [3, 4, 5]),
        (6, 3, [34, 35, 36], [6, 7, 8]),
        (0, 3, [], []),  # no dice: the only total is the average, never critical
        (1, 4, [4, 5, 6], [1, 2, 3]),  # widened band: split at the average 3.5
        (2, 6, [8, 9, 10, 11, 12], [2, 3, 4, 5, 6]),  # 7 is the average: neither
        (2, 10, [8, 9, 10, 11, 12], [2, 3, 4, 5, 6]),
        (4, 0, [], []),  # house rule: no criticals
        (4, 1, [24], [4]),
    ],
)
def test_small_pools_and_overlapping_bands(
    dice: int, band: int, success: list[int], failure: list[int]
) -> None:
    """Critical Success and Failure / ruling 2, small pools: bands are taken literally; where a
    widened band would overlap, neither band crosses the pool's average."""
    bands = critical_bands(dice, HouseRules(critical_band=band))
    assert list(bands.success) == success
    assert list(bands.failure) == failure


@FAST
@given(st.integers(0, 100), st.integers(0, 10))
def test_bands_never_overlap_and_stay_in_range(dice: int, band: int) -> None:
    """Ruling 2: at most `critical_band` totals at each end, inside what the pool can roll."""
    bands = critical_bands(dice, HouseRules(critical_band=band))
    assert not set(bands.success) & set(bands.failure)
    assert len(bands.success) <= band and len(bands.failure) <= band
    assert all(dice <= t <= 6 * dice for t in [*bands.success, *bands.failure])
    above_average = 6 * dice - 7 * dice // 2  # totals strictly above 3.5 per die
    assert len(bands.success) == len(bands.failure) == min(band, above_average)


# --------------------------------------------------------------------------- checks


def test_pony_cannot_lift_the_boulder_without_a_critical() -> None:
    """Basic rolls: the boulder is a 25, "24 is the highest that can be rolled on four dice";
    21 (no critical) fails."""
    result = check(4, 0, 25, Scripted([6, 6, 6, 3]))
    assert (result.total, result.success, result.critical) == (21, False, None)
    assert result.outcome is Outcome.FAILURE


def test_critical_success_lifts_the_boulder() -> None:
    """Critical Success: "she manages to lift this enormous boulder": 22 vs 25 succeeds because
    25 - 22 < 10."""
    result = check(4, 0, 25, Scripted([6, 6, 6, 4]))
    assert (result.total, result.margin) == (22, -3)
    assert result.success is True
    assert result.critical is Critical.SUCCESS
    assert result.outcome is Outcome.CRITICAL_SUCCESS


@pytest.mark.parametrize(
    ("modifier", "target", "succeeds"),
    [(-7, 25, False), (-6, 25, True), (0, 32, False), (0, 31, True), (-3, 25, True)],
)
def test_critical_success_ten_or_more_below_target_fails(
    modifier: int, target: int, succeeds: bool
) -> None:
    """Critical Success: "if a critical success is still 10 or more lower than the target number,
    even a critical success is considered a failure" (the total counts, modifiers included)."""
    result = check(4, modifier, target, Scripted([6, 6, 6, 4]))  # dice 22: in the band
    assert result.critical is Critical.SUCCESS
    assert result.success is succeeds
    assert result.outcome is (Outcome.CRITICAL_SUCCESS if succeeds else Outcome.FAILURE)


def test_critical_failure_always_fails_even_above_target() -> None:
    """Critical Failure: "a roll within 3 of the lowest ... is always a failure"; ruling 2:
    modifiers don't move the band, so 4d+20 rolling 4 (total 24) still fails against 12."""
    result = check(4, 20, 12, Scripted([1, 1, 1, 1]))
    assert (result.total, result.margin) == (24, 12)
    assert result.success is False
    assert result.outcome is Outcome.CRITICAL_FAILURE


def test_modifiers_do_not_move_the_critical_band() -> None:
    """Ruling 2: criticals are on the dice alone: 4d+4 totalling 25 from 21 dice is no critical,
    4d-4 totalling 18 from 22 dice is."""
    assert check(4, 4, None, Scripted([6, 6, 6, 3])).critical is None
    assert check(4, -4, None, Scripted([6, 6, 6, 4])).critical is Critical.SUCCESS


@pytest.mark.parametrize(
    ("dice", "target", "margin", "success"),
    [((3, 3, 2), 15, -7, False), ((5, 5, 5), 8, 7, True)],
)
def test_margin_of_success_and_failure(
    dice: tuple[int, ...], target: int, margin: int, success: bool
) -> None:
    """Degree of Success and Failure: "rolling an 8 on a target of 15 gives you a margin of
    failure of 7, and rolling a 15 on a target of 8 gives you a margin of success of 7"."""
    result = check(3, 0, target, Scripted(dice))
    assert result.critical is None
    assert (result.margin, result.success) == (margin, success)


def test_success_is_strictly_greater_than_target() -> None:
    """Basic rolls: "roll higher than 25"; ruling 1: total must be strictly greater."""
    assert check(3, 0, 12, Scripted([4, 4, 4])).success is False
    assert check(3, 0, 12, Scripted([4, 4, 5])).success is True


def test_check_without_target_reports_total_and_critical_only() -> None:
    """Versus Checks: with no target number there is no success, only a total."""
    result = check(2, 1, None, Scripted([6, 6]))
    assert (result.total, result.margin, result.success, result.outcome) == (13, None, None, None)
    assert result.critical is Critical.SUCCESS


def test_one_die_rolls_are_always_critical() -> None:
    """Ruling (small pools): with 1d every face is critical; a 4 still beats 12 (12 - 4 < 10)."""
    outcomes = [check(1, 0, 12, Scripted([face])).outcome for face in range(1, 7)]
    assert outcomes == [Outcome.CRITICAL_FAILURE] * 3 + [Outcome.CRITICAL_SUCCESS] * 3


def test_zero_dice_pool_never_criticals() -> None:
    """Ruling (small pools): with min_dice 0 a stat of 2 rolls nothing; the modifier decides."""
    rules = HouseRules(min_dice=0)
    result = stat_check(2, 5, 4, RandomSource(1), rules)
    assert (result.dice, result.total, result.success, result.critical) == (0, 5, True, None)


def test_stat_check_uses_the_pool_and_records_the_stat() -> None:
    """Basic rolls: a pony with PWR 12 rolls 4d."""
    result = stat_check(12, 4, 25, RandomSource(3))
    assert (result.dice, result.modifier, result.stat) == (4, 4, 12)
    assert result.roll.notation == "4d+4"
    assert verify(result.roll)


@FAST
@given(
    st.integers(0, 8),
    st.integers(-30, 30),
    st.integers(-10, 60),
    st.integers(0, 2**53 - 1),
    st.integers(0, 5),
    st.integers(1, 12),
)
def test_check_matches_judge(
    dice: int, modifier: int, target: int, seed: int, band: int, margin: int
) -> None:
    """Critical Success and Failure: a live check reads its dice exactly as the odds do."""
    rules = HouseRules(critical_band=band, critical_fail_margin=margin)
    result = check(dice, modifier, target, RandomSource(seed), rules)
    j = judge(result.dice_total, dice, modifier, target, rules)
    assert (result.total, result.margin, result.success, result.critical, result.outcome) == (
        j.total,
        j.margin,
        j.success,
        j.critical,
        j.outcome,
    )
    assert result.success == (result.outcome in (Outcome.SUCCESS, Outcome.CRITICAL_SUCCESS))


def test_check_result_round_trips_and_records_house_rules() -> None:
    """House rules that changed a result are recorded with it; results load back from JSON."""
    rules = HouseRules(critical_band=4, element_cost_same_cycle=10)
    result = check(4, 2, 20, RandomSource(11), rules)
    data = json.loads(json.dumps(result.to_dict()))
    assert data["house_rules"] == {"critical_band": 4}  # only those that affect checks
    assert result.rules == HouseRules(critical_band=4)
    assert CheckResult.from_dict(data) == result


@pytest.mark.parametrize("key", ["total", "success", "outcome", "critical"])
def test_check_result_from_dict_rejects_a_doctored_verdict(key: str) -> None:
    """A stored result is re-judged from its roll: an edited total or verdict is refused."""
    data = check(4, 0, 12, Scripted([1, 1, 1, 1])).to_dict()
    data[key] = {"total": 99, "success": True, "outcome": "success", "critical": None}[key]
    with pytest.raises(ValueError):
        CheckResult.from_dict(data)


# --------------------------------------------------------------------------- Lucky


def test_lucky_rerolls_and_must_use_the_new_roll() -> None:
    """Lucky: "re-roll a roll of your choice made this turn, using the new roll as your result"
    (even when the new roll is worse); the old roll is kept in the log."""
    first = check(4, 0, 12, Scripted([6, 6, 6, 6]))
    second = reroll(first, Scripted([1, 2, 1, 2]))
    assert (first.success, second.success) == (True, False)
    assert second.rerolled_from == first
    assert (second.dice, second.modifier, second.target) == (4, 0, 12)
    data = json.loads(json.dumps(second.to_dict()))
    assert data["rerolled_from"]["total"] == 24
    assert CheckResult.from_dict(data) == second


def test_lucky_cannot_reroll_a_reroll() -> None:
    """Lucky, ruling: "once per battle"; a re-rolled roll stands and can't be re-rolled again."""
    again = reroll(check(2, 0, 7, RandomSource(1)), RandomSource(2))
    with pytest.raises(AlreadyRerolled):
        reroll(again, RandomSource(3))


def test_lucky_keeps_house_rules_and_stat() -> None:
    """Lucky re-rolls the same check: same pool, modifier, target and house rules."""
    rules = HouseRules(critical_band=1)
    first = stat_check(9, 1, 10, RandomSource(4), rules)
    second = reroll(first, RandomSource(5))
    assert (second.stat, second.dice, second.rules) == (9, 3, rules)


# --------------------------------------------------------------------------- versus


def _p(pid: str, dice: int = 3, modifier: int = 0) -> Participant:
    return Participant(pid, dice, modifier)


def test_versus_with_target_one_success_wins() -> None:
    """Versus Checks: "one player succeeds while all others fail then the winner is obvious"."""
    result = versus([_p("a"), _p("b"), _p("c")], 10, Scripted([4, 4, 4, 2, 3, 3, 3, 3, 3]))
    assert result.winner == "a"
    assert len(result.rounds) == 1


def test_versus_greatest_margin_of_success_wins() -> None:
    """Versus Checks: "If more than one character succeeds then the winner is the one with the
    greatest margin of success" (here b: 15 - 10 beats a: 12 - 10)."""
    result = versus([_p("a"), _p("b", 3, 3)], 10, Scripted([4, 4, 4, 4, 4, 4]))
    assert [r.total for _, r in result.rounds[0].results] == [12, 15]
    assert result.winner == "b"


def test_versus_all_fail_no_one_wins_by_default() -> None:
    """Versus Checks: "If everypony fails then either no one wins or ..." Ruling: no one."""
    result = versus([_p("a"), _p("b")], 15, Scripted([3, 3, 3, 4, 4, 4]))
    assert result.winner is None
    assert result.all_fail is AllFail.NO_WINNER


def test_versus_all_fail_closest_option() -> None:
    """Versus Checks: "... or the winner is the character with the lowest margin of failure"."""
    result = versus([_p("a"), _p("b")], 15, Scripted([3, 3, 3, 4, 4, 4]), all_fail=AllFail.CLOSEST)
    assert result.winner == "b"


def test_versus_critical_failure_never_wins() -> None:
    """Ruling: a critical failure "is always a failure", so it can't win even as the closest
    (a: 3d+10 rolls 3 dice = 13 vs 15, critical; b: 3d rolls 9)."""
    result = versus(
        [_p("a", 3, 10), _p("b")], 15, Scripted([1, 1, 1, 3, 3, 3]), all_fail=AllFail.CLOSEST
    )
    assert result.result_for("a").outcome is Outcome.CRITICAL_FAILURE
    assert result.winner == "b"


def test_versus_critical_success_below_target_counts_as_success_by_margin() -> None:
    """Ruling: criticals only decide success; margin ranks successes. A 4d critical 22 vs 25
    succeeds (margin -3): it beats a failure, and loses to a success with a higher margin."""
    vs_fail = versus([_p("a", 4), _p("b", 4)], 25, Scripted([6, 6, 6, 4, 6, 6, 6, 3]))
    assert vs_fail.winner == "a"
    vs_success = versus([_p("a", 4), _p("b", 4, 10)], 25, Scripted([6, 6, 6, 4, 5, 5, 5, 5]))
    assert vs_success.result_for("b").margin == 5
    assert vs_success.winner == "b"


def test_versus_without_target_higher_total_wins() -> None:
    """Versus Checks: "In cases when there is no target number ... the higher roller wins";
    a critical failure with a big modifier can still be the higher roll."""
    result = versus([_p("a", 4, 20), _p("b", 4)], None, Scripted([1, 1, 1, 1, 5, 5, 5, 5]))
    assert result.result_for("a").critical is Critical.FAILURE
    assert result.winner == "a"


def test_ties_reroll_only_the_tied_leaders() -> None:
    """Ruling 11 / Versus Checks: ties between would-be winners are re-rolled by the tied ones
    only, until broken; every round is kept."""
    dice = [3, 3, 3, 3, 3, 3, 1, 1, 1]  # a 9, b 9, c 3
    dice += [2, 2, 2, 2, 2, 2]  # tie-break 1: a 6, b 6
    dice += [5, 5, 5, 4, 4, 4]  # tie-break 2: a 15, b 12
    source = Scripted(dice)
    result = versus([_p("a"), _p("b"), _p("c")], None, source)
    assert source.left == 0
    assert [r.kind for r in result.rounds] == [
        RoundKind.CHECK,
        RoundKind.TIE_BREAK,
        RoundKind.TIE_BREAK,
    ]
    assert [r.leaders for r in result.rounds] == [("a", "b"), ("a", "b"), ("a",)]
    assert [pid for pid, _ in result.rounds[1].results] == ["a", "b"]
    assert result.winner == "a"


def test_tie_between_successes_is_broken_without_the_target() -> None:
    """Ruling: the tie-break only decides between the tied leaders, so it has no target: two
    successes tied at 12 vs 10 still produce a winner even if both re-roll below 10."""
    dice = [4, 4, 4, 4, 4, 4, 1, 2, 2, 2, 1, 1]  # 12 / 12, then 5 / 4
    result = versus([_p("a"), _p("b")], 10, Scripted(dice))
    assert result.rounds[1].kind is RoundKind.TIE_BREAK
    assert all(r.target is None for _, r in result.rounds[1].results)
    assert result.winner == "a"


def test_tie_between_no_dice_pools_cannot_break() -> None:
    """Ruling: participants rolling no dice (house rule min_dice 0) can't break a tie."""
    result = versus([_p("a", 0, 3), _p("b", 0, 3), _p("c", 1)], None, Scripted([2]))
    assert result.winner is None
    assert result.unbroken_tie == ("a", "b")
    assert VersusResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result


@pytest.mark.parametrize(
    "people",
    [[Participant("a", 2)], [Participant("a", 2), Participant("a", 3)], []],
)
def test_versus_needs_two_distinct_participants(people: list[Participant]) -> None:
    """Versus Checks: "two or more characters"."""
    with pytest.raises(ValueError):
        versus(people, None, RandomSource(1))


@FAST
@given(
    st.lists(st.tuples(st.integers(0, 6), st.integers(-5, 5)), min_size=2, max_size=5),
    st.one_of(st.none(), st.integers(0, 30)),
    st.sampled_from(AllFail),
    st.integers(0, 2**53 - 1),
)
def test_versus_winner_has_the_best_rank_and_reloads(
    specs: list[tuple[int, int]], target: int | None, all_fail: AllFail, seed: int
) -> None:
    """Versus Checks: the winner came out on top of the first round (ties re-rolled), and the
    whole log reloads from JSON with the same verdict."""
    people = [Participant(f"p{i}", d, m) for i, (d, m) in enumerate(specs)]
    result = versus(people, target, RandomSource(seed), all_fail=all_fail)
    ranks = {pid: versus_rank(r, all_fail) for pid, r in result.rounds[0].results}
    best = max((k for k in ranks.values() if k is not None), default=None)
    assert result.rounds[0].leaders == tuple(pid for pid, k in ranks.items() if best and k == best)
    if result.winner is not None:
        assert ranks[result.winner] == best
    else:
        assert best is None or result.unbroken_tie
    for rnd in result.rounds:
        for _, r in rnd.results:
            assert verify(r.roll)
    assert VersusResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result


def test_versus_from_dict_rejects_a_doctored_winner() -> None:
    """A stored versus must follow from its rolls."""
    data = versus([_p("a"), _p("b")], None, Scripted([6, 6, 6, 1, 1, 1])).to_dict()
    data["winner"] = "b"
    with pytest.raises(ValueError):
        VersusResult.from_dict(data)


def test_lucky_in_a_versus() -> None:
    """Lucky in a versus (e.g. a physical attack, PWR vs CHA): the loser re-rolls their roll,
    the other roll stands, ties are re-resolved; each side may use its own Lucky once."""
    first = versus([_p("att"), _p("def")], None, Scripted([2, 2, 2, 4, 4, 4]))
    assert first.winner == "def"
    second = reroll_versus(first, "att", Scripted([6, 6, 6]))
    assert second.winner == "att"
    assert second.result_for("def") == first.result_for("def")
    assert second.result_for("att").rerolled_from == first.result_for("att")
    assert (second.rerolled, second.previous) == ("att", first)
    with pytest.raises(AlreadyRerolled):
        reroll_versus(second, "att", RandomSource(1))
    third = reroll_versus(second, "def", Scripted([6, 6, 6, 1, 1, 1, 2, 2, 2]))
    assert [r.kind for r in third.rounds] == [RoundKind.CHECK, RoundKind.TIE_BREAK]
    assert third.winner == "def"
    assert VersusResult.from_dict(json.loads(json.dumps(third.to_dict()))) == third
    with pytest.raises(ValueError):
        reroll_versus(third, "nobody", RandomSource(1))


# --------------------------------------------------------------------------- purity


def test_engine_imports_no_django() -> None:
    """The engine is pure Python: importing it pulls in no Django, DRF or Celery."""
    code = (
        "import sys, westernroses.rng, westernroses.dice, westernroses.checks, "
        "westernroses.probability\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework', "
        "'celery')]\n"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)  # noqa: S603


def test_versus_all_fail_follows_the_house_rule():
    """Versus Checks: "If everypony fails then either no one wins or the winner is the
    character with the lowest margin of failure" — a house rule, default no one wins."""
    from westernroses.checks import AllFail, Participant, versus
    from westernroses.house_rules import HouseRules
    from westernroses.probability import versus_odds
    from westernroses.rng import RandomSource

    people = [Participant("a", 2, 0), Participant("b", 2, 0)]
    default = versus(people, 30, RandomSource(seed=1))
    assert default.all_fail is AllFail.NO_WINNER and default.winner is None
    closest_rules = HouseRules(versus_all_fail_closest=1)
    closest = versus(people, 30, RandomSource(seed=1), closest_rules)
    assert closest.all_fail is AllFail.CLOSEST
    # 2d can never reach 30, so under the default no one can win; under CLOSEST someone does
    # unless both roll a critical failure (2-4 on 2d: 6/36 each).
    assert versus_odds(2, 0, 2, 0, 30).no_winner == 1
    assert versus_odds(2, 0, 2, 0, 30, closest_rules).no_winner == Fraction(1, 36)


@pytest.mark.parametrize(
    ("success", "margin", "critical", "words"),
    [
        (True, 3, "", "success by 3"),
        (True, -7, "success", "critical success (7 under the target)"),  # RULINGS 2: 1d rolls 5
        (True, 0, "success", "critical success (level with the target)"),
        (True, 4, "success", "critical success by 4"),
        (False, -12, "success", "failure by 12 (critical dice, but too far below the target)"),
        (False, 0, "", "failure (ties fail: beat the target)"),
        (False, -5, "", "failure by 5"),
        (False, -5, "failure", "critical failure by 5"),
        (
            False,
            2,
            "failure",
            "critical failure (2 over the target: a critical failure always fails)",
        ),
        (None, None, "success", "critical success"),
        (None, None, "", ""),
    ],
)
def test_verdicts_read_in_words_never_with_a_negative_margin(success, margin, critical, words):
    """RULINGS 2: a critical success can succeed below the target, a critical failure fail
    above it; the words never say "success by -7"."""
    assert verdict_words(success=success, margin=margin, critical=critical) == words
