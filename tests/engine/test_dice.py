"""Dice notation, the seeded random source, rolls and their verification (ruleset "Basic rolls")."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from westernroses.dice import (
    MAX_DICE,
    MAX_MODIFIER,
    DiceExpression,
    DiceNotationError,
    EmptyExpression,
    ExpressionTooLong,
    ModifierOutOfRange,
    MultiplierOutOfRange,
    Roll,
    TooFewDice,
    TooManyDice,
    UnexpectedCharacter,
    UnexpectedEnd,
    UnsupportedDie,
    UnsupportedOperation,
    parse,
    roll,
    verify,
)
from westernroses.rng import MAX_SEED, MAX_SEQUENCE, RandomSource, draw

FAST = settings(max_examples=60, deadline=None)

expressions = st.builds(
    DiceExpression,
    dice=st.integers(0, MAX_DICE),
    modifier=st.integers(-MAX_MODIFIER, MAX_MODIFIER),
    multiplier=st.integers(1, 10),
)


# --------------------------------------------------------------------------- ruleset examples


def test_pony_with_strength_spell_rolls_8_to_28() -> None:
    """Basic rolls: "4d+4 meaning that she could now roll between 8 (four ones +4) and 28"."""
    expr = parse("4d+4")
    assert (expr.dice, expr.modifier) == (4, 4)
    assert (expr.min_total, expr.max_total) == (8, 28)


def test_plastered_oni_tops_out_at_32() -> None:
    """Basic rolls: the plastered oni rolls 6d-4: "the highest she can roll is a 32"."""
    assert parse("6d-4").max_total == 32
    assert parse("6d−4").max_total == 32  # typographic minus, as pasted from documents


def test_four_dice_with_plus_4_and_minus_2_is_4d_plus_2() -> None:
    """Basic rolls: "four dice with a +4 and -2 modifier would be abbreviated as 4d+2"."""
    expr = parse("4d+4-2")
    assert expr == parse("4d+2")
    assert str(expr) == "4d+2"
    assert expr.modifiers == (4, -2)  # kept for the roll log


def test_four_dice_cannot_reach_25() -> None:
    """Basic rolls: "24 is the highest that can be rolled on four dice"."""
    assert parse("4d").max_total == 24


def test_drunken_master_bare_fists_3dx2() -> None:
    """Drunken Master, Level 1: plastered bare-fist damage "is 3dX2": the dice total doubled."""
    expr = parse("3dX2")
    assert (expr.dice, expr.multiplier, expr.modifier) == (3, 2, 0)
    assert (expr.min_total, expr.max_total) == (6, 36)
    result = roll(expr, RandomSource(5))
    assert result.total == 2 * sum(result.dice)
    assert len(result.dice) == 3


def test_drinking_multiplier_applies_to_dice_not_later_modifiers() -> None:
    """Drunken Master: X binds to the dice before it; a bonus written after is added once."""
    expr = parse("3dx2+4")
    assert str(expr) == "3dX2+4"
    result = roll(expr, RandomSource(9))
    assert result.total == 2 * sum(result.dice) + 4


# --------------------------------------------------------------------------- notation


@pytest.mark.parametrize(
    ("text", "canonical", "dice", "modifier", "multiplier"),
    [
        ("4d", "4d", 4, 0, 1),
        ("4d+2", "4d+2", 4, 2, 1),
        ("3d6", "3d", 3, 0, 1),
        ("3D6", "3d", 3, 0, 1),
        ("10d", "10d", 10, 0, 1),
        ("d", "1d", 1, 0, 1),
        ("d6+1", "1d+1", 1, 1, 1),
        ("  4 D + 4 - 2  ", "4d+2", 4, 2, 1),
        ("2x(3d+1)", "6d+2", 6, 2, 1),
        ("2X(3d+1)", "6d+2", 6, 2, 1),
        ("2*(3d+1)", "6d+2", 6, 2, 1),
        ("2x(2x(d+1))+1d", "5d+4", 5, 4, 1),
        ("(3d+1)", "3d+1", 3, 1, 1),
        ("3dX2", "3dX2", 3, 0, 2),
        ("3dx2", "3dX2", 3, 0, 2),
        ("3d6x2-1", "3dX2-1", 3, -1, 2),
        ("2x(3dX2)", "6dX2", 6, 0, 2),
        ("4d+2d", "6d", 6, 0, 1),
        ("5", "5", 0, 5, 1),
        ("-3", "-3", 0, -3, 1),
        ("+4d", "4d", 4, 0, 1),
        ("0", "0", 0, 0, 1),
        ("2+4d", "4d+2", 4, 2, 1),
    ],
)
def test_notation_forms(
    text: str, canonical: str, dice: int, modifier: int, multiplier: int
) -> None:
    """Basic rolls: "4d", "4d+4" and the forms this app accepts reduce to canonical notation."""
    expr = parse(text)
    assert (expr.dice, expr.modifier, expr.multiplier) == (dice, modifier, multiplier)
    assert str(expr) == canonical


def test_group_multiplier_rolls_the_group_again() -> None:
    """2x(3d+1) is (3d+1) + (3d+1): six separate dice and both +1s in the log."""
    result = roll("2x(3d+1)", RandomSource(1))
    assert len(result.dice) == 6
    assert result.modifiers == (1, 1)
    assert result.total == sum(result.dice) + 2


@pytest.mark.parametrize(
    ("text", "error", "position", "says"),
    [
        ("", EmptyExpression, 0, "expected dice"),
        ("   ", EmptyExpression, 3, "expected dice"),
        ("()", EmptyExpression, 1, "empty parentheses"),
        ("3d8", UnsupportedDie, 2, "six-sided"),
        ("2d20+1", UnsupportedDie, 2, "'2d20'"),
        ("4d+", UnexpectedEnd, 3, "expected a number, 'd' or '('"),
        ("(4d", UnexpectedEnd, 3, "expected ')'"),
        ("3dx", UnexpectedEnd, 3, "whole number after 'X'"),
        ("4d%", UnexpectedCharacter, 2, "expected '+', '-' or the end"),
        ("4d)", UnexpectedCharacter, 2, "found ')'"),
        ("x", UnexpectedCharacter, 0, "expected a number, 'd' or '('"),
        ("1 2d", UnexpectedCharacter, 2, "found '2'"),
        ("4d+-2", UnexpectedCharacter, 3, "found '-'"),
        ("2x3d", UnexpectedCharacter, 2, "'(' after '2x'"),
        ("4d + 2q", UnexpectedCharacter, 6, "found 'q'"),
        ("0d", TooFewDice, 0, "at least 1"),
        ("4d-2d", UnsupportedOperation, 3, "not subtracted"),
        ("-d", UnsupportedOperation, 1, "not subtracted"),
        ("3dX2+1d", UnsupportedOperation, 5, "same multiplier"),
    ],
)
def test_parse_errors_carry_position_and_expectation(
    text: str, error: type[DiceNotationError], position: int, says: str
) -> None:
    """Basic rolls: notation is "4d+4" style; anything else is refused where it goes wrong."""
    with pytest.raises(error) as caught:
        parse(text)
    assert caught.value.position == position
    assert says in str(caught.value)
    assert f"position {position}" in str(caught.value)
    assert isinstance(caught.value, ValueError)
    assert caught.value.notation == text


@pytest.mark.parametrize(
    ("text", "error", "position"),
    [
        ("101d", TooManyDice, 0),
        ("60d+50d", TooManyDice, 4),
        ("10x(10d+1d)", TooManyDice, 0),
        ("11x(1d)", MultiplierOutOfRange, 0),
        ("0x(1d)", MultiplierOutOfRange, 0),
        ("3dX11", MultiplierOutOfRange, 3),
        ("3dX0", MultiplierOutOfRange, 3),
        ("1001", ModifierOutOfRange, 0),
        ("4d-1001", ModifierOutOfRange, 3),
        ("1000+1", ModifierOutOfRange, 5),
        ("10x(1d+200)", ModifierOutOfRange, 0),
        ("10x(10x(10x(0)))", ExpressionTooLong, 0),
        ("1" * 201, ExpressionTooLong, 200),
    ],
)
def test_limits(text: str, error: type[DiceNotationError], position: int) -> None:
    """Limits: 100 dice in all (groups counted per roll), modifiers ±1000, multipliers 1-10."""
    with pytest.raises(error) as caught:
        parse(text)
    assert caught.value.position == position


@pytest.mark.parametrize("text", ["100d", "10x(10d)", "50d+50d", "1000", "4d-1000", "3dX10"])
def test_limits_are_inclusive(text: str) -> None:
    """Limits: exactly 100 dice, ±1000 and X10 are allowed."""
    parse(text)


def test_expression_constructor_validates() -> None:
    """Limits apply to expressions built in code too (checks build them from stat pools)."""
    with pytest.raises(ValueError, match="dice"):
        DiceExpression(101)
    with pytest.raises(ValueError, match="modifier"):
        DiceExpression(1, 1001)
    with pytest.raises(ValueError, match="multiplier"):
        DiceExpression(1, 0, 11)
    with pytest.raises(ValueError, match="add up"):
        DiceExpression(1, 3, modifiers=(1, 1))
    with pytest.raises(TypeError):
        DiceExpression(True)  # type: ignore[arg-type]
    assert DiceExpression(0, 5, 3).multiplier == 1  # the multiplier only scales dice
    assert DiceExpression(4, 2).modifiers == (2,)


@FAST
@given(expressions)
def test_canonical_notation_round_trips(expr: DiceExpression) -> None:
    """Canonical notation ("4d+2", "3dX2") parses back to the same expression."""
    again = parse(str(expr))
    assert again == expr
    assert str(again) == str(expr)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789dDxX6+-*() ×−%q", max_size=30))
def test_parser_only_ever_raises_notation_errors(text: str) -> None:
    """Fuzz: any input either parses within the limits or raises a DiceNotationError."""
    try:
        expr = parse(text)
    except DiceNotationError as exc:
        assert 0 <= exc.position <= len(text)
    else:
        assert 0 <= expr.dice <= MAX_DICE
        assert abs(expr.modifier) <= MAX_MODIFIER


# --------------------------------------------------------------------------- random source


def test_random_source_known_answers() -> None:
    """Persisted replays: these values are frozen. If this fails, old logs no longer verify."""
    assert RandomSource(0).roll_d6(10) == (5, 3, 6, 4, 6, 1, 6, 1, 4, 3)
    assert RandomSource(20240601, 7).roll_d6(5) == (4, 1, 1, 5, 1)
    assert draw(1, 0, 2**64) == 14431045733708096925


def test_random_source_replays_from_seed_and_sequence() -> None:
    """Every die depends only on (seed, index): restarting mid-way continues identically."""
    source = RandomSource(1234)
    first = source.roll_d6(20)
    assert source.sequence == 20
    assert RandomSource(1234).roll_d6(20) == first
    assert RandomSource(1234, 5).roll_d6(15) == first[5:]
    assert RandomSource(1235).roll_d6(20) != first


def test_random_source_serialises_to_json() -> None:
    """A game state stores the source as a small JSON dict and carries on exactly."""
    source = RandomSource(99)
    source.roll_d6(7)
    state = json.loads(json.dumps(source.to_dict()))
    assert state == {"algorithm": "sha256-v1", "seed": 99, "sequence": 7}
    restored = RandomSource.from_dict(state)
    assert restored == source
    assert restored.roll_d6(5) == source.roll_d6(5)


@pytest.mark.parametrize(
    "state",
    [
        {"algorithm": "mt19937", "seed": 1},
        {"sequence": 3},
        {"seed": -1},
        {"seed": MAX_SEED + 1},
        {"seed": 1, "sequence": -1},
    ],
)
def test_random_source_rejects_bad_state(state: dict[str, object]) -> None:
    """Stored state is validated; a wrong algorithm would replay different dice."""
    with pytest.raises(ValueError):
        RandomSource.from_dict(state)


def test_random_source_from_entropy() -> None:
    """Live rolls get a fresh JSON-safe seed from the OS CSPRNG."""
    seeds = {RandomSource.from_entropy().seed for _ in range(20)}
    assert len(seeds) == 20
    assert all(0 <= s <= MAX_SEED for s in seeds)


def test_d6_is_uniform() -> None:
    """All rolls are 6-sided dice: each face comes up a sixth of the time (chi-square, 5 df)."""
    counts = Counter(RandomSource(31337).roll_d6(30_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    expected = 30_000 / 6
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 20.5  # p ≈ 0.001 for 5 degrees of freedom


@FAST
@given(st.integers(0, MAX_SEED), st.integers(0, 2**40))
def test_d6_is_one_plus_randbelow_six(seed: int, sequence: int) -> None:
    """The die's own fast path draws exactly what ``randbelow(6)`` would, from the same index."""
    fast, checked = RandomSource(seed, sequence), RandomSource(seed, sequence)
    assert [fast.d6() for _ in range(3)] == [1 + checked.randbelow(6) for _ in range(3)]
    assert fast.sequence == checked.sequence == sequence + 3


