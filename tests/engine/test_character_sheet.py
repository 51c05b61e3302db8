"""The derived character sheet, checked against characters worked out by hand from the text.

Every expected number below was computed by hand from ruleset v0.6 ("Character Creation",
"Damage Rolls", "Attacking and Dodging", "Grazing", "Spell Power", "Spellcards" deck size,
"Items", "Drinking") and RULINGS 1 (pool = floor(stat / 3), at least 1), 3 (other divisions
round up) and 4 (physical = weapon dice + floor(PWR / 2); danmaku = floor(INT / 3) dice).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from tests.engine.test_character_builder import minimal_draft, valid_drafts
from westernroses.characters import (
    ActiveEffect,
    CharacterDraft,
    ItemStack,
    Sheet,
    SheetError,
    derive_sheet,
    raise_level,
    with_starting_kit,
)
from westernroses.characters.contributions import total
from westernroses.characters.levels import deck_limits
from westernroses.dice import parse as parse_dice
from westernroses.house_rules import HouseRules
from westernroses.spellcards.deck import deck_limits as spellcard_deck_limits

SKILLS = ("intuition", "legends", "sense", "will", "dexterity", "flying", "improvise", "stealth")


@dataclass
class Worked:
    """A character worked out by hand: the draft and every expected number."""

    id: str
    draft: dict[str, Any]
    stats: dict[str, tuple[int, str]]  # stat -> (total, check)
    hp: int
    speed: int
    range: int
    skills: tuple[tuple[int, str], ...]  # (effective, check) in SKILLS order
    attacks: dict[str, tuple[str | None, str, int]]  # slug -> (to-hit, damage, range)
    deck: tuple[int, int, int]
    equip: tuple[str, ...] = ()
    kit: dict[int, str] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)


WORKED = [
    # Fourth Strike 9/9/5/5 HP120 SPD4 RNG2; Oni PWR+3 INT-1; Guardian +20 HP, leather armor
    # (-1 dodge, -3 damage), "minor weapon" = sword 3d; Hard to Kill +20 HP; Training +4.
    # PWR 9+3+10=22 (7d), CHA 9+6=15 (5d), INT 5-1=4 (1d), INS 5+4=9 (3d).
    # Will ceil((15+9)/2)=12 +5; Dexterity ceil((15+22)/2)=19; Flying 15+5.
    # Fists 1d + 22/2 + 4 = 1d+15; sword 3d+15; danmaku 4/3 = 1d.
    Worked(
        id="guardian-oni-fourth-strike",
        draft={
            "shot_type": "fourth_strike",
            "race": "oni",
            "profession": "guardian",
            "element": "fire",
            "bonus_points": {"pwr": 10, "cha": 6, "ins": 4},
            "skill_points": {"flying": 5, "will": 5},
            "abilities": ["hard_to_kill"],
            "guardian_charge": "the shrine",
        },
        stats={"pwr": (22, "7d"), "cha": (15, "5d"), "int": (4, "1d"), "ins": (9, "3d")},
        hp=160,
        speed=4,
        range=2,
        skills=(
            (9, "3d"),
            (4, "1d"),
            (9, "3d"),
            (17, "5d"),
            (19, "6d"),
            (20, "6d"),
            (12, "4d"),
            (15, "5d"),
        ),
        attacks={
            "danmaku": (None, "1d", 2),
            "bare_fists": ("7d", "1d+15", 1),
            "sword": ("7d", "3d+15", 1),
        },
        deck=(20, 4, 5),
        extra={
            "damage_reduction": 3,
            "physical_dodge": "5d-1",
            "danmaku_dodge": "3d-1",
            "graze": "3d",
            "spell_power_per_turn": 9,
            "warmness": 3,
            "yen": 100,
        },
    ),
    # Magic Missile 5/5/9/9 HP80 SPD4 RNG6; Magician PWR-1 CHA-2 INT+3 INS+2, Magic Spirit +2
    # danmaku, starts with a grimoire; Librarian +5 cards +1 kind; Grimoire +5 cards +1 kind.
    # PWR 4 (1d), CHA 5-2+4=7 (2d), INT 9+3+10=22 (7d), INS 9+2+6=17 (5d).
    # Legends 22+6=28 (9d); Will ceil((7+17)/2)=12 +4=16; Dexterity ceil((7+4)/2)=6.
    # Danmaku 22/3=7d +2; fists 1d+2; book (improvised): 2d+2-4, to-hit 1d-2.
    # Deck 15+5+5+5=30 cards, 4+1+1=6 kinds.
    Worked(
        id="magician-librarian-magic-missile",
        draft={
            "shot_type": "magic_missile",
            "race": "magician",
            "profession": "librarian",
            "element": "wood",
            "bonus_points": {"int": 10, "ins": 6, "cha": 4},
            "skill_points": {"legends": 6, "will": 4},
            "abilities": ["grimoire"],
        },
        equip=("book",),
        stats={"pwr": (4, "1d"), "cha": (7, "2d"), "int": (22, "7d"), "ins": (17, "5d")},
        hp=80,
        speed=4,
        range=6,
        skills=(
            (17, "5d"),
            (28, "9d"),
            (17, "5d"),
            (16, "5d"),
            (6, "2d"),
            (7, "2d"),
            (12, "4d"),
            (7, "2d"),
        ),
        attacks={
            "danmaku": (None, "7d+2", 6),
            "bare_fists": ("1d", "1d+2", 1),
            "book": ("1d-2", "2d-2", 1),
        },
        deck=(30, 6, 5),
        extra={"efficiency": (10, 10), "spell_power_per_turn": 17, "yen": 500},
    ),
    # Spectrum Mystery 6/7/8/7; Pony: two abilities, +4 improvise, no improvised penalties;
    # Carefree Soul +1 to all four. PWR 6+1+5=12, CHA 13, INT 14, INS 13 (all 4d).
    # Keen Senses +2 sense and intuition (13+3, effective 18, 5d+2); Skill Focus stealth +2;
    # Improvise ceil(26/2)=13 +4 points = 17 (5d) +4 pony; fists 1d+6; improvised 2d+6.
    Worked(
        id="pony-carefree-soul-spectrum-mystery",
        draft={
            "shot_type": "spectrum_mystery",
            "race": "pony",
            "profession": "carefree_soul",
            "element": "light",
            "bonus_points": {"pwr": 5, "cha": 5, "int": 5, "ins": 5},
            "skill_points": {"improvise": 4, "sense": 3, "intuition": 3},
            "abilities": ["keen_senses", "skill_focus"],
            "ability_choices": {"skill_focus": "stealth"},
        },
        stats={"pwr": (12, "4d"), "cha": (13, "4d"), "int": (14, "4d"), "ins": (13, "4d")},
        hp=100,
        speed=4,
        range=4,
        skills=(
            (18, "5d+2"),
            (14, "4d"),
            (18, "5d+2"),
            (13, "4d"),
            (13, "4d"),
            (13, "4d"),
            (21, "5d+4"),
            (15, "4d+2"),
        ),
        attacks={
            "danmaku": (None, "4d", 4),
            "bare_fists": ("4d", "1d+6", 1),
            "basic_improvised_weapon": ("4d", "2d+6", 1),
        },
        deck=(20, 4, 5),
        extra={"yen": 1000},
    ),
    # Tengu Gale 4/9/5/10 HP90 SPD7 RNG2; Tengu SPD+2 PWR-2 CHA+2; tipsy: Kaze Sake gives
    # +1 speed, no penalties and no power bonus. Combat-Maid: thrown weapons +1d.
    # PWR 4-2+10=12 (4d), CHA 9+2+4=15 (5d), INT 5 (1d), INS 10+6=16 (5d); speed 7+2+1=10.
    # Throwing knives: 2d+1d +12/2 = 3d+6, range ceil(2 x 1/2) = 1. Graze Points: 5d+4.
    Worked(
        id="tengu-combat-maid-tengu-gale-tipsy",
        draft={
            "shot_type": "tengu_gale",
            "race": "tengu",
            "profession": "combat_maid",
            "element": "wind",
            "bonus_points": {"pwr": 10, "cha": 4, "ins": 6},
            "skill_points": {"stealth": 5, "flying": 5},
            "abilities": ["graze_points"],
            "drunkenness": "tipsy",
        },
        stats={"pwr": (12, "4d"), "cha": (15, "5d"), "int": (5, "1d"), "ins": (16, "5d")},
        hp=90,
        speed=10,
        range=2,
        skills=(
            (16, "5d"),
            (5, "1d"),
            (16, "5d"),
            (16, "5d"),
            (14, "4d"),
            (20, "6d"),
            (16, "5d"),
            (20, "6d"),
        ),
        attacks={
            "danmaku": (None, "1d", 2),
            "bare_fists": ("4d", "1d+6", 1),
            "throwing_knives": ("4d", "3d+6", 1),
        },
        deck=(20, 4, 5),
        extra={"graze": "5d+4", "danmaku_dodge": "5d", "yen": 200},
    ),
    # Charge of Virtue 5/7/5/8 HP140 SPD4 RNG3; Youkai PWR+2 INT-1 INS+1, Hardy +2, claws 2d;
    # Shrine Maiden outfit -1 damage, gohei (improvised: -2 to hit, -4 damage).
    # PWR 5+2+6=13 (4d), CHA 7+4=11 (3d), INT 4 (1d), INS 8+1+10=19 (6d).
    # Will ceil((11+19)/2)=15 +10 = 25 (8d). Resilience 5 + outfit 1 = 6 damage reduction.
    Worked(
        id="youkai-shrine-maiden-charge-of-virtue",
        draft={
            "shot_type": "charge_of_virtue",
            "race": "youkai",
            "profession": "shrine_maiden",
            "element": "spirit",
            "goddess_element": "light",
            "bonus_points": {"pwr": 6, "cha": 4, "ins": 10},
            "skill_points": {"will": 10},
            "abilities": ["manipulation_of_spirit"],
            "natural_weapon": "claws",
        },
        stats={"pwr": (13, "4d"), "cha": (11, "3d"), "int": (4, "1d"), "ins": (19, "6d")},
        hp=140,
        speed=4,
        range=3,
        skills=(
            (19, "6d"),
            (4, "1d"),
            (19, "6d"),
            (25, "8d"),
            (12, "4d"),
            (11, "3d"),
            (15, "5d"),
            (11, "3d"),
        ),
        attacks={
            "danmaku": (None, "1d", 3),
            "bare_fists": ("4d", "1d+6", 1),
            "natural_weapon": ("4d", "2d+6", 1),
            "gohei": ("4d-2", "2d+2", 1),
        },
        deck=(20, 4, 5),
        extra={"damage_reduction": 6, "status_resistance": 2, "yen": 400},
    ),
    # Night Dance 8/10/4/6; Oni PWR+3 INT-1; plastered: Iron Blood no longer helps (-6
    # cognition, -4 other rolls and power). Drunken Master plastered: 3 extra fist dice, power
    # halved for attack rolls without the -4, x2 damage, 4 dodge rolls. Brute Force +5.
    # PWR 8+3+12=23 (7d-4), CHA 18 (6d-4), INT 3 (1d-6), INS 6 (2d-6).
    # Dexterity ceil((18+23)/2)=21 +10 = 31 (10d), +2 Night Dance -4 drink = 10d-2.
    # Fists: to-hit ceil(23/2)=12 -> 4d; damage ((1d+3d) + 11 + 5) x2, written 4dX2+32.
    Worked(
        id="oni-drunken-master-night-dance-plastered",
        draft={
            "shot_type": "night_dance",
            "race": "oni",
            "profession": "drunken_master",
            "element": "fire",
            "bonus_points": {"pwr": 12, "cha": 8},
            "skill_points": {"dexterity": 10},
            "abilities": ["brute_force"],
            "drunkenness": "plastered",
        },
        stats={"pwr": (23, "7d-4"), "cha": (18, "6d-4"), "int": (3, "1d-6"), "ins": (6, "2d-6")},
        hp=100,
        speed=6,
        range=2,
        skills=(
            (6, "2d-6"),
            (3, "1d-6"),
            (6, "2d-6"),
            (12, "4d-6"),
            (33, "10d-2"),
            (18, "6d-4"),
            (12, "4d-4"),
            (20, "6d-2"),
        ),
        attacks={"danmaku": (None, "1d", 2), "bare_fists": ("4d", "4dX2+32", 1)},
        deck=(20, 4, 5),
        extra={
            "dodge_rolls": 4,
            "physical_dodge": "6d-4",
            "danmaku_dodge": "2d-6",
            "consciousness": -2,
        },
    ),
    # Slow Sound 7/5/8/6 HP100 SPD2 RNG8; Moon Hare SPD+1 PWR-2 CHA+2 INT-1 INS+2; Frilly
    # Clothing +1 CHA in uncovered basic clothing; Doll Master halves INT and PWR for basic
    # attacks. PWR 9 (3d), CHA 5+2+1+4=12 (4d), INT 8-1+8=15 (5d), INS 6+2+4=12 (4d).
    # Danmaku ceil(15/2)=8 -> 2d; fists to-hit ceil(9/2)=5 -> 1d, damage 1d + 5/2 = 1d+2.
    Worked(
        id="moon-hare-doll-master-slow-sound",
        draft={
            "shot_type": "slow_sound",
            "race": "moon_hare",
            "profession": "doll_master",
            "element": "darkness",
            "bonus_points": {"pwr": 4, "cha": 4, "int": 8, "ins": 4},
            "skill_points": {"dexterity": 10},
            "abilities": ["frilly_clothing"],
        },
        stats={"pwr": (9, "3d"), "cha": (12, "4d"), "int": (15, "5d"), "ins": (12, "4d")},
        hp=100,
        speed=3,
        range=8,
        skills=(
            (12, "4d"),
            (15, "5d"),
            (12, "4d"),
            (12, "4d"),
            (21, "7d"),
            (12, "4d"),
            (12, "4d"),
            (12, "4d"),
        ),
        attacks={"danmaku": (None, "2d", 8), "bare_fists": ("1d", "1d+2", 1)},
        deck=(20, 4, 5),
        extra={"yen": 0},
    ),
    # Tip of Death 11/5/11/4 HP60 SPD5 RNG4 at level 3; Fairy CHA+2 INT-1 INS-2, no improvised
    # weapon penalty, -2 to physical attacks against her; Ley Lines +4, Power-Hungry x2.
    # PWR 11 (3d), CHA 7 (2d), INT 11-1+10=20 (6d), INS 4-2+10=12 (4d).
    # Spell power per turn (12 + 4) x 2 = 32. Deck 15+3x5+5 = 35 cards, 3x4+1 = 13 kinds.
    Worked(
        id="fairy-librarian-tip-of-death-level-3",
        draft={
            "shot_type": "tip_of_death",
            "race": "fairy",
            "profession": "librarian",
            "element": "water",
            "bonus_points": {"int": 10, "ins": 10},
            "skill_points": {"sense": 10},
            "abilities": ["ley_lines"],
            "level": 3,
        },
        equip=("book",),
        stats={"pwr": (11, "3d"), "cha": (7, "2d"), "int": (20, "6d"), "ins": (12, "4d")},
        hp=60,
        speed=5,
        range=4,
        skills=(
            (12, "4d"),
            (20, "6d"),
            (22, "7d"),
            (10, "3d"),
            (9, "3d"),
            (7, "2d"),
            (10, "3d"),
            (7, "2d"),
        ),
        attacks={
            "danmaku": (None, "6d", 4),
            "bare_fists": ("3d", "1d+5", 1),
            "book": ("3d", "2d+5", 1),
        },
        deck=(35, 13, 5),
        extra={"spell_power_per_turn": 32, "graze_multiplier": 4, "attackers_to_hit": -2},
    ),
]


def build(worked: Worked) -> CharacterDraft:
    draft = CharacterDraft.from_dict({"name": worked.id, **worked.draft})
    level = draft.level
    draft = with_starting_kit(draft, worked.kit)
    draft.level = level
    for slug in worked.equip:
        draft.inventory[slug].equipped = True
    return draft


@pytest.mark.parametrize("worked", WORKED, ids=[w.id for w in WORKED])
def test_worked_characters(worked: Worked) -> None:
    """ "Character Creation", "Damage Rolls", "Spellcards" deck size, "Drinking": hand-computed
    characters' stats, HP, speed, range, pools, skills, damage and decks."""
    draft = build(worked)
    sheet = derive_sheet(draft)
    assert sheet.problems == ()
    assert {k: (s.total, s.check.expression) for k, s in sheet.stats.items()} == worked.stats
    assert (sheet.hp.maximum.total, sheet.speed.total, sheet.range.total) == (
        worked.hp,
        worked.speed,
        worked.range,
    )
    skills = tuple((sheet.skills[s].effective, sheet.skills[s].check.expression) for s in SKILLS)
    assert skills == worked.skills
    attacks = {
        a.slug: (a.to_hit.expression if a.to_hit else None, a.damage.expression, a.range)
        for a in sheet.attacks
    }
    assert attacks == worked.attacks
    deck = sheet.spellcards.deck
    assert (deck.max_cards, deck.max_kinds, deck.copies_per_card) == worked.deck

    extra = worked.extra
    defence = sheet.defence
    checks = {
        "damage_reduction": lambda: total(defence.damage_reduction),
        "physical_dodge": lambda: defence.physical_dodge.expression,
        "danmaku_dodge": lambda: defence.danmaku_dodge.expression,
        "graze": lambda: defence.graze.expression,
        "dodge_rolls": lambda: defence.dodge_rolls,
        "status_resistance": lambda: total(defence.status_resistance),
        "attackers_to_hit": lambda: total(defence.attackers_physical_to_hit),
        "spell_power_per_turn": lambda: sheet.spell_power.per_turn,
        "graze_multiplier": lambda: sheet.spell_power.to_dict()["graze_multiplier"],
        "efficiency": lambda: sheet.spellcards.efficiency,
        "warmness": lambda: total(sheet.warmness),
        "yen": lambda: sheet.yen,
        "consciousness": lambda: sheet.drunkenness.consciousness.modifier,
    }
    assert {key: checks[key]() for key in extra} == extra
    json.dumps(sheet.to_dict())


