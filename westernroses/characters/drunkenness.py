"""The drunkenness track (ruleset "Drinking") and who bends its rules.

Drink changes *rolls*, not stats: the rulebook writes a plastered oni's power check as
``6d-4``, so the modifiers here are added to check totals and never change a dice pool or a
skill's base value. "Cognition-based" rolls are INT, INS and the mental skills (will,
intuition, legends, sense); "all other rolls" are CHA and the physical skills; PWR has its own
line. Damage rolls are not checks and are not modified.

Exceptions: oni (Iron Blood) take no penalties below heavily drunk; tengu (Kaze Sake) take
no penalties when tipsy or drunk and get speed instead of the power bonus; a Drunken Master
gains dodge rolls and bare-fist dice as she drinks and gambles everything when plastered.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from westernroses.catalog import Catalog, get_catalog


class DrunkLevel(StrEnum):
    """The six levels of the drunkenness scale, soberest first."""

    SOBER = "sober"
    BUZZED = "buzzed"
    TIPSY = "tipsy"
    DRUNK = "drunk"
    HEAVILY_DRUNK = "heavily_drunk"
    PLASTERED = "plastered"


TRACK: Final = tuple(DrunkLevel)


@dataclass(frozen=True, slots=True)
class LevelRule:
    """One level as the rulebook states it, before any race or profession exception.

    ``cognition`` applies to INT, INS and mental-skill rolls, ``other`` to CHA and
    physical-skill rolls, ``power`` to PWR rolls. ``consciousness_extra`` is the further
    penalty on the roll to stay conscious (heavily drunk: "charisma -2 (total of -4)").
    """

    level: DrunkLevel
    name: str
    text: str
    cognition: int
    other: int
    power: int
    consciousness_check: bool
    consciousness_extra: int
    unconscious_for: str | None


RULES: Final[dict[DrunkLevel, LevelRule]] = {
    rule.level: rule
    for rule in (
        LevelRule(
            DrunkLevel.SOBER, "Sober", "Completely sober. No effects.", 0, 0, 0, False, 0, None
        ),
        LevelRule(
            DrunkLevel.BUZZED,
            "Buzzed",
            "You feel the alcohol just a tiny bit. No effects, although you feel a little "
            "reckless.",
            0,
            0,
            0,
            False,
            0,
            None,
        ),
        LevelRule(
            DrunkLevel.TIPSY,
            "Tipsy",
            "-1 to all cognition-based rolls, +1 to power rolls.",
            -1,
            0,
            1,
            False,
            0,
            None,
        ),
        LevelRule(
            DrunkLevel.DRUNK,
            "Drunk",
            "-2 to all cognition or physically-based rolls except power, which has +2. "
            "Roll charisma to stay conscious.",
            -2,
            -2,
            2,
            True,
            0,
            "five minutes",
        ),
        LevelRule(
            DrunkLevel.HEAVILY_DRUNK,
            "Heavily Drunk",
            "-4 to all cognition-based rolls and -2 to all other rolls except power, which has "
            "+4. Roll charisma -2 (total of -4) to stay conscious.",
            -4,
            -2,
            4,
            True,
            -2,
            "ten minutes",
        ),
        LevelRule(
            DrunkLevel.PLASTERED,
            "Plastered",
            "-6 to all cognition-based rolls, -4 to all other rolls. Roll charisma -2 (total "
            "of -6) to stay conscious.",
            -6,
            -4,
            -4,
            True,
            -2,
            "until drunkenness drops to heavily drunk or a recovery spellcard wakes her",
        ),
    )
}

#: Iron Blood: +4 to remain conscious when heavily drunk or higher.
IRON_BLOOD_CONSCIOUSNESS_BONUS: Final = 4
#: Kaze Sake: speed instead of the power bonus (+1 tipsy, +2 drunk, +4 heavily drunk). The
#: text stops at heavily drunk; ruling (issue 9): the strongest listed level carries on, so a
#: plastered tengu keeps +4.
KAZE_SAKE_SPEED: Final = {
    DrunkLevel.TIPSY: 1,
    DrunkLevel.DRUNK: 2,
    DrunkLevel.HEAVILY_DRUNK: 4,
    DrunkLevel.PLASTERED: 4,
}
#: Drunken Master: "a maximum of 4 rolls to dodge any given attack" and "a maximum of 3d".
DRUNKEN_MASTER_MAX_DODGE_ROLLS: Final = 4
DRUNKEN_MASTER_MAX_FIST_DICE: Final = 3
DRUNKEN_MASTER_PLASTERED_MULTIPLIER: Final = 2
#: "A character's alcohol level drops one level every two hours."
HOURS_PER_LEVEL: Final = 2

DRUNKEN_MASTER = "drunken_master"


def parse_level(value: str | DrunkLevel) -> DrunkLevel:
    """The level for a stored value; ValueError names the allowed values."""
    try:
        return DrunkLevel(value)
    except ValueError:
        allowed = ", ".join(level.value for level in DrunkLevel)
        raise ValueError(f"unknown drunkenness {value!r}; expected one of {allowed}") from None


def _index(level: DrunkLevel) -> int:
    return TRACK.index(level)


@dataclass(frozen=True, slots=True)
class ConsciousnessCheck:
    """The charisma roll to stay conscious at a level (None needed below drunk)."""

    required: bool
    automatic_success: bool
    modifier: int
    on_failure: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "required": self.required,
            "automatic_success": self.automatic_success,
            "stat": "cha",
            "modifier": self.modifier,
            "on_failure": self.on_failure,
        }


@dataclass(frozen=True, slots=True)
class DrunkModifiers:
    """What a level does to one character after her race's and profession's exceptions.

    ``stat_rolls`` (by main-stat key) and the skill lines are roll modifiers. ``dodge_rolls`` is
    how many rolls she makes to dodge each attack (1, or 0-4 for a Drunken Master).
    ``fist_extra_dice``, ``attack_power_halved`` and ``physical_damage_multiplier`` are the
    Drunken Master's; ``attack_power_halved`` also means the PWR penalty does not count for
    attack rolls.
    """

    level: DrunkLevel
    name: str
    stat_rolls: Mapping[str, int]
    mental_skills: int
    physical_skills: int
    speed: int
    consciousness: ConsciousnessCheck
    dodge_rolls: int
    fist_extra_dice: int
    attack_power_halved: bool
    physical_damage_multiplier: int
    notes: tuple[str, ...]

    def stat(self, key: str) -> int:
        """The roll modifier for a main stat key (pwr, cha, int, ins)."""
        return self.stat_rolls[key]

    def to_dict(self) -> dict[str, Any]:
        return {
            "level": self.level.value,
            "name": self.name,
            "rolls": {
                **self.stat_rolls,
                "mental_skills": self.mental_skills,
                "physical_skills": self.physical_skills,
            },
            "speed": self.speed,
            "consciousness": self.consciousness.to_dict(),
            "dodge_rolls": self.dodge_rolls,
            "fist_extra_dice": self.fist_extra_dice,
            "attack_power_halved": self.attack_power_halved,
            "physical_damage_multiplier": self.physical_damage_multiplier,
            "notes": list(self.notes),
        }


def _drinking_trait(race: str | None, catalog: Catalog) -> str | None:
    found = catalog.races.get(race) if race is not None else None
    return found.drinking if found is not None else None


def consciousness_check(
    level: DrunkLevel, race: str | None = None, catalog: Catalog | None = None
) -> ConsciousnessCheck:
    """The roll to stay conscious at ``level`` for a character of ``race``.

    Drunk: charisma with the level's -2; heavily drunk: -2 more (total -4); plastered: -2 more
    (total -6). Iron Blood succeeds automatically below heavily drunk and has +4 above;
    Kaze Sake succeeds automatically at drunk.
    """
    rule = RULES[level]
    if not rule.consciousness_check:
        return ConsciousnessCheck(False, False, 0, None)
    trait = _drinking_trait(race, catalog or get_catalog())
    penalty = _penalty(rule.other, level, trait)
    modifier = penalty + rule.consciousness_extra
    if trait == "iron_blood":
        if _index(level) < _index(DrunkLevel.HEAVILY_DRUNK):
            return ConsciousnessCheck(True, True, 0, rule.unconscious_for)
        modifier += IRON_BLOOD_CONSCIOUSNESS_BONUS
    if trait == "kaze_sake" and level == DrunkLevel.DRUNK:
        return ConsciousnessCheck(True, True, 0, rule.unconscious_for)
    return ConsciousnessCheck(True, False, modifier, rule.unconscious_for)


def _penalty(amount: int, level: DrunkLevel, trait: str | None) -> int:
    """A level's modifier after racial immunity to *penalties* (bonuses are kept)."""
    if amount >= 0:
        return amount
    if trait == "iron_blood" and _index(level) < _index(DrunkLevel.HEAVILY_DRUNK):
        return 0
    if trait == "kaze_sake" and level in (DrunkLevel.TIPSY, DrunkLevel.DRUNK):
        return 0
    return amount


