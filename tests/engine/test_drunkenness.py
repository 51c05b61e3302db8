"""The drunkenness track, its race exceptions and the Drunken Master (ruleset "Drinking")."""

from __future__ import annotations

import pytest

from westernroses.characters.drunkenness import (
    RULES,
    TRACK,
    DrunkLevel,
    after_shock_or_fear,
    consciousness_check,
    drink,
    modifiers,
    parse_level,
    sober_up,
)

L = DrunkLevel


def rolls(level: DrunkLevel, race: str = "pony", profession: str = "carefree_soul") -> tuple:
    """(PWR, CHA, INT, INS, mental skills, physical skills, speed) roll modifiers."""
    m = modifiers(level, race, profession)
    s = m.stat_rolls
    return (s["pwr"], s["cha"], s["int"], s["ins"], m.mental_skills, m.physical_skills, m.speed)


def test_track_names_in_order() -> None:
    """ "Drinking": Sober, Buzzed, Tipsy, Drunk, Heavily Drunk, Plastered."""
    assert [RULES[level].name for level in TRACK] == [
        "Sober",
        "Buzzed",
        "Tipsy",
        "Drunk",
        "Heavily Drunk",
        "Plastered",
    ]


@pytest.mark.parametrize(
    ("level", "expected"),
    [
        (L.SOBER, (0, 0, 0, 0, 0, 0, 0)),  # "No effects."
        (L.BUZZED, (0, 0, 0, 0, 0, 0, 0)),  # "No effects"
        (L.TIPSY, (1, 0, -1, -1, -1, 0, 0)),  # -1 cognition, +1 power
        (L.DRUNK, (2, -2, -2, -2, -2, -2, 0)),  # -2 cognition or physical except power +2
        (L.HEAVILY_DRUNK, (4, -2, -4, -4, -4, -2, 0)),  # -4 cognition, -2 other, power +4
        (L.PLASTERED, (-4, -4, -6, -6, -6, -4, 0)),  # -6 cognition, -4 all other rolls
    ],
)
def test_level_modifiers_for_an_ordinary_pony(level: DrunkLevel, expected: tuple) -> None:
    """ "Drinking": each level's roll modifiers, for a race without exceptions."""
    assert rolls(level) == expected


@pytest.mark.parametrize(
    ("level", "expected"),
    [
        (L.TIPSY, (1, 0, 0, 0, 0, 0, 0)),
        (L.DRUNK, (2, 0, 0, 0, 0, 0, 0)),
        (L.HEAVILY_DRUNK, (4, -2, -4, -4, -4, -2, 0)),
        (L.PLASTERED, (-4, -4, -6, -6, -6, -4, 0)),
    ],
)
def test_oni_iron_blood(level: DrunkLevel, expected: tuple) -> None:
    """ "Iron Blood": no penalties below heavily drunk (the power bonus is not a penalty)."""
    assert rolls(level, "oni") == expected


@pytest.mark.parametrize(
    ("level", "expected"),
    [
        (L.TIPSY, (0, 0, 0, 0, 0, 0, 1)),
        (L.DRUNK, (0, 0, 0, 0, 0, 0, 2)),
        (L.HEAVILY_DRUNK, (0, -2, -4, -4, -4, -2, 4)),
        # The text lists tipsy, drunk and heavily drunk; ruling (issue 9): the strongest
        # listed level carries on, +4 while plastered.
        (L.PLASTERED, (-4, -4, -6, -6, -6, -4, 4)),
    ],
)
def test_tengu_kaze_sake(level: DrunkLevel, expected: tuple) -> None:
    """ "Kaze Sake": no penalties when tipsy or drunk, no power bonus, speed +1/+2/+4 instead
    (and +4 still when plastered)."""
    assert rolls(level, "tengu") == expected