# --------------------------------------------------------------------------- single rules


def sheet_for(shot: str, race: str, profession: str, **changes: Any) -> Sheet:
    return derive_sheet(minimal_draft(shot, race, profession, **changes))


def test_races_without_other_bonuses_list_no_placeholder_trait() -> None:
    """Races: Lunarians and Moon Hares have "Other bonuses: None": nothing to list."""
    sheet = derive_sheet(minimal_draft("homing_amulets", "lunarian", "librarian"))
    names = [p.name for p in sheet.passives if p.source == "race"]
    assert names == ["Moon Purity"]


def test_contributions_name_their_sources() -> None:
    """ "Character Creation" steps 1-7: main stats list shot-type, race, profession, bonus
    points and ability parts."""
    draft = minimal_draft(
        "misdirection", "lunarian", "carefree_soul", abilities=["frilly_clothing"]
    )
    cha = derive_sheet(draft).stats["cha"]
    assert [(c.source, c.label, c.amount) for c in cha.contributions] == [
        ("shot_type", "Misdirection", 7),
        ("race", "Lunarian", 2),
        ("profession", "Carefree Soul", 1),
        ("ability", "Frilly Clothing", 1),
    ]


@pytest.mark.parametrize(
    ("covered", "armor", "clothing", "bonus"),
    [
        (False, False, True, 1),
        (True, False, True, 0),
        (False, True, True, 0),
        (False, False, False, 0),
    ],
)
def test_frilly_clothing_needs_uncovered_clothing(
    covered: bool, armor: bool, clothing: bool, bonus: int
) -> None:
    """ "+1 to your charisma as long as you are wearing all of your standard clothing and none of
    it is covered by additional clothing"; armor covers it too."""
    draft = minimal_draft(
        "misdirection", "pony", "guardian", abilities=["frilly_clothing", "ley_lines"]
    )
    draft.inventory["leather_armor"].equipped = armor
    if clothing:
        draft.inventory["basic_clothing"] = ItemStack(1, equipped=True)
    draft.clothing_covered = covered
    assert derive_sheet(draft).stats["cha"].total == 7 + bonus


