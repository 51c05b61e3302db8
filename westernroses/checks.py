"""Checks: dice pools, criticals, targets, versus checks and Lucky re-rolls.

Rules implemented (ruleset v0.6 "Basic rolls" to "Versus Checks", RULINGS 1, 2 and 11); the
choices the rulebook leaves open are marked **Ruling** and listed in ``docs/rulings.md``:

* Pool: floor(stat / ``stat_per_die``) dice, at least ``min_dice`` (ruling 1).
* Success: total (dice + modifiers) strictly greater than the target; margin = total − target.
* Criticals (ruling 2) look at the dice alone: the top ``critical_band`` totals the pool can
  roll are a critical success, the bottom ones a critical failure; modifiers never move them.
  A critical success succeeds unless the target exceeds the total by ``critical_fail_margin``
  or more (then it is an ordinary failure); a critical failure always fails.
* **Ruling (small pools / overlapping bands)**: the bands are taken literally, so with one die
  every result is critical (1–3 failure, 4–6 success) and 2d has 2–4 and 10–12. Bands can only
  overlap when a GM widens ``critical_band`` (4+ on 1d, 6+ on 2d, ...) or a pool has no dice;
  then no band crosses the pool's average: totals above the average can only be critical
  successes, totals below it only critical failures, and the average itself is never critical.
  A pool of 0 dice (``min_dice`` = 0) therefore never rolls a critical.
* ``critical`` on a result says which band the dice landed in; ``outcome`` says what happened.
  A critical success that still failed has ``critical`` = success and ``outcome`` = failure:
  its "unusually good effect" applies only when ``outcome`` is ``critical_success``.

Pure Python: no Django, DRF or Celery imports.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import lru_cache
from typing import Any, Final, Protocol

from westernroses.dice import DiceExpression, Roll, roll
from westernroses.house_rules import DEFAULT_HOUSE_RULES, HouseRules
from westernroses.rng import DiceSource
from westernroses.words import N_, Words


def pool_size(stat: int, rules: HouseRules = DEFAULT_HOUSE_RULES) -> int:
    """Dice rolled for a stat: floor(stat / stat_per_die), at least ``min_dice`` (ruling 1).

    "Basic rolls": a pony with PWR 12 rolls 4d, an oni with PWR 18 rolls 6d. Floor division
    keeps negative stats (curses, drink) at or below zero before the minimum applies.
    """
    return max(stat // rules.stat_per_die, rules.min_dice)


#: House rules that can change a check's result; recorded with every result they changed.
CHECK_RULES: Final = ("stat_per_die", "min_dice", "critical_band", "critical_fail_margin")
#: A tie needs this many re-rolls with probability at most 6**-1000: treated as a bug.
MAX_TIE_BREAK_ROUNDS: Final = 1000


class Critical(StrEnum):
    """Which critical band the dice total fell in."""

    SUCCESS = "success"
    FAILURE = "failure"


class Outcome(StrEnum):
    """What a check against a target came to. The four partition every possible roll."""

    CRITICAL_SUCCESS = "critical_success"
    SUCCESS = "success"
    FAILURE = "failure"
    CRITICAL_FAILURE = "critical_failure"

    @property
    def succeeded(self) -> bool:
        return self in (Outcome.CRITICAL_SUCCESS, Outcome.SUCCESS)


class AllFail(StrEnum):
    """Versus with a target where everyone fails: the rulebook allows either answer.

    **Ruling**: the default is ``NO_WINNER`` (the object nobody could reach stays where it is);
    ``CLOSEST`` makes the lowest margin of failure win. Critical failures never win either way.
    """

    NO_WINNER = "no_winner"
    CLOSEST = "closest"

    @classmethod
    def from_rules(cls, rules: HouseRules) -> AllFail:
        """The campaign's house rule (``versus_all_fail_closest``)."""
        return cls.CLOSEST if rules.versus_all_fail_closest else cls.NO_WINNER


class AlreadyRerolled(ValueError):
    """Lucky: a roll can be re-rolled once, and the new roll stands."""


# --------------------------------------------------------------------------- criticals


