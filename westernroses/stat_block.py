"""An NPC's stat block: the numbers a GM keeps for a non-player combatant, checked once by the
rules every NPC of a battle follows, wherever they are typed (the battle's "Add an NPC" form,
the API, a wiki entry's stat block).

Why a module of its own: the wiki keeps stat blocks and the battles fight with them, and the
two apps know nothing of each other's forms; the bounds and the words of every refusal live
here, below both, so an NPC the wiki accepts is one the battle accepts, number for number.

The parts, from the rulebook ("Major Stats", the sub-stats under it, "Damage Rolls" and the
items, "Spell Power", "Elements Affinities"): the four major stats PWR, CHA, INT and INS; HP,
Speed and Range; an element; catalog weapons beside the bare fists every character has; a flat
damage reduction (as Resilience's "take 5 less damage"); and the spell power she starts a battle
with ("NPCs may begin with more or less at GM discretion", never above 400: ruling 8), empty for
the campaign's house rule. Will is derived, (CHA + INS) / 2 rounded up (ruling 3).

Pure Python: no Django, no database (tests/test_architecture.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from westernroses.catalog import MAIN_STATS, STAT_NAMES, get_catalog
from westernroses.elements import Element

#: The bounds of every NPC number: what the battle screen's form and the API have always taken.
STAT_MIN: Final = 0
STAT_MAX: Final = 99
HP_MIN: Final = 1
HP_MAX: Final = 9999
SPEED_MAX: Final = 50
RANGE_MAX: Final = 50
DAMAGE_REDUCTION_MAX: Final = 99
MAX_WEAPONS: Final = 5
#: "may hold a maximum of 400 at a time" ("Spell Power"; ruling 8).
SPELL_POWER_MAX: Final = 400
#: Bare fists are every NPC's (``engine.npc`` adds them): a stat block never lists them.
FISTS: Final = "bare_fists"

#: The parts of a stat block, in the order pages show them, with their names in words.
PART_NAMES: Final = {
    "pwr": "PWR",
    "cha": "CHA",
    "int": "INT",
    "ins": "INS",
    "hp": "HP",
    "speed": "Speed",
    "range": "Range",
    "element": "Element",
    "weapons": "Weapons",
    "damage_reduction": "Damage reduction",
    "spell_power": "Starting spell power",
}
#: Whole-number parts: (smallest, largest, required).
NUMBERS: Final[dict[str, tuple[int, int, bool]]] = {
    **dict.fromkeys(MAIN_STATS, (STAT_MIN, STAT_MAX, True)),
    "hp": (HP_MIN, HP_MAX, True),
    "speed": (0, SPEED_MAX, True),
    "range": (0, RANGE_MAX, True),
    "damage_reduction": (0, DAMAGE_REDUCTION_MAX, False),
    "spell_power": (0, SPELL_POWER_MAX, False),
}


class StatBlockError(ValueError):
    """A stat block the rules refuse: ``errors`` maps each part to what is wrong, in words."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        super().__init__("; ".join(m for ms in errors.values() for m in ms))
        self.errors = errors


@dataclass(frozen=True, slots=True)
class StatBlock:
    """A checked stat block (:func:`stat_block_parse` makes one)."""

    stats: Mapping[str, int]
    hp: int
    speed: int
    range: int
    element: str | None = None
    weapons: tuple[str, ...] = ()
    damage_reduction: int = 0
    spell_power: int | None = None

    @property
    def will(self) -> int:
        """(CHA + INS) / 2 rounded up (ruling 3), as the battle computes it."""
        return -(-(self.stats["cha"] + self.stats["ins"]) // 2)

    def to_dict(self) -> dict[str, Any]:
        """The JSON a stat block is stored as; :func:`stat_block_parse` reads it back."""
        return {
            **{key: self.stats[key] for key in MAIN_STATS},
            "hp": self.hp,
            "speed": self.speed,
            "range": self.range,
            "element": self.element,
            "weapons": list(self.weapons),
            "damage_reduction": self.damage_reduction,
            "spell_power": self.spell_power,
        }


def weapon_choices() -> list[tuple[str, str]]:
    """The catalog's weapons an NPC may carry (slug, name), bare fists left out."""
    return [
        (i.slug, i.name) for i in get_catalog().items.values() if i.is_weapon and i.slug != FISTS
    ]


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def stat_block_parse(data: Any) -> StatBlock:
    """A :class:`StatBlock` from JSON-like ``data``, or :class:`StatBlockError` naming every
    part that breaks a rule (missing, not a whole number, out of bounds, unknown)."""
    if not isinstance(data, Mapping):
        raise StatBlockError({"non_field_errors": ["A stat block is a set of named numbers."]})
    errors: dict[str, list[str]] = {}
    unknown = sorted(str(k)[:40] for k in data if k not in PART_NAMES)
    if unknown:
        shown = ", ".join(unknown[:5]) + (" …" if len(unknown) > 5 else "")
        errors["non_field_errors"] = [f"Not a part of a stat block: {shown}."]
    numbers: dict[str, int | None] = {}
    for key, (low, high, required) in NUMBERS.items():
        value = data.get(key)
        name = STAT_NAMES.get(key, PART_NAMES[key])
        if value is None and not required:
            numbers[key] = None
        elif value is None:
            errors[key] = [f"Give {name}: a whole number from {low} to {high:,}."]
        elif not _whole(value) or not low <= value <= high:
            errors[key] = [f"{name} is a whole number from {low} to {high:,}."]
        else:
            numbers[key] = value
    element = data.get("element") or None
    elements = [e.value for e in Element]
    if element is not None and element not in elements:
        errors["element"] = [f"Choose an element: {', '.join(elements)}, or none."]
    weapons_in = data.get("weapons") or []
    weapons: list[str] = []
    if not isinstance(weapons_in, list | tuple):
        errors["weapons"] = ["List the weapons from the catalog."]
    else:
        known = dict(weapon_choices())
        for slug in weapons_in:
            if slug == FISTS:
                continue  # every NPC has them
            if not isinstance(slug, str) or slug not in known:
                errors["weapons"] = [
                    f"Choose weapons from the catalog: {', '.join(known.values())}."
                ]
                break
            if slug not in weapons:
                weapons.append(slug)
        if len(weapons) > MAX_WEAPONS:
            errors["weapons"] = [f"At most {MAX_WEAPONS} weapons beside the bare fists."]
    if errors:
        raise StatBlockError(errors)
    return StatBlock(
        stats={key: int(numbers[key] or 0) for key in MAIN_STATS},
        hp=int(numbers["hp"] or 0),
        speed=int(numbers["speed"] or 0),
        range=int(numbers["range"] or 0),
        element=element,
        weapons=tuple(weapons),
        damage_reduction=int(numbers["damage_reduction"] or 0),
        spell_power=numbers["spell_power"],
    )