def test_guardian_loses_extra_hp_while_charge_injured() -> None:
    """Guardians "lose all Guardian-related powers" while their charge is injured; armor stays."""
    assert sheet_for("fourth_strike", "oni", "guardian").hp.maximum.total == 140 + 20
    hurt = sheet_for("fourth_strike", "oni", "guardian", guardian_charge_injured=True)
    assert hurt.hp.maximum.total == 120 + 20  # Hard to Kill stays
    assert total(hurt.defence.damage_reduction) == 3
    assert any(p.name == "Charge injured" for p in hurt.passives)


def test_guardian_hp_house_rule_off_keeps_the_extra_hp_while_charge_injured() -> None:
    """Issue 9: the extra 20 HP is a Guardian power (lost while the charge is injured, by
    default); house rule ``guardian_hp_needs_safe_charge`` = 0 keeps it, and the sheet says so."""
    draft = minimal_draft("fourth_strike", "oni", "guardian", guardian_charge_injured=True)
    kept = derive_sheet(draft, HouseRules(guardian_hp_needs_safe_charge=0))
    assert kept.hp.maximum.total == 140 + 20
    note = next(p for p in kept.passives if p.name == "Charge injured")
    assert "keeps her extra HP" in note.text
    assert kept.house_rules == {"guardian_hp_needs_safe_charge": 0}