@pytest.mark.parametrize(
    ("race", "level", "required", "automatic", "modifier"),
    [
        ("pony", L.TIPSY, False, False, 0),
        ("pony", L.DRUNK, True, False, -2),  # "roll against your charisma" at drunk's -2
        ("pony", L.HEAVILY_DRUNK, True, False, -4),  # "charisma -2 (total of -4)"
        ("pony", L.PLASTERED, True, False, -6),  # "charisma -2 (total of -6)"
        ("oni", L.DRUNK, True, True, 0),  # Iron Blood: automatic below heavily drunk
        ("oni", L.HEAVILY_DRUNK, True, False, 0),  # -4 + 4
        ("oni", L.PLASTERED, True, False, -2),  # -6 + 4
        ("tengu", L.DRUNK, True, True, 0),  # Kaze Sake: automatic "when at drunk"
        ("tengu", L.HEAVILY_DRUNK, True, False, -4),
    ],
)
def test_consciousness_checks(
    race: str, level: DrunkLevel, required: bool, automatic: bool, modifier: int
) -> None:
    """ "Drinking": drunk or higher rolls charisma to stay conscious; oni and tengu bend it."""
    check = consciousness_check(level, race)
    assert (check.required, check.automatic_success) == (required, automatic)
    if required and not automatic:
        assert check.modifier == modifier


def test_unconsciousness_durations() -> None:
    """ "Drinking": unconscious five minutes (drunk), ten (heavily drunk), or until heavily
    drunk or woken (plastered)."""
    assert consciousness_check(L.DRUNK).on_failure == "five minutes"
    assert consciousness_check(L.HEAVILY_DRUNK).on_failure == "ten minutes"
    assert "heavily drunk" in (consciousness_check(L.PLASTERED).on_failure or "")


@pytest.mark.parametrize(
    ("level", "dodge_rolls", "fist_dice", "halved", "multiplier"),
    [
        (L.SOBER, 0, 0, False, 1),  # "When sober, a Drunken Master cannot dodge any attacks"
        (L.BUZZED, 1, 1, False, 1),
        (L.TIPSY, 2, 2, False, 1),
        (L.DRUNK, 3, 3, False, 1),  # "a maximum of 3d at Drunk"
        (L.HEAVILY_DRUNK, 4, 3, False, 1),  # "a maximum of 4 rolls ... at Heavily Drunk"
        (L.PLASTERED, 4, 3, True, 2),  # power halved for attack rolls, X2 damage
    ],
)
def test_drunken_master(
    level: DrunkLevel, dodge_rolls: int, fist_dice: int, halved: bool, multiplier: int
) -> None:
    """Drunken Master "Level 1": dodge rolls and bare-fist dice per level from buzzed."""
    m = modifiers(level, "oni", "drunken_master")
    assert m.dodge_rolls == dodge_rolls
    assert m.fist_extra_dice == fist_dice
    assert m.attack_power_halved is halved
    assert m.physical_damage_multiplier == multiplier


def test_other_professions_dodge_once_and_get_no_fist_dice() -> None:
    """ "Attacking and Dodging": one dodge roll per attack; the extra rolls and fist dice are
    the Drunken Master's alone."""
    for level in TRACK:
        m = modifiers(level, "oni", "guardian")
        assert (m.dodge_rolls, m.fist_extra_dice, m.physical_damage_multiplier) == (1, 0, 1)


def test_drinking_and_sobering_up() -> None:
    """ "Drinking": a failed PWR roll raises one level; one level drops every two hours; shock
    or fear sobers."""
    assert drink(L.SOBER, held_alcohol=True) is L.SOBER
    assert drink(L.SOBER, held_alcohol=False) is L.BUZZED
    assert drink(L.PLASTERED, held_alcohol=False) is L.PLASTERED
    assert sober_up(L.PLASTERED, 1) is L.PLASTERED
    assert sober_up(L.PLASTERED, 2) is L.HEAVILY_DRUNK
    assert sober_up(L.PLASTERED, 7) is L.TIPSY
    assert sober_up(L.BUZZED, 100) is L.SOBER
    assert after_shock_or_fear("heavily_drunk") is L.SOBER
    with pytest.raises(ValueError, match="negative"):
        sober_up(L.DRUNK, -1)


def test_unknown_level_is_refused_with_the_allowed_names() -> None:
    """ "Drinking": only the six named levels exist."""
    with pytest.raises(ValueError, match="sober, buzzed, tipsy"):
        parse_level("smashed")


def test_modifiers_to_dict() -> None:
    """ "Drinking" and Drunken Master "Level 1": a plastered oni master's modifiers as JSON."""
    data = modifiers("plastered", "oni", "drunken_master").to_dict()
    assert data["rolls"] == {
        "pwr": -4,
        "cha": -4,
        "int": -6,
        "ins": -6,
        "mental_skills": -6,
        "physical_skills": -4,
    }
    assert data["consciousness"]["modifier"] == -2
    assert data["physical_damage_multiplier"] == 2
