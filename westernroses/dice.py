"""Dice notation and rolls (ruleset "Basic rolls").

Western Roses only uses six-sided dice: ``4d`` is four of them, ``4d+4-2`` adds modifiers
(the ruleset's "4d+2"). The notation accepted here, case-insensitive and whitespace-tolerant:

* ``4d``, ``d`` (one die), ``4d6`` (the 6 is allowed, any other size is an error);
* ``+n`` / ``-n`` modifiers, and plain integers (``5`` is a roll with no dice);
* ``3dX2``: the drinking form. A plastered Drunken Master's successful attack "results in X2
  damage ... her damage is 3dX2" ("Drunken Master", Level 1). The ``X`` binds to the dice it
  follows: the dice total is multiplied, modifiers written after it are added afterwards
  (``3dX2+4`` = 2 × 3d + 4). The rulebook doubles the whole damage, so the damage code writes a
  flat bonus doubled itself (3d+4 doubled is ``3dX2+8``): the dice stay distinguishable from the
  bonus in the log and in the probabilities;
* ``2x(3d+1)``: a group rolled twice and added, (3d+1) + (3d+1): six dice, +2. Groups may nest;
  ``(3d+1)`` alone is a group rolled once.

Several dice terms add up (``4d+2d`` is ``6d``); dice may not be subtracted, and all dice in one
expression share one ``X`` multiplier, so every expression reduces to the canonical
``{dice}d[X{multiplier}][±{modifier}]`` that :class:`DiceExpression` prints. Limits keep a typo
or an API caller from rolling a million dice: at most 100 dice in all (groups counted as many
times as they are rolled), each modifier and their sum within ±1000, multipliers 1 to 10.

Every roll records the random source's seed and the sequence number of its first die, so
:func:`verify` can re-roll it and prove a logged result was not edited.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from westernroses.rng import DiceSource, RandomSource

MAX_DICE: Final = 100
MAX_MODIFIER: Final = 1000
MAX_MULTIPLIER: Final = 10
#: Notation longer than this is refused before parsing (it also bounds group nesting).
MAX_NOTATION_LENGTH: Final = 200
#: Modifier terms after groups are expanded (``10x(10x(1))`` has 100); bounds memory.
MAX_MODIFIER_TERMS: Final = 100

_TIMES: Final = frozenset("xX*×")
_MINUS: Final = frozenset("-−")  # ASCII hyphen and the typographic minus sign
_DIGITS: Final = frozenset("0123456789")


# --------------------------------------------------------------------------- errors


class DiceNotationError(ValueError):
    """Bad dice notation. ``position`` is the 0-based index into the input where it went wrong;
    ``reason`` is the message without the position (for a form field's error text)."""

    def __init__(self, reason: str, position: int, notation: str = "") -> None:
        super().__init__(f"{reason} (at position {position})")
        self.reason = reason
        self.position = position
        self.notation = notation


class EmptyExpression(DiceNotationError):
    """Nothing to roll: empty input or empty parentheses."""


class UnexpectedCharacter(DiceNotationError):
    """A character that cannot appear there; the message names what was expected."""


class UnexpectedEnd(DiceNotationError):
    """The notation stopped in the middle (``4d+``, ``2x(3d``)."""


class UnsupportedDie(DiceNotationError):
    """A die other than a d6 (``3d8``): Western Roses rolls six-sided dice only."""


class TooFewDice(DiceNotationError):
    """``0d``: a dice term must roll at least one die (write ``0`` for no dice)."""


class TooManyDice(DiceNotationError):
    """More than :data:`MAX_DICE` dice in the whole expression."""


class ModifierOutOfRange(DiceNotationError):
    """A modifier, or the sum of all of them, beyond ±:data:`MAX_MODIFIER`."""


class MultiplierOutOfRange(DiceNotationError):
    """An ``X`` or group multiplier outside 1 to :data:`MAX_MULTIPLIER`."""


class UnsupportedOperation(DiceNotationError):
    """Valid-looking but not meaningful here: subtracted dice, mixed ``X`` multipliers."""


class ExpressionTooLong(DiceNotationError):
    """Longer than :data:`MAX_NOTATION_LENGTH` characters or too many expanded modifiers."""


# --------------------------------------------------------------------------- expressions


def _check_int(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}, got {value}")
    return value


@dataclass(frozen=True, slots=True)
class DiceExpression:
    """A parsed roll: ``multiplier`` × (sum of ``dice`` d6) + ``modifier``.

    ``modifiers`` keeps the individual modifiers as written (``4d+4-2`` → ``(4, -2)``) for the
    roll log; it does not take part in equality: ``4d+4-2 == 4d+2`` because they roll the same.
    """

    dice: int
    modifier: int = 0
    multiplier: int = 1
    modifiers: tuple[int, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        _check_int("dice", self.dice, 0, MAX_DICE)
        _check_int("modifier", self.modifier, -MAX_MODIFIER, MAX_MODIFIER)
        _check_int("multiplier", self.multiplier, 1, MAX_MULTIPLIER)
        if not isinstance(self.modifiers, tuple):
            object.__setattr__(self, "modifiers", tuple(self.modifiers))
        for value in self.modifiers:
            _check_int("each modifier", value, -MAX_MODIFIER, MAX_MODIFIER)
        if not self.modifiers and self.modifier:
            object.__setattr__(self, "modifiers", (self.modifier,))
        elif sum(self.modifiers) != self.modifier:
            raise ValueError(f"modifiers {self.modifiers} do not add up to {self.modifier}")
        if self.dice == 0:
            # The multiplier applies to dice only; without dice it means nothing.
            object.__setattr__(self, "multiplier", 1)

    @classmethod
    def parse(cls, notation: str) -> DiceExpression:
        return parse(notation)

    @property
    def min_total(self) -> int:
        return self.multiplier * self.dice + self.modifier

    @property
    def max_total(self) -> int:
        return self.multiplier * 6 * self.dice + self.modifier

    @property
    def average(self) -> Fraction:
        """Expected total, exactly (3.5 per die)."""
        return Fraction(7 * self.multiplier * self.dice, 2) + self.modifier

    def __str__(self) -> str:
        if self.dice == 0:
            return str(self.modifier)
        text = f"{self.dice}d"
        if self.multiplier != 1:
            text += f"X{self.multiplier}"
        if self.modifier:
            text += f"{self.modifier:+d}"
        return text


# --------------------------------------------------------------------------- parser


@dataclass(slots=True)
class _Part:
    """A sum being parsed, already flattened to dice / multiplier / modifiers."""

    dice: int = 0
    multiplier: int | None = None  # None until a dice term is seen
    modifiers: list[int] = field(default_factory=list)
    modifier_position: int = 0  # where the last modifier term started, for range errors


class _Parser:
    """Recursive descent over::

    expression := sum END
    sum        := ['+' | '-'] term (('+' | '-') term)*
    term       := '(' sum ')' | INT TIMES '(' sum ')' | [INT] 'd' ['6'] [TIMES INT] | INT
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    # -- scanning

    def peek(self) -> str:
        """The next non-space character ('' at the end), leaving ``pos`` on it."""
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expected(self, what: str) -> DiceNotationError:
        char = self.peek()
        if not char:
            return UnexpectedEnd(f"expected {what}, but the notation ended", self.pos, self.text)
        return UnexpectedCharacter(f"expected {what}, found {char!r}", self.pos, self.text)

    def number(self) -> int:
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos] in _DIGITS:
            self.pos += 1
        return int(self.text[start : self.pos])

    # -- grammar

    def expression(self) -> DiceExpression:
        if len(self.text) > MAX_NOTATION_LENGTH:
            raise ExpressionTooLong(
                f"notation is longer than {MAX_NOTATION_LENGTH} characters",
                MAX_NOTATION_LENGTH,
                self.text,
            )
        if not self.peek():
            raise EmptyExpression("expected dice such as '4d+2', got nothing", self.pos, self.text)
        part = self.sum()
        if self.peek():
            raise self.expected("'+', '-' or the end of the notation")  # e.g. '4d%', '4d)'
        total = sum(part.modifiers)
        if abs(total) > MAX_MODIFIER:
            raise ModifierOutOfRange(
                f"modifiers add up to {total}; the limit is ±{MAX_MODIFIER}",
                part.modifier_position,
                self.text,
            )
        return DiceExpression(
            dice=part.dice,
            modifier=total,
            multiplier=part.multiplier or 1,
            modifiers=tuple(part.modifiers),
        )

    def sum(self) -> _Part:
        acc = _Part()
        sign = 1
        char = self.peek()
        if char == "+" or char in _MINUS:
            sign = -1 if char in _MINUS else 1
            self.pos += 1
        self.add_term(acc, sign)
        while (char := self.peek()) == "+" or char in _MINUS:
            self.pos += 1
            self.add_term(acc, -1 if char in _MINUS else 1)
        return acc

    def add_term(self, acc: _Part, sign: int) -> None:
        self.peek()
        start = self.pos
        part = self.term()
        if part.dice:
            if sign < 0:
                raise UnsupportedOperation(
                    "dice can only be added, not subtracted", start, self.text
                )
            if acc.multiplier is not None and acc.multiplier != part.multiplier:
                raise UnsupportedOperation(
                    f"all dice in one roll need the same multiplier "
                    f"(X{acc.multiplier} and X{part.multiplier})",
                    start,
                    self.text,
                )
            acc.multiplier = part.multiplier
            acc.dice += part.dice
            if acc.dice > MAX_DICE:
                raise TooManyDice(
                    f"{acc.dice} dice in all; at most {MAX_DICE} can be rolled", start, self.text
                )
        if part.modifiers:
            acc.modifiers.extend(sign * value for value in part.modifiers)
            acc.modifier_position = start
            if len(acc.modifiers) > MAX_MODIFIER_TERMS:
                raise ExpressionTooLong(
                    f"more than {MAX_MODIFIER_TERMS} modifiers once groups are expanded",
                    start,
                    self.text,
                )

    def term(self) -> _Part:
        start = self.pos
        char = self.peek()
        if char == "(":
            self.pos += 1
            return self.group(1, start)
        if char in ("d", "D"):
            return self.dice(1, start)
        if char in _DIGITS:
            value = self.number()
            char = self.peek()
            if char in ("d", "D"):
                return self.dice(value, start)
            if char in _TIMES:
                self.pos += 1
                if not 1 <= value <= MAX_MULTIPLIER:
                    raise MultiplierOutOfRange(
                        f"a group can be rolled 1 to {MAX_MULTIPLIER} times, not {value}",
                        start,
                        self.text,
                    )
                if self.peek() != "(":
                    raise self.expected(f"'(' after '{value}x', as in '{value}x(3d+1)'")
                self.pos += 1
                return self.group(value, start)
            if value > MAX_MODIFIER:
                raise ModifierOutOfRange(
                    f"modifier {value} is beyond the limit of ±{MAX_MODIFIER}", start, self.text
                )
            return _Part(modifiers=[value], modifier_position=start)
        raise self.expected("a number, 'd' or '('")

    def group(self, times: int, start: int) -> _Part:
        opening = self.pos - 1
        if self.peek() == ")":
            raise EmptyExpression(
                "empty parentheses: expected dice such as '3d+1'", self.pos, self.text
            )
        inner = self.sum()
        if self.peek() != ")":
            raise self.expected(f"')' to close the '(' at position {opening}")
        self.pos += 1
        if inner.dice * times > MAX_DICE:
            raise TooManyDice(
                f"{times} × {inner.dice} dice; at most {MAX_DICE} can be rolled", start, self.text
            )
        if len(inner.modifiers) * times > MAX_MODIFIER_TERMS:
            raise ExpressionTooLong(
                f"more than {MAX_MODIFIER_TERMS} modifiers once groups are expanded",
                start,
                self.text,
            )
        return _Part(
            dice=inner.dice * times,
            multiplier=inner.multiplier,
            modifiers=inner.modifiers * times,
            modifier_position=start,
        )

    def dice(self, count: int, start: int) -> _Part:
        if count < 1:
            raise TooFewDice(
                "a dice term needs at least 1 die (write '0' for no dice)", start, self.text
            )
        if count > MAX_DICE:
            raise TooManyDice(f"{count} dice; at most {MAX_DICE} can be rolled", start, self.text)
        self.pos += 1  # the 'd'
        if self.peek() in _DIGITS:
            size_position = self.pos
            size = self.number()
            if size != 6:
                raise UnsupportedDie(
                    f"only six-sided dice are used: write '{count}d' or '{count}d6', "
                    f"not '{count}d{size}'",
                    size_position,
                    self.text,
                )
        multiplier = 1
        if self.peek() in _TIMES:
            self.pos += 1
            if self.peek() not in _DIGITS:
                raise self.expected("a whole number after 'X', as in '3dX2'")
            multiplier_position = self.pos
            multiplier = self.number()
            if not 1 <= multiplier <= MAX_MULTIPLIER:
                raise MultiplierOutOfRange(
                    f"the dice multiplier must be 1 to {MAX_MULTIPLIER}, not {multiplier}",
                    multiplier_position,
                    self.text,
                )
        return _Part(dice=count, multiplier=multiplier)


def parse(notation: str) -> DiceExpression:
    """Parse dice notation; raises a :class:`DiceNotationError` subclass with the position."""
    if not isinstance(notation, str):
        raise TypeError(f"notation must be a str, not {type(notation).__name__}")
    return _Parser(notation).expression()


# --------------------------------------------------------------------------- rolls


@dataclass(frozen=True, slots=True)
class Roll:
    """One roll as logged: every die, the modifiers, and where in the random source it came from.

    ``total`` = ``multiplier`` × sum(``dice``) + sum(``modifiers``). ``sequence_start`` is the
    random source's sequence number of the first die, so ``seed`` + ``sequence_start`` replay it.
    """

    notation: str
    dice: tuple[int, ...]
    modifiers: tuple[int, ...]
    multiplier: int
    total: int
    seed: int
    sequence_start: int

    @property
    def dice_total(self) -> int:
        """Sum of the dice alone, before the multiplier and modifiers (criticals use this)."""
        return sum(self.dice)

    @property
    def modifier(self) -> int:
        return sum(self.modifiers)

    @property
    def sequence_end(self) -> int:
        """Sequence number just after the last die."""
        return self.sequence_start + len(self.dice)

    def to_dict(self) -> dict[str, Any]:
        return {
            "notation": self.notation,
            "dice": list(self.dice),
            "modifiers": list(self.modifiers),
            "multiplier": self.multiplier,
            "total": self.total,
            "seed": self.seed,
            "sequence_start": self.sequence_start,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Roll:
        """Rebuild a logged roll. Checks types only: use :func:`verify` to check the values."""

        def integer(key: str) -> int:
            value = data[key]
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"roll {key} must be an integer")
            return value

        def integers(key: str) -> tuple[int, ...]:
            values = data[key]
            if not isinstance(values, list | tuple) or any(
                isinstance(v, bool) or not isinstance(v, int) for v in values
            ):
                raise ValueError(f"roll {key} must be a list of integers")
            return tuple(values)

        try:
            notation = data["notation"]
            if not isinstance(notation, str):
                raise ValueError("roll notation must be a string")
            return cls(
                notation=notation,
                dice=integers("dice"),
                modifiers=integers("modifiers"),
                multiplier=integer("multiplier"),
                total=integer("total"),
                seed=integer("seed"),
                sequence_start=integer("sequence_start"),
            )
        except KeyError as exc:
            raise ValueError(f"roll is missing {exc.args[0]!r}") from None


def roll(expr: DiceExpression | str, rng: DiceSource) -> Roll:
    """Roll ``expr`` (parsed first if a string), drawing its dice from ``rng`` in order."""
    expression = parse(expr) if isinstance(expr, str) else expr
    start = rng.sequence
    dice = tuple(rng.d6() for _ in range(expression.dice))
    return Roll(
        notation=str(expression),
        dice=dice,
        modifiers=expression.modifiers,
        multiplier=expression.multiplier,
        total=expression.multiplier * sum(dice) + expression.modifier,
        seed=rng.seed,
        sequence_start=start,
    )


def verify(logged: Roll) -> bool:
    """True when re-rolling ``logged`` from its seed and sequence gives exactly the same roll.

    Catches an edited die, total, modifier, multiplier or notation. Rolls made with a source
    other than :class:`RandomSource` (e.g. dice entered by hand) cannot be verified: False.
    """
    try:
        expression = parse(logged.notation)
        if (
            expression.dice != len(logged.dice)
            or expression.multiplier != logged.multiplier
            or expression.modifier != sum(logged.modifiers)
        ):
            return False
        replay = roll(
            DiceExpression(
                expression.dice, expression.modifier, expression.multiplier, logged.modifiers
            ),
            RandomSource(logged.seed, logged.sequence_start),
        )
    except (ValueError, TypeError):
        return False
    return replay == logged