def test_options_add_damage_and_danmaku_range() -> None:
    """RULINGS 8: +1 physical and danmaku damage and +1 danmaku range per 100 held, at most +4."""
    base = sheet_for("spectrum_mystery", "pony", "librarian")
    held = sheet_for("spectrum_mystery", "pony", "librarian", spell_power=250)
    assert base.attack("danmaku").damage.expression == "2d"
    assert held.attack("danmaku").damage.expression == "2d+2"
    assert held.attack("danmaku").range == 4 + 2
    assert held.attack("bare_fists").damage.expression == "1d+15"  # PWR 26 / 2 + 2
    assert held.attack("bare_fists").range == 1
    full = sheet_for("spectrum_mystery", "pony", "librarian", spell_power=400)
    assert full.spell_power.options_bonus == 4


def test_house_rules_change_pools_and_damage_and_are_recorded() -> None:
    """RULINGS 1 and 4 are house rules: 4 points per die, PWR / 4 for damage."""
    rules = HouseRules(stat_per_die=4, physical_damage_pwr_divisor=4, danmaku_int_per_die=2)
    draft = minimal_draft("fourth_strike", "oni", "guardian")
    sheet = derive_sheet(draft, rules)
    assert sheet.stats["pwr"].total == 32 and sheet.stats["pwr"].dice == 8
    assert sheet.attack("sword").damage.expression == "3d+12"  # 32/4 + 4 Training
    assert sheet.attack("danmaku").damage.expression == "2d"  # INT 4 / 2
    assert sheet.house_rules == {
        "stat_per_die": 4,
        "physical_damage_pwr_divisor": 4,
        "danmaku_int_per_die": 2,
    }


