"""A number on the sheet and where each part of it comes from; a check and its modifiers.

Players argue with totals they cannot trace; every derived value on the sheet therefore
carries its :class:`Contribution` list (shot-type 9, race +3, bonus points +6 ...) and the
total is always exactly their sum.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Contribution:
    """One part of a total: ``source`` kind (shot_type, race, ability ...), a label, an amount."""

    source: str
    label: str
    amount: int

    def to_dict(self) -> dict[str, str | int]:
        return {"source": self.source, "label": self.label, "amount": self.amount}


def total(contributions: Iterable[Contribution]) -> int:
    """The sum of the amounts."""
    return sum(c.amount for c in contributions)


def signed(amount: int) -> str:
    """``+2``, ``-1`` or the empty string for 0, as dice notation writes modifiers."""
    return f"{amount:+d}" if amount else ""


def as_dicts(parts: Iterable[Contribution]) -> list[dict[str, str | int]]:
    """Contributions as JSON-ready dicts."""
    return [p.to_dict() for p in parts]


def ceil_div(a: int, b: int) -> int:
    """Division rounded up (RULINGS 3: every division but a dice count rounds up)."""
    return -(-a // b)


@dataclass(frozen=True, slots=True)
class Check:
    """A roll: ``dice`` from the value ``base``, plus the listed modifiers."""

    base: int
    dice: int
    modifiers: tuple[Contribution, ...] = ()

    @property
    def modifier(self) -> int:
        return total(self.modifiers)

    @property
    def expression(self) -> str:
        """Canonical dice notation (``4d+2``); a pool of no dice is just its modifier."""
        if self.dice == 0:
            return str(self.modifier)
        return f"{self.dice}d{signed(self.modifier)}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "base": self.base,
            "dice": self.dice,
            "modifier": self.modifier,
            "expression": self.expression,
            "modifiers": as_dicts(self.modifiers),
        }
