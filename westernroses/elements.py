"""The eight elements and their two cycles (ruleset, "Elements Affinities").

Each element deals double damage to, and takes half damage from, the element it beats; its own
element and every element of the other cycle deal normal damage. Spellcards price an element by
how far it is from the caster's own (RULINGS 6): own, same cycle, other cycle.
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction


class Element(StrEnum):
    FIRE = "fire"
    WATER = "water"
    WOOD = "wood"
    METAL = "metal"
    WIND = "wind"
    LIGHT = "light"
    DARKNESS = "darkness"
    SPIRIT = "spirit"


#: First cycle: Fire, Water, Wood, Metal, Wind. Second cycle: Light, Darkness, Spirit.
CYCLES: tuple[frozenset[Element], ...] = (
    frozenset({Element.FIRE, Element.WATER, Element.WOOD, Element.METAL, Element.WIND}),
    frozenset({Element.LIGHT, Element.DARKNESS, Element.SPIRIT}),
)

#: attacker -> the element it is strong against ("Water douses Fire", "Wind absorbs Water", ...).
BEATS: dict[Element, Element] = {
    Element.WATER: Element.FIRE,
    Element.FIRE: Element.METAL,
    Element.METAL: Element.WOOD,
    Element.WOOD: Element.WIND,
    Element.WIND: Element.WATER,
    Element.LIGHT: Element.DARKNESS,
    Element.DARKNESS: Element.SPIRIT,
    Element.SPIRIT: Element.LIGHT,
}


class ElementDistance(StrEnum):
    """How far a spellcard's element is from its caster's, for pricing (RULINGS 6)."""

    OWN = "own"
    SAME_CYCLE = "same_cycle"
    OTHER_CYCLE = "other_cycle"


def cycle_of(element: Element) -> frozenset[Element]:
    """The cycle an element belongs to."""
    for cycle in CYCLES:
        if element in cycle:
            return cycle
    raise ValueError(f"unknown element {element!r}")  # pragma: no cover - enum is closed


def distance(caster: Element, card: Element) -> ElementDistance:
    """Own element, another of the same cycle, or one of the other cycle."""
    if caster == card:
        return ElementDistance.OWN
    if card in cycle_of(caster):
        return ElementDistance.SAME_CYCLE
    return ElementDistance.OTHER_CYCLE


def damage_multiplier(attack: Element | None, defender: Element | None) -> Fraction:
    """×2 when the attack's element beats the defender's, ×½ when it is beaten, else ×1.

    Non-elemental attacks (``None``) and defenders without an element take normal damage.
    Callers round the multiplied damage up (RULINGS 3).
    """
    if attack is None or defender is None:
        return Fraction(1)
    if BEATS[attack] == defender:
        return Fraction(2)
    if BEATS[defender] == attack:
        return Fraction(1, 2)
    return Fraction(1)