def test_dodge_and_graze_targets_are_house_rules() -> None:
    """Attacking and Dodging: "Base difficulty to dodge an attack is 12"; grazing has no
    printed target, so it defaults to the same 12 and a GM may change either."""
    draft = minimal_draft("fourth_strike", "oni", "guardian")
    default = derive_sheet(draft).defence
    assert (default.danmaku_dodge_target, default.graze_target) == (12, 12)
    changed = derive_sheet(draft, HouseRules(danmaku_dodge_target=14, graze_target=10)).defence
    assert (changed.danmaku_dodge_target, changed.graze_target) == (14, 10)
    assert "against 14" in " ".join(changed.notes)


@pytest.mark.parametrize(
    ("item", "range_", "recovery", "dice"),
    [
        ("throwing_knives", 3, "2d", 2),  # 1/2 x 6
        ("throwing_axes", 2, "4d", 2),  # 1/4 x 6 = 1.5, rounded up
        ("shuriken", 12, "2d", 1),  # 2 x 6
        ("needles", 6, "non-recoverable", 4),  # 1 x 6
    ],
)
def test_throwing_weapons(item: str, range_: int, recovery: str, dice: int) -> None:
    """ "Throwing Weapons": range a fraction of RANGE (rounded up), recovery dice."""
    draft = minimal_draft("misdirection", "pony", "librarian")
    draft.inventory[item] = ItemStack(5, equipped=True)
    attack = derive_sheet(draft).attack(item)
    assert (attack.range, attack.recovery, attack.quantity, attack.damage.dice) == (
        range_,
        recovery,
        5,
        dice,
    )
    assert attack.kind == "thrown"