def modifiers(
    level: DrunkLevel | str,
    race: str | None = None,
    profession: str | None = None,
    catalog: Catalog | None = None,
) -> DrunkModifiers:
    """Everything ``level`` does to a character of this race and profession."""
    level = parse_level(level)
    rule = RULES[level]
    trait = _drinking_trait(race, catalog or get_catalog())
    cognition = _penalty(rule.cognition, level, trait)
    other = _penalty(rule.other, level, trait)
    power = _penalty(rule.power, level, trait)
    speed = 0
    notes: list[str] = []
    if trait == "kaze_sake":
        if power > 0:
            power = 0
        speed = KAZE_SAKE_SPEED.get(level, 0)
        if level in (DrunkLevel.TIPSY, DrunkLevel.DRUNK):
            notes.append("Kaze Sake: no penalties from being tipsy or drunk.")
        if speed:
            notes.append(f"Kaze Sake: +{speed} speed instead of the power bonus.")
    if (
        trait == "iron_blood"
        and _index(level) < _index(DrunkLevel.HEAVILY_DRUNK)
        and level != (DrunkLevel.SOBER)
    ):
        notes.append("Iron Blood: no penalties from drink below heavily drunk.")

    dodge_rolls, fist_dice, halved, multiplier = 1, 0, False, 1
    if profession == DRUNKEN_MASTER:
        steps = _index(level)  # buzzed = 1 ... plastered = 5
        dodge_rolls = min(steps, DRUNKEN_MASTER_MAX_DODGE_ROLLS)
        fist_dice = min(steps, DRUNKEN_MASTER_MAX_FIST_DICE)
        if level == DrunkLevel.SOBER:
            notes.append(
                "Sober Drunken Master: cannot dodge; physical attacks hit if the attacker "
                "succeeds her roll and danmaku hits automatically."
            )
        if level == DrunkLevel.PLASTERED:
            halved, multiplier = True, DRUNKEN_MASTER_PLASTERED_MULTIPLIER
            notes.append(
                "Plastered Drunken Master: power halved for attack rolls (the -4 does not "
                "count), successful attacks deal x2 damage."
            )
    return DrunkModifiers(
        level=level,
        name=rule.name,
        stat_rolls={"pwr": power, "cha": other, "int": cognition, "ins": cognition},
        mental_skills=cognition,
        physical_skills=other,
        speed=speed,
        consciousness=consciousness_check(level, race, catalog),
        dodge_rolls=dodge_rolls,
        fist_extra_dice=fist_dice,
        attack_power_halved=halved,
        physical_damage_multiplier=multiplier,
        notes=tuple(notes),
    )


def drink(level: DrunkLevel | str, held_alcohol: bool) -> DrunkLevel:
    """After a drink: a successful PWR roll holds it, a failure goes up one level."""
    level = parse_level(level)
    if held_alcohol:
        return level
    return TRACK[min(_index(level) + 1, len(TRACK) - 1)]


def sober_up(level: DrunkLevel | str, hours: int) -> DrunkLevel:
    """The level after ``hours`` without drinking: one level down every two hours."""
    level = parse_level(level)
    if hours < 0:
        raise ValueError("hours must not be negative")
    return TRACK[max(_index(level) - hours // HOURS_PER_LEVEL, 0)]


def after_shock_or_fear(level: DrunkLevel | str) -> DrunkLevel:
    """ "A character suffering from shock or fear automatically drops down to sober."""
    parse_level(level)
    return DrunkLevel.SOBER