@dataclass(frozen=True, slots=True)
class CriticalBands:
    """Dice totals (before modifiers) that are criticals, as inclusive ranges (maybe empty)."""

    success: range
    failure: range

    def critical(self, dice_total: int) -> Critical | None:
        if dice_total in self.success:
            return Critical.SUCCESS
        if dice_total in self.failure:
            return Critical.FAILURE
        return None

    def to_dict(self) -> dict[str, list[int]]:
        return {"success": list(self.success), "failure": list(self.failure)}


def critical_bands(dice: int, rules: HouseRules = DEFAULT_HOUSE_RULES) -> CriticalBands:
    """The critical bands of a pool of ``dice`` d6 (ruling 2; see the module for small pools).

    4d with the default band of 3: success 22–24, failure 4–6. Neither band crosses the pool's
    average (3.5 × dice), which only matters for a widened band or a pool of no dice.
    """
    if dice < 0:
        raise ValueError(f"dice must not be negative, got {dice}")
    band = rules.critical_band
    lowest, highest = dice, 6 * dice
    # 2t > 7n  <=>  t >= 7n // 2 + 1;   2t < 7n  <=>  t <= (7n - 1) // 2
    success_from = max(highest - band + 1, 7 * dice // 2 + 1)
    failure_to = min(lowest + band - 1, (7 * dice - 1) // 2)
    return CriticalBands(range(success_from, highest + 1), range(lowest, failure_to + 1))


# --------------------------------------------------------------------------- judging a total


@dataclass(frozen=True, slots=True)
class Judgement:
    """How a dice total reads against a target; shared by live checks and the odds."""

    dice_total: int
    total: int
    target: int | None
    margin: int | None
    success: bool | None
    critical: Critical | None
    outcome: Outcome | None


def _judge(
    dice_total: int, modifier: int, target: int | None, bands: CriticalBands, rules: HouseRules
) -> Judgement:
    total = dice_total + modifier
    critical = bands.critical(dice_total)
    if target is None:
        return Judgement(dice_total, total, None, None, None, critical, None)
    margin = total - target
    if critical is Critical.FAILURE:
        outcome = Outcome.CRITICAL_FAILURE
    elif critical is Critical.SUCCESS:
        still_succeeds = target - total < rules.critical_fail_margin
        outcome = Outcome.CRITICAL_SUCCESS if still_succeeds else Outcome.FAILURE
    else:
        outcome = Outcome.SUCCESS if total > target else Outcome.FAILURE
    return Judgement(dice_total, total, target, margin, outcome.succeeded, critical, outcome)


def judge(
    dice_total: int,
    dice: int,
    modifier: int,
    target: int | None,
    rules: HouseRules = DEFAULT_HOUSE_RULES,
) -> Judgement:
    """Read ``dice_total`` rolled on ``dice`` d6 with ``modifier`` against ``target``.

    With no target there is no success or margin; the critical band is still reported.
    """
    return _judge(dice_total, modifier, target, critical_bands(dice, rules), rules)


class Judged(Protocol):
    """Anything with a judgement's fields: :class:`Judgement` and :class:`CheckResult`."""

    @property
    def total(self) -> int: ...

    @property
    def target(self) -> int | None: ...

    @property
    def margin(self) -> int | None: ...

    @property
    def success(self) -> bool | None: ...

    @property
    def outcome(self) -> Outcome | None: ...


def versus_rank(judged: Judged, all_fail: AllFail = AllFail.NO_WINNER) -> tuple[int, int] | None:
    """Sort key for a versus: the highest wins, equal keys tie, ``None`` cannot win.

    "Versus Checks": with a target, any success beats any failure and the greatest margin of
    success wins; if all fail, ``all_fail`` decides. Without a target, the higher total wins.
    **Ruling**: criticals only matter through success and failure (the text ranks by margin,
    not by critical): a critical success that succeeded below the target ranks by its negative
    margin, and a critical failure can never win a versus with a target, even under ``CLOSEST``.
    Without a target criticals don't change the winner; they are still recorded for the GM.
    """
    if judged.target is None:
        return (0, judged.total)
    if judged.margin is None:
        raise ValueError("a result with a target must have a margin")
    if judged.success:
        return (2, judged.margin)
    if judged.outcome == Outcome.FAILURE and all_fail == AllFail.CLOSEST:
        return (1, judged.margin)
    return None


# --------------------------------------------------------------------------- checks


def _rules_record(rules: HouseRules) -> dict[str, int]:
    return dict(_check_rules_changed(rules))


@lru_cache(maxsize=64)
def _check_rules_changed(rules: HouseRules) -> tuple[tuple[str, int], ...]:
    """The check rules ``rules`` changes. Every check and every result's record reads them, and
    a campaign has few distinct sets of house rules, so they are worked out once per set."""
    return tuple((name, value) for name, value in rules.changed().items() if name in CHECK_RULES)


@lru_cache(maxsize=64)
def _check_rules(rules: HouseRules) -> HouseRules:
    """Only the house rules a check depends on (the rest at their defaults), so a result
    equals itself after a round trip through :meth:`CheckResult.to_dict`."""
    return HouseRules.from_dict(_rules_record(rules))


@dataclass(frozen=True, slots=True)
class CheckResult:
    """One check as logged. ``rerolled_from`` is the roll this one replaced (Lucky).

    ``rules`` keeps only the house rules checks depend on (:data:`CHECK_RULES`).
    """

    roll: Roll
    dice: int
    modifier: int
    target: int | None
    total: int
    margin: int | None
    success: bool | None
    critical: Critical | None
    outcome: Outcome | None
    rules: HouseRules = field(default=DEFAULT_HOUSE_RULES, repr=False)
    stat: int | None = None
    rerolled_from: CheckResult | None = None

    @property
    def dice_total(self) -> int:
        return self.roll.dice_total

    def to_dict(self) -> dict[str, Any]:
        return {
            "notation": self.roll.notation,
            "stat": self.stat,
            "dice": self.dice,
            "modifier": self.modifier,
            "target": self.target,
            "total": self.total,
            "margin": self.margin,
            "success": self.success,
            "critical": None if self.critical is None else str(self.critical),
            "outcome": None if self.outcome is None else str(self.outcome),
            "roll": self.roll.to_dict(),
            "house_rules": _rules_record(self.rules),
            "rerolled_from": None if self.rerolled_from is None else self.rerolled_from.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CheckResult:
        """Rebuild a logged check, re-judging its roll; ValueError if the stored verdict differs.

        Only the roll, target, stat and house rules are trusted; use
        :func:`westernroses.dice.verify` on ``result.roll`` to check the dice themselves.
        """
        try:
            logged = Roll.from_dict(data["roll"])
            rules = HouseRules.from_dict(data.get("house_rules"))
            previous = data.get("rerolled_from")
            result = _result(
                logged,
                data["target"],
                rules,
                data.get("stat"),
                None if previous is None else cls.from_dict(previous),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a check result: {exc!r}") from None
        stored = {key: data.get(key) for key in ("dice", "modifier", "total", "success")}
        if stored != {
            "dice": result.dice,
            "modifier": result.modifier,
            "total": result.total,
            "success": result.success,
        } or (data.get("outcome"), data.get("critical")) != (
            None if result.outcome is None else str(result.outcome),
            None if result.critical is None else str(result.critical),
        ):
            raise ValueError("stored check result does not match its roll")
        return result


def _result(
    logged: Roll,
    target: int | None,
    rules: HouseRules,
    stat: int | None,
    rerolled_from: CheckResult | None,
) -> CheckResult:
    if logged.multiplier != 1:
        raise ValueError("a check rolls plain dice; multiplied (XN) rolls are for damage")
    dice = len(logged.dice)
    j = judge(logged.dice_total, dice, logged.modifier, target, rules)
    return CheckResult(
        roll=logged,
        dice=dice,
        modifier=logged.modifier,
        target=target,
        total=j.total,
        margin=j.margin,
        success=j.success,
        critical=j.critical,
        outcome=j.outcome,
        rules=_check_rules(rules),
        stat=stat,
        rerolled_from=rerolled_from,
    )


def check(
    dice: int,
    modifier: int,
    target: int | None,
    rng: DiceSource,
    rules: HouseRules = DEFAULT_HOUSE_RULES,
    *,
    stat: int | None = None,
) -> CheckResult:
    """Roll ``dice`` d6 + ``modifier`` against ``target`` (None: just a total, e.g. versus).

    "Basic rolls" / "Critical Success and Failure": see the module docstring for the rules.
    ``stat`` is only recorded (what the pool came from).
    """
    return _result(roll(DiceExpression(dice, modifier), rng), target, rules, stat, None)


def stat_check(
    stat: int,
    modifier: int,
    target: int | None,
    rng: DiceSource,
    rules: HouseRules = DEFAULT_HOUSE_RULES,
) -> CheckResult:
    """A check rolling :func:`pool_size` of ``stat`` ("a roll against her power")."""
    return check(pool_size(stat, rules), modifier, target, rng, rules, stat=stat)


def reroll(result: CheckResult, rng: DiceSource) -> CheckResult:
    """Lucky: "Once per battle you may re-roll a roll of your choice made this turn, using the new
    roll as your result."

    The new roll (same dice, modifier, target and house rules) replaces the old one even when it
    is worse; the old one is kept in ``rerolled_from``. **Ruling**: a roll is re-rolled at most
    once (the re-roll stands), and Lucky re-rolls its owner's own rolls. Once per battle and
    "made this turn" are for the caller (the battle state) to enforce.
    """
    if result.rerolled_from is not None:
        raise AlreadyRerolled("this roll was already re-rolled with Lucky; the re-roll stands")
    again = check(result.dice, result.modifier, result.target, rng, result.rules, stat=result.stat)
    return replace(again, rerolled_from=result)


# --------------------------------------------------------------------------- in words


def verdict(*, success: bool | None, margin: int | None, critical: str | None) -> Words | None:
    """A logged roll's verdict as a reader says it, for every page and message that shows one
    (:class:`~westernroses.words.Words`, translated where it is shown; None: no verdict).

    ``critical`` is the band the dice fell in (``"success"``, ``"failure"`` or empty). A
    critical success may succeed at or below the target (ruling 2): it reads "critical success
    (7 under the target)", never "success by -7"; a critical failure may fail above it.
    """
    band = Critical(critical) if critical else None
    if success is None or margin is None:
        if band is Critical.SUCCESS:
            return Words(N_("critical success"))
        if band is Critical.FAILURE:
            return Words(N_("critical failure"))
        if success is None:
            return None
        return Words(N_("success") if success else N_("failure"))
    if success:
        if band is Critical.SUCCESS:
            if margin > 0:
                return Words(N_("critical success by %(margin)s"), {"margin": margin})
            if margin == 0:
                return Words(N_("critical success (level with the target)"))
            return Words(N_("critical success (%(margin)s under the target)"), {"margin": -margin})
        return Words(N_("success by %(margin)s"), {"margin": margin})
    if band is Critical.FAILURE:
        if margin < 0:
            return Words(N_("critical failure by %(margin)s"), {"margin": -margin})
        if margin == 0:
            return Words(N_("critical failure (level with the target)"))
        return Words(
            N_("critical failure (%(margin)s over the target: a critical failure always fails)"),
            {"margin": margin},
        )
    if margin == 0:
        return Words(N_("failure (ties fail: beat the target)"))
    if band is Critical.SUCCESS:
        return Words(
            N_("failure by %(margin)s (critical dice, but too far below the target)"),
            {"margin": -margin},
        )
    return Words(N_("failure by %(margin)s"), {"margin": -margin})


def verdict_words(*, success: bool | None, margin: int | None, critical: str | None) -> str:
    """:func:`verdict` in English ("" for none), for logs, bots and tests that read English."""
    words = verdict(success=success, margin=margin, critical=critical)
    return "" if words is None else str(words)


# --------------------------------------------------------------------------- versus


@dataclass(frozen=True, slots=True)
class Participant:
    """One side of a versus check: an id (character, token, name) and what it rolls."""

    id: str
    dice: int
    modifier: int = 0

    @classmethod
    def from_stat(
        cls, id: str, stat: int, modifier: int = 0, rules: HouseRules = DEFAULT_HOUSE_RULES
    ) -> Participant:
        return cls(id, pool_size(stat, rules), modifier)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "dice": self.dice, "modifier": self.modifier}


class RoundKind(StrEnum):
    CHECK = "check"  # everyone rolls, against the target if there is one
    TIE_BREAK = "tie_break"  # only the tied leaders roll again; higher total wins


@dataclass(frozen=True, slots=True)
class VersusRound:
    """One round of rolls; ``leaders`` are who came out on top (several: a tie to re-roll)."""

    kind: RoundKind
    results: tuple[tuple[str, CheckResult], ...]
    leaders: tuple[str, ...]

    def result(self, participant_id: str) -> CheckResult:
        for pid, result in self.results:
            if pid == participant_id:
                return result
        raise KeyError(participant_id)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": str(self.kind),
            "results": [{"participant": pid, "result": r.to_dict()} for pid, r in self.results],
            "leaders": list(self.leaders),
        }


@dataclass(frozen=True, slots=True)
class VersusResult:
    """A whole versus check: every round (the log shows every roll) and the winner.

    ``winner`` is None when nobody won (everyone failed under ``NO_WINNER``) or when the tied
    leaders roll no dice at all, so nothing could break the tie (``unbroken_tie`` lists them).
    ``previous`` is the result before a Lucky re-roll by ``rerolled``.
    """

    participants: tuple[Participant, ...]
    target: int | None
    all_fail: AllFail
    rounds: tuple[VersusRound, ...]
    winner: str | None
    unbroken_tie: tuple[str, ...] = ()
    rules: HouseRules = field(default=DEFAULT_HOUSE_RULES, repr=False)
    rerolled: str | None = None
    previous: VersusResult | None = None

    def result_for(self, participant_id: str) -> CheckResult:
        """The participant's roll in the first round (the one the situation is about)."""
        return self.rounds[0].result(participant_id)

    def to_dict(self) -> dict[str, Any]:
        return {
            "participants": [p.to_dict() for p in self.participants],
            "target": self.target,
            "all_fail": str(self.all_fail),
            "rounds": [r.to_dict() for r in self.rounds],
            "winner": self.winner,
            "unbroken_tie": list(self.unbroken_tie),
            "house_rules": _rules_record(self.rules),
            "rerolled": self.rerolled,
            "previous": None if self.previous is None else self.previous.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> VersusResult:
        """Rebuild a logged versus; ValueError unless its rounds, leaders and winner agree."""
        try:
            people = _participants(Participant(**p) for p in data["participants"])
            rounds = tuple(
                VersusRound(
                    RoundKind(r["kind"]),
                    tuple(
                        (str(e["participant"]), CheckResult.from_dict(e["result"]))
                        for e in r["results"]
                    ),
                    tuple(str(pid) for pid in r["leaders"]),
                )
                for r in data["rounds"]
            )
            previous = data.get("previous")
            result = cls(
                participants=people,
                target=data["target"],
                all_fail=AllFail(data["all_fail"]),
                rounds=rounds,
                winner=data["winner"],
                unbroken_tie=tuple(data.get("unbroken_tie", ())),
                rules=HouseRules.from_dict(data.get("house_rules")),
                rerolled=data.get("rerolled"),
                previous=None if previous is None else cls.from_dict(previous),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a versus result: {exc!r}") from None
        _check_consistent(result)
        return result


def _participants(participants: Iterable[Participant]) -> tuple[Participant, ...]:
    people = tuple(participants)
    if len(people) < 2:
        raise ValueError("a versus check needs at least two participants")
    ids = [p.id for p in people]
    if len(set(ids)) != len(ids):
        raise ValueError(f"participant ids must be unique: {ids}")
    return people


def _leaders(results: Sequence[tuple[str, CheckResult]], all_fail: AllFail) -> tuple[str, ...]:
    ranked = [(pid, versus_rank(r, all_fail)) for pid, r in results]
    keys = [key for _, key in ranked if key is not None]
    if not keys:
        return ()
    best = max(keys)
    return tuple(pid for pid, key in ranked if key == best)


def _resolve(
    people: tuple[Participant, ...],
    target: int | None,
    all_fail: AllFail,
    first: tuple[tuple[str, CheckResult], ...],
    rng: DiceSource,
    rules: HouseRules,
) -> VersusResult:
    """Rank the first round, then re-roll only the tied leaders until one is ahead.

    **Ruling**: tie-break rounds have no target: the tied leaders had the same result against
    it, so the re-roll only decides between them and the higher total wins (as ruling 11 does for
    Speed). This also means a tie among successful participants can't turn into "no one wins".
    """
    by_id = {p.id: p for p in people}
    rounds: list[VersusRound] = []
    results, kind = first, RoundKind.CHECK
    while True:
        leaders = _leaders(results, all_fail)
        rounds.append(VersusRound(kind, results, leaders))
        tied = [by_id[pid] for pid in leaders]
        if len(tied) <= 1 or all(p.dice == 0 for p in tied):
            unbroken = leaders if len(tied) > 1 else ()
            return VersusResult(
                participants=people,
                target=target,
                all_fail=all_fail,
                rounds=tuple(rounds),
                winner=leaders[0] if len(leaders) == 1 else None,
                unbroken_tie=unbroken,
                rules=_check_rules(rules),
            )
        if len(rounds) > MAX_TIE_BREAK_ROUNDS:  # pragma: no cover - odds below 6**-1000
            raise RuntimeError(f"tie still unbroken after {MAX_TIE_BREAK_ROUNDS} re-rolls")
        results = tuple((p.id, check(p.dice, p.modifier, None, rng, rules)) for p in tied)
        kind = RoundKind.TIE_BREAK


def _check_consistent(result: VersusResult) -> None:
    """The rounds of a stored versus must follow from its rolls (see :func:`_resolve`)."""
    expected_ids = tuple(p.id for p in result.participants)
    by_id = {p.id: p for p in result.participants}
    for index, rnd in enumerate(result.rounds):
        ids = tuple(pid for pid, _ in rnd.results)
        if ids != expected_ids:
            raise ValueError(f"round {index} has the wrong participants")
        if rnd.kind != (RoundKind.CHECK if index == 0 else RoundKind.TIE_BREAK):
            raise ValueError(f"round {index} has the wrong kind")
        wanted_target = result.target if index == 0 else None
        for pid, r in rnd.results:
            p = by_id[pid]
            if (r.dice, r.modifier, r.target) != (p.dice, p.modifier, wanted_target):
                raise ValueError(f"round {index}: {pid} rolled the wrong check")
        if rnd.leaders != _leaders(rnd.results, result.all_fail):
            raise ValueError(f"round {index}: leaders do not follow from the rolls")
        expected_ids = rnd.leaders
    if not result.rounds:
        raise ValueError("a versus result needs at least one round")
    last = result.rounds[-1].leaders
    winner = last[0] if len(last) == 1 else None
    unbroken = last if len(last) > 1 else ()
    if (result.winner, result.unbroken_tie) != (winner, unbroken) or (
        unbroken and any(by_id[pid].dice for pid in unbroken)
    ):
        raise ValueError("winner does not follow from the rounds")


def versus(
    participants: Sequence[Participant],
    target: int | None,
    rng: DiceSource,
    rules: HouseRules = DEFAULT_HOUSE_RULES,
    all_fail: AllFail | None = None,
) -> VersusResult:
    """A versus check between two or more participants ("Versus Checks").

    With a target: one success wins; several successes, the greatest margin wins; all failed,
    ``all_fail`` decides (default: the house rule, no one wins unless the GM changed it).
    Without a target the highest total wins. Tied leaders re-roll (only they) until one is
    ahead; every round is kept. See :func:`versus_rank` for criticals.
    """
    if all_fail is None:
        all_fail = AllFail.from_rules(rules)
    people = _participants(participants)
    first = tuple((p.id, check(p.dice, p.modifier, target, rng, rules)) for p in people)
    return _resolve(people, target, all_fail, first, rng, rules)


def reroll_versus(result: VersusResult, participant_id: str, rng: DiceSource) -> VersusResult:
    """Lucky in a versus check: ``participant_id`` re-rolls their first-round roll.

    The other first-round rolls stand; any earlier tie-break rounds are dropped (kept in
    ``previous``) and ties are re-resolved with fresh rolls. Each participant's roll can be
    re-rolled once (:class:`AlreadyRerolled`), so two Lucky characters may each use theirs.
    """
    first = result.rounds[0]
    try:
        old = first.result(participant_id)
    except KeyError:
        raise ValueError(f"{participant_id!r} is not in this versus check") from None
    new = reroll(old, rng)
    results = tuple((pid, new if pid == participant_id else r) for pid, r in first.results)
    resolved = _resolve(
        result.participants, result.target, result.all_fail, results, rng, result.rules
    )
    return replace(resolved, rerolled=participant_id, previous=result)