def test_status_effects() -> None:
    """ "Status Effects": blind -6 to-hit (not standard danmaku); stun and freeze stop actions."""
    blind = sheet_for("fourth_strike", "oni", "guardian", status_effects=["blind"])
    sword = blind.attack("sword").to_hit
    assert sword is not None and sword.expression == "10d-6"  # PWR 9+3+20 = 32
    assert blind.attack("danmaku").to_hit is None
    assert total(blind.spellcards.to_hit) == -6
    assert blind.can_act
    assert not sheet_for("fourth_strike", "oni", "guardian", status_effects=["stun"]).can_act


def test_fear_sobers_up() -> None:
    """ "A character suffering from shock or fear automatically drops down to sober."""
    sheet = sheet_for(
        "misdirection", "pony", "librarian", drunkenness="drunk", status_effects=["fear"]
    )
    assert sheet.drunkenness.level.value == "sober"
    assert sheet.stats["ins"].check.modifier == 0


def test_temporary_effects_change_stats_and_everything_derived() -> None:
    """ "Spellcards" > Study / Sturdy: a buff ("Read a book": +6 intelligence) changes pools
    and danmaku dice; Sturdy adds 50 maximum HP."""
    effects = [ActiveEffect("int", 6, "Read a book", 3), ActiveEffect("hp_max", 50, "Sturdy", 2)]
    sheet = sheet_for("magic_missile", "pony", "librarian", effects=effects)
    assert sheet.stats["int"].total == 15 and sheet.stats["int"].dice == 5
    assert sheet.attack("danmaku").damage.expression == "5d"
    assert sheet.hp.maximum.total == 80 + 20 + 50


@pytest.mark.parametrize(
    ("current", "state"),
    [
        (None, "healthy"),
        (25, "healthy"),
        (24, "mortally_wounded"),
        (-1, "dead"),
        (-100, "destroyed"),
    ],
)
def test_hit_point_states(current: int | None, state: str) -> None:
    """ "Death and Dying": below 1/4 of max is mortally wounded, below 0 dead, -100 destroyed."""
    sheet = sheet_for(
        "spectrum_mystery", "oni", "librarian", abilities=["ley_lines"], current_hp=current
    )
    assert sheet.hp.maximum.total == 100
    assert sheet.hp.state == state


def test_lost_grimoire_loses_its_deck_bonus() -> None:
    """ "If you lost your grimoire you lose the ability to use your additional 5 spell cards"."""
    draft = minimal_draft("misdirection", "pony", "librarian", abilities=["grimoire", "ley_lines"])
    draft = with_starting_kit(draft)
    assert derive_sheet(draft).spellcards.deck.max_cards == 30
    del draft.inventory["grimoire"]
    assert derive_sheet(draft).spellcards.deck.max_cards == 25


