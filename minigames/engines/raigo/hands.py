"""Scoring a tower: the hands, their priorities and the additional points ("About hands").

A tower is read bottom to top. Our rulings (docs/games/raigo.md):

* A tower with a heavier token on a lighter one is Unsettled and scores nothing.
* Basic hands need three or more tokens and cover the whole tower (RULINGS RAIGO 2): Sakura (one
  weight), Lotus (each step one lighter), Even / Odd Lotus (all even / odd, each step two lighter).
* Combined, special and Raijin hands need six tokens. In a combined hand "Lotus" is any of the
  three Lotus runs.
* Priority (only the highest hand counts): Raijin, then special (Red Camellia, White Camellia),
  then combined (Double Sakura, Sakura-Lotus, Lotus-Sakura, Double Lotus), then basic (Sakura,
  Lotus, Even Lotus, Odd Lotus).
* Additional points only for basic and combined hands: +1 per token above the third (RULINGS
  RAIGO 3) and +1 when every token is a Spell or every token is Silent.
* White Camellia is three pairs of equal weight, the three weights different; Red Camellia is a
  White Camellia whose pairs are each one token twice. A pair is two tokens, not two of four
  alike: were four tokens of one weight two pairs, six of one weight would be three pairs, and
  every Double Sakura (4 + 3 + 1) would fall to a White Camellia (4) by the priority; and the
  harder Camellia must not be reached where the easier is not.
* The four Raijin hands whose figures are missing (RULINGS RAIGO 4) are fixed patterns, given
  below as data.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Final

from minigames.engines.raigo.tokens import KIND_BY_KEY
from westernroses.words import N_, Words


@dataclass(frozen=True)
class RaijinHand:
    """A Raijin hand: its name, its basic points and the bottom-to-top kind patterns it takes."""

    name: str
    points: int
    patterns: tuple[tuple[str, ...], ...]


def _alternating(a: str, b: str) -> tuple[tuple[str, ...], ...]:
    return ((a, b) * 3, (b, a) * 3)


#: Raijin hands, bottom to top. Sakura-Dance Macabre and Phantom Samsara are given in full by
#: the rulebook (alternating, either token first); the other four are our definitions.
RAIJIN_HANDS: Final[tuple[RaijinHand, ...]] = (
    RaijinHand(
        N_("Justice of Bishamonten"),
        12,
        (("destroy", "katana", "three", "katana", "three", "katana"),),
    ),
    RaijinHand(N_("Phantom Samsara"), 12, _alternating("mist", "six")),
    RaijinHand(
        N_("Rikka-Snow White"),
        12,
        (("purify", "purify", "six", "six", "thunder", "thunder"),),
    ),
    RaijinHand(
        N_("Kasumi-Double Lotus Head"), 11, (("mist", "roar", "shield", "four", "three", "two"),)
    ),
    RaijinHand(N_("Sakura-Dance Macabre"), 11, _alternating("roar", "five")),
    RaijinHand(N_("Shigure-Lotus"), 10, (("seven", "mist", "five", "shield", "three", "snake"),)),
)


@dataclass(frozen=True)
class TowerScore:
    """How a tower scores: the hand (None: no hand), its group, and the points in parts."""

    hand: str | None
    group: str  # "raijin", "special", "combined", "basic", "none" or "unsettled"
    basic: int = 0
    height_bonus: int = 0
    kind_bonus: int = 0

    @property
    def total(self) -> int:
        return self.basic + self.height_bonus + self.kind_bonus

    @property
    def unsettled(self) -> bool:
        return self.group == "unsettled"

    def words(self) -> Words:
        """The breakdown in words, for the move log and the final scoring."""
        if self.group == "unsettled":
            return Words(N_("an Unsettled Tower (a heavier token on a lighter one): no score"))
        if self.hand is None:
            return Words(N_("no hand: no score"))
        parts: list[Words | str] = [
            Words(N_("%(hand)s %(points)s"), {"hand": Words(self.hand), "points": self.basic})
        ]
        if self.height_bonus:
            parts.append(Words(N_("height bonus %(points)s"), {"points": self.height_bonus}))
        if self.kind_bonus:
            parts.append(Words(N_("Spell/Silent bonus 1")))
        summed: Words | str = parts[0]
        for part in parts[1:]:
            summed = Words(N_("%(sum)s + %(part)s"), {"sum": summed, "part": part})
        total = (
            N_("%(sum)s = %(total)s point") if self.total == 1 else N_("%(sum)s = %(total)s points")
        )
        return Words(total, {"sum": summed, "total": self.total})


def is_unsettled(kinds: Sequence[str]) -> bool:
    """A heavier token anywhere directly on top of a lighter one ("Forbiddance", Resolving)."""
    weights = [KIND_BY_KEY[k].weight for k in kinds]
    return any(upper > lower for lower, upper in pairwise(weights))


def _steps(weights: Sequence[int]) -> set[int]:
    return {lower - upper for lower, upper in pairwise(weights)}


def _sakura(weights: Sequence[int]) -> bool:
    return len(weights) >= 3 and _steps(weights) == {0}


def _lotus_kind(weights: Sequence[int]) -> str | None:
    if len(weights) < 3:
        return None
    steps = _steps(weights)
    if steps == {1}:
        return N_("Lotus")
    if steps == {2}:
        return N_("Even Lotus") if weights[0] % 2 == 0 else N_("Odd Lotus")
    return None


def _raijin(kinds: Sequence[str]) -> RaijinHand | None:
    for hand in RAIJIN_HANDS:
        if tuple(kinds) in hand.patterns:
            return hand
    return None


def _special(kinds: Sequence[str], weights: Sequence[int]) -> tuple[str, int] | None:
    """Camellias: three pairs of three different weights; Red when each pair is identical."""
    if sorted(Counter(weights).values()) != [2, 2, 2]:
        return None
    if sorted(Counter(kinds).values()) == [2, 2, 2]:
        return (N_("Red Camellia"), 6)
    return (N_("White Camellia"), 4)


def _combined(weights: Sequence[int]) -> tuple[str, int] | None:
    lower, upper = weights[:3], weights[3:]
    lower_sakura, upper_sakura = _sakura(lower), _sakura(upper)
    lower_lotus, upper_lotus = _lotus_kind(lower) is not None, _lotus_kind(upper) is not None
    if lower_sakura and upper_sakura:
        return (N_("Double Sakura"), 4)
    if upper_sakura and lower_lotus:
        return (N_("Sakura-Lotus"), 3)
    if upper_lotus and lower_sakura:
        return (N_("Lotus-Sakura"), 3)
    if upper_lotus and lower_lotus:
        return (N_("Double Lotus"), 2)
    return None


def _basic(weights: Sequence[int]) -> tuple[str, int] | None:
    if _sakura(weights):
        return (N_("Sakura"), 2)
    lotus = _lotus_kind(weights)
    return (lotus, 1) if lotus else None


def score_tower(kinds: Sequence[str]) -> TowerScore:
    """Score a tower given as kind keys from bottom to top (``["five", "roar", ...]``)."""
    if is_unsettled(kinds):
        return TowerScore(None, "unsettled")
    weights = [KIND_BY_KEY[k].weight for k in kinds]
    if len(kinds) == 6:
        raijin = _raijin(kinds)
        if raijin:
            return TowerScore(raijin.name, "raijin", raijin.points)
        special = _special(kinds, weights)
        if special:
            return TowerScore(special[0], "special", special[1])
    found = _combined(weights) if len(kinds) == 6 else None
    group = "combined"
    if found is None:
        found, group = _basic(weights), "basic"
    if found is None:
        return TowerScore(None, "none")
    spells = {KIND_BY_KEY[k].spell for k in kinds}
    return TowerScore(
        found[0],
        group,
        found[1],
        height_bonus=max(0, len(kinds) - 3),
        kind_bonus=1 if len(spells) == 1 else 0,
    )