def test_an_exhausted_source_refuses_a_die() -> None:
    with pytest.raises(OverflowError):
        RandomSource(1, MAX_SEQUENCE).d6()


@FAST
@given(st.integers(0, MAX_SEED), st.integers(1, 2**64))
def test_randbelow_in_range(seed: int, n: int) -> None:
    """randbelow(n) is in range(n) and uses one draw."""
    source = RandomSource(seed)
    assert 0 <= source.randbelow(n) < n
    assert source.sequence == 1


@pytest.mark.parametrize("n", [0, -1, 2**64 + 1])
def test_randbelow_rejects_bad_bounds(n: int) -> None:
    """randbelow needs 1 <= n <= 2**64."""
    with pytest.raises(ValueError):
        RandomSource(1).randbelow(n)


@FAST
@given(st.integers(0, MAX_SEED), st.lists(st.integers(), max_size=40))
def test_shuffle_is_a_deterministic_permutation(seed: int, items: list[int]) -> None:
    """Card and token shuffles replay from the seed too."""
    a, b = list(items), list(items)
    RandomSource(seed).shuffle(a)
    RandomSource(seed).shuffle(b)
    assert a == b
    assert sorted(a) == sorted(items)


@FAST
@given(
    st.integers(0, MAX_SEED),
    st.integers(0, 10**6),
    st.lists(st.integers(), max_size=60),
)
def test_shuffle_is_fisher_yates_over_the_published_draws(
    seed: int, start: int, items: list[int]
) -> None:
    """A persisted shuffle replays from ``draw`` alone: the shuffle's shortcut (the seed's part
    of the key hashed once) gives exactly the draws ``draw(seed, index, n)`` gives."""
    expected = list(items)
    for step, i in enumerate(range(len(items) - 1, 0, -1)):
        j = draw(seed, start + step, i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    source = RandomSource(seed, start)
    shuffled = list(items)
    source.shuffle(shuffled)
    assert shuffled == expected
    assert source.sequence == start + max(0, len(items) - 1)


def test_a_shuffle_that_would_exhaust_the_source_stops_where_it_runs_out() -> None:
    """As before the shortcut: the draws up to the last index are made, then OverflowError."""
    source = RandomSource(3, MAX_SEQUENCE - 2)
    with pytest.raises(OverflowError):
        source.shuffle(list(range(10)))
    assert source.sequence == MAX_SEQUENCE


def test_shuffle_is_unbiased() -> None:
    """Fisher-Yates with unbiased draws: each of the 6 orders of 3 cards is equally likely."""
    source = RandomSource(8)
    counts: Counter[tuple[str, ...]] = Counter()
    for _ in range(6000):
        cards = ["a", "b", "c"]
        source.shuffle(cards)
        counts[tuple(cards)] += 1
    assert len(counts) == 6
    assert all(850 < c < 1150 for c in counts.values())


# --------------------------------------------------------------------------- rolls and verify


@FAST
@given(expressions, st.integers(0, MAX_SEED), st.integers(0, 1000))
def test_roll_totals_and_sequence(expr: DiceExpression, seed: int, start: int) -> None:
    """Basic rolls: total = dice (times X) plus modifiers; the log says where the dice came from."""
    source = RandomSource(seed, start)
    result = roll(expr, source)
    assert len(result.dice) == expr.dice
    assert all(1 <= d <= 6 for d in result.dice)
    assert result.total == expr.multiplier * sum(result.dice) + expr.modifier
    assert expr.min_total <= result.total <= expr.max_total
    assert (result.seed, result.sequence_start) == (seed, start)
    assert source.sequence == result.sequence_end == start + expr.dice
    assert verify(result)


def test_roll_round_trips_through_json() -> None:
    """A logged roll is stored as JSON and still verifies."""
    result = roll("4d+4-2", RandomSource(77, 3))
    data = json.loads(json.dumps(result.to_dict()))
    assert data["modifiers"] == [4, -2]
    again = Roll.from_dict(data)
    assert again == result
    assert verify(again)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("dice", "flip_first_die"),
        ("total", "plus_one"),
        ("modifiers", [4, -1]),
        ("notation", "4d+3"),
        ("notation", "5d+2"),
        ("multiplier", 2),
        ("seed", 78),
        ("sequence_start", 4),
        ("seed", -5),
        ("notation", "garbage"),
    ],
)
def test_verify_detects_tampering(field: str, value: object) -> None:
    """A roll edited after the fact (a die, the total, a modifier, the seed...) fails to verify."""
    data = roll("4d+4-2", RandomSource(77, 3)).to_dict()
    if value == "flip_first_die":
        data["dice"][0] = 6 if data["dice"][0] != 6 else 1
    elif value == "plus_one":
        data["total"] += 1
    else:
        data[field] = value
    assert not verify(Roll.from_dict(data))


class _Fixed:
    """A dice source that is not a RandomSource (e.g. physical dice typed in by the GM)."""

    seed = 0
    sequence = 0

    def d6(self) -> int:
        self.sequence += 1
        return 6


def test_rolls_from_other_sources_cannot_be_verified() -> None:
    """verify re-rolls with the seeded source; dice from elsewhere can't be proven."""
    result = roll("2d", _Fixed())
    assert result.dice == (6, 6)
    assert not verify(result)


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"notation": 4, "dice": [], "modifiers": [], "multiplier": 1, "total": 0, "seed": 0},
        {
            "notation": "1d",
            "dice": ["6"],
            "modifiers": [],
            "multiplier": 1,
            "total": 6,
            "seed": 0,
            "sequence_start": 0,
        },
        {
            "notation": "1d",
            "dice": [6],
            "modifiers": [],
            "multiplier": True,
            "total": 6,
            "seed": 0,
            "sequence_start": 0,
        },
    ],
)
def test_roll_from_dict_rejects_malformed_data(data: dict[str, object]) -> None:
    """Stored rolls are type-checked on load."""
    with pytest.raises(ValueError):
        Roll.from_dict(data)