def test_situational_bonuses_are_listed_not_summed() -> None:
    """ "Races" > Lunarian: "At night ... +2 to stealth. During the full moon ... +2 to sense"."""
    sheet = sheet_for("misdirection", "lunarian", "librarian")
    stealth = sheet.skills["stealth"]
    assert [c.label for c in stealth.situational] == ["Moon Purity (at night)"]
    assert stealth.effective == stealth.value  # no bonus summed
    assert sheet.skills["legends"].effective == sheet.skills["legends"].value + 2


def test_modifiers_against_opponents_and_spellcards() -> None:
    """ "Shot-types" > Homing Danmaku: +2 to-hit on spellcards, -2 to dodge; "Abilities" >
    Curvy Lasers: -4 to graze; "Spell Cards" dodging: the caster's higher of INT and PWR."""
    sheet = sheet_for(
        "homing_amulets", "pony", "librarian", abilities=["curvy_lasers", "ley_lines"]
    )
    data = sheet.to_dict()
    assert data["opponents"]["danmaku_dodge"] == -2
    assert data["opponents"]["graze"] == -4
    assert data["spellcards"]["to_hit"] == 2
    assert data["spellcards"]["dodge_difficulty"] == 25  # PWR 5 + 20 > INT 9


def test_sober_drunken_master_cannot_dodge() -> None:
    """ "When sober, a Drunken Master cannot dodge any attacks"."""
    data = sheet_for("night_dance", "oni", "drunken_master").to_dict()
    assert data["defence"]["dodge_rolls"] == 0 and data["defence"]["can_dodge"] is False


def test_unknown_names_raise_sheet_error() -> None:
    """ "Races": a race the rulebook does not have has no numbers to derive a sheet from."""
    with pytest.raises(SheetError) as caught:
        derive_sheet(minimal_draft("misdirection", "pony", "librarian", race="kappa"))
    assert [v.code for v in caught.value.violations] == ["race.unknown"]
    with pytest.raises(SheetError):
        derive_sheet(CharacterDraft())


def test_raising_a_level_grows_the_deck() -> None:
    """ "15 plus an additional 5 cards per character level ... levelx4 different cards"."""
    draft = minimal_draft("misdirection", "pony", "carefree_soul")
    higher = raise_level(draft, 2)
    assert (higher.level, draft.level) == (3, 1)
    deck = derive_sheet(higher).spellcards.deck
    assert (deck.max_cards, deck.max_kinds) == (30, 12)
    assert deck_limits(2).max_cards == 25
    with pytest.raises(ValueError, match="at least"):
        deck_limits(0)
    with pytest.raises(ValueError, match="raised"):
        raise_level(draft, 0)


def test_a_pool_of_no_dice_prints_as_its_modifier() -> None:
    """ "Basic rolls" as house rules: "Minimum dice" 0 and 5 points per die: INT 4 rolls no
    dice, written as its modifier alone."""
    rules = HouseRules(stat_per_die=5, min_dice=0)
    sheet = derive_sheet(
        minimal_draft("fourth_strike", "oni", "guardian", drunkenness="tipsy"), rules
    )
    assert sheet.stats["int"].check.expression == "0"  # Iron Blood: no tipsy penalty
    assert sheet.stats["pwr"].check.expression == "6d+1"


# --------------------------------------------------------------------------- properties


