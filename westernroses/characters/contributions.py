"""A number on the sheet and where each part of it comes from.

Players argue with totals they cannot trace; every derived value on the sheet therefore
carries its :class:`Contribution` list (shot-type 9, race +3, bonus points +6 ...) and the
total is always exactly their sum.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


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