@given(valid_drafts())
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_totals_are_the_sums_of_their_contributions(draft: CharacterDraft) -> None:
    """ "Character Creation" and "Spellcards" deck size: for any legal character every total
    equals the sum of its listed parts, the sheet is JSON, expressions parse as dice notation,
    and the deck limits agree with the spellcard engine's."""
    sheet = derive_sheet(draft)
    data = json.loads(json.dumps(sheet.to_dict()))
    for key, stat in data["stats"].items():
        assert stat["total"] == sum(c["amount"] for c in stat["contributions"]), key
        assert stat["dice"] == max(stat["total"] // 3, 1)
    for key in ("speed", "range"):
        assert data[key]["total"] == sum(c["amount"] for c in data[key]["contributions"])
    assert data["hp"]["max"] == sum(c["amount"] for c in data["hp"]["contributions"])
    for skill in data["skills"].values():
        assert skill["effective"] == skill["value"] + sum(b["amount"] for b in skill["bonuses"])
        assert skill["check"]["modifier"] == sum(m["amount"] for m in skill["check"]["modifiers"])
    for attack in data["attacks"]:
        damage = attack["damage"]
        assert str(parse_dice(damage["expression"])) == damage["expression"]
        if attack["to_hit"]:
            assert str(parse_dice(attack["to_hit"]["expression"])) == attack["to_hit"]["expression"]
        assert damage["dice"] == sum(p["amount"] for p in damage["dice_parts"])
        assert damage["modifier"] == sum(p["amount"] for p in damage["modifier_parts"])
    assert CharacterDraft.from_dict(draft.to_dict()) == draft

    has_grimoire = "grimoire" in draft.abilities and "grimoire" in draft.inventory
    theirs = spellcard_deck_limits(draft.level, draft.profession or "", has_grimoire)
    deck = sheet.spellcards.deck
    assert (deck.max_cards, deck.max_kinds, deck.copies_per_card) == (
        theirs.max_cards,
        theirs.max_kinds,
        theirs.max_copies,
    )


def test_a_shrine_maidens_physical_attacks_may_take_her_goddesss_element() -> None:
    """Shrine Maiden: "may declare any of her basic attacks to be of her goddess's element"
    (ruleset, Professions) - physical ones too: bare fists and the gohei show it, as the battle
    engine offers it (issue 9). Other characters' physical attacks stay non-elemental."""
    maiden = derive_sheet(
        minimal_draft("homing_amulets", "pony", "shrine_maiden", goddess_element="light")
    )
    assert maiden.attack("danmaku").elements == (maiden.element, "light")
    assert maiden.attack("bare_fists").elements == ("light",)
    assert maiden.attack("gohei").elements == ("light",)
    other = sheet_for("homing_amulets", "pony", "librarian")
    assert other.attack("bare_fists").elements == ()


def test_a_doll_without_an_emotional_connection_has_its_stats_halved() -> None:
    """Doll Master: "any doll the controller does not feel a deep emotional connection with
    has all its stats halved. It is assumed that the controller has an emotional connection
    with all dolls she creates herself" (ruleset, Professions; issue 9). Rounded up
    (RULINGS 3)."""
    draft = with_starting_kit(minimal_draft("homing_amulets", "pony", "doll_master"))
    draft.unconnected_dolls = 1
    sheet = derive_sheet(draft)
    assert sheet.dolls is not None and (sheet.dolls.count, sheet.dolls.unconnected) == (4, 1)
    own = {k: line.total for k, line in sheet.stats.items()}
    assert sheet.dolls.stats == own
    assert sheet.dolls.unconnected_stats == {k: -(-v // 2) for k, v in own.items()}
    assert sheet.dolls.unconnected_hp == -(-sheet.hp.maximum.total // 2)
    assert sheet.to_dict()["dolls"]["unconnected"] == 1
    too_many = replace(draft, unconnected_dolls=5)
    assert any(p.code == "unconnected_dolls.range" for p in derive_sheet(too_many).problems)
    assert derive_sheet(minimal_draft("homing_amulets", "pony", "librarian")).dolls is None


def test_the_rulings_made_house_rules_change_the_sheet() -> None:
    """Issue 9: rulings that are choices became house rules, the defaults unchanged.

    * Skill bonuses go to the roll (default): Keen Senses' +2 Sense is added to the roll; off,
      it is added to the value the pool comes from.
    * A Librarian holding a Grimoire: +5 cards +1 kind each, stacking (30 cards, 6 kinds);
      off, the Librarian's only (25, 5).
    * A drunk Drunken Master's fists: "+1d per level" up to +3d (4d in all); with at most +2
      (the rulebook's "3dX2" example) 3d.
    """
    pony = minimal_draft(
        "spectrum_mystery", "pony", "carefree_soul", abilities=["keen_senses", "ley_lines"]
    )
    default = derive_sheet(pony).skills["sense"].check
    pool = derive_sheet(pony, HouseRules(skill_bonus_to_roll=0)).skills["sense"].check
    assert (default.modifier, default.dice) == (2, default.base // 3)
    assert (pool.base, pool.dice, pool.modifier) == (default.base + 2, (default.base + 2) // 3, 0)

    reader = with_starting_kit(
        minimal_draft("misdirection", "pony", "librarian", abilities=["grimoire", "ley_lines"])
    )
    deck = derive_sheet(reader).spellcards.deck
    assert (deck.max_cards, deck.max_kinds) == (30, 6)
    apart = derive_sheet(reader, HouseRules(librarian_grimoire_stack=0)).spellcards.deck
    assert (apart.max_cards, apart.max_kinds) == (25, 5)

    master = minimal_draft("night_dance", "oni", "drunken_master", drunkenness="drunk")
    assert derive_sheet(master).attack("bare_fists").damage.dice == 4
    fewer = derive_sheet(master, HouseRules(drunken_fists_max_extra_dice=2))
    assert fewer.attack("bare_fists").damage.dice == 3
