"""Spellcard pricing: hand-priced cards from the ruleset, and properties of ``price``.

Each row of ``PRICED`` shows its arithmetic and the rulebook section it comes from
(western-roses-ruleset-v0.6.txt, "Spellcards"; RULINGS.md 5-7). Every row is also checked to
be a legal card, so the table doubles as a catalogue of valid designs.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from westernroses.elements import Element
from westernroses.house_rules import HouseRules
from westernroses.spellcards import (
    AttackPower,
    CardType,
    CasterInfo,
    Duration,
    PricingError,
    Profession,
    SkillChoice,
    SpellcardDraft,
    Targets,
    ToHit,
    price,
    validate,
)
from westernroses.spellcards.skills import SKILLS, BombRule

E = Element
P = Profession
D = Duration
T = Targets

WITCH = CasterInfo(P.WITCH, "spectrum_mystery", E.SPIRIT)
FIRE_WITCH = CasterInfo(P.WITCH, "spectrum_mystery", E.FIRE)
MISSILE = CasterInfo(P.WITCH, "magic_missile", E.SPIRIT)
SOUL = CasterInfo(P.CAREFREE_SOUL, "tengu_gale", E.WIND)
SOUL_MISSILE = CasterInfo(P.CAREFREE_SOUL, "magic_missile", E.WIND)
MAIDEN = CasterInfo(P.SHRINE_MAIDEN, "homing_amulets", E.FIRE, goddess_element=E.LIGHT)
LIBRARIAN = CasterInfo(P.LIBRARIAN, "magic_missile", E.WATER)
LIBRARIAN_PLAIN = CasterInfo(P.LIBRARIAN, "slow_sound", E.WATER)
GUARDIAN = CasterInfo(P.GUARDIAN, "charge_of_virtue", E.METAL)
MAID = CasterInfo(P.COMBAT_MAID, "fourth_strike", E.METAL)
DRUNK = CasterInfo(P.DRUNKEN_MASTER, "tip_of_death", E.WOOD)
DRUNK_MISSILE = CasterInfo(P.DRUNKEN_MASTER, "magic_missile", E.WOOD)
DOLLS = CasterInfo(P.DOLL_MASTER, "spectrum_mystery", E.DARKNESS)
DOLLS_MISSILE = CasterInfo(P.DOLL_MASTER, "magic_missile", E.DARKNESS)


def atk(dice: int, mod: int = 0, **kw: object) -> SpellcardDraft:
    return SpellcardDraft("Test", CardType.ATTACK, attack_power=AttackPower(dice, mod), **kw)  # type: ignore[arg-type]


def dfn(**kw: object) -> SpellcardDraft:
    return SpellcardDraft("Test", CardType.DEFENSIVE, **kw)  # type: ignore[arg-type]


def spc(*skills: SkillChoice, **kw: object) -> SpellcardDraft:
    return SpellcardDraft("Test", CardType.SPECIAL, skills=skills, **kw)  # type: ignore[arg-type]


def alone(slug: str, **kw: object) -> SpellcardDraft:
    """A stand-alone skill card: no Targets skill, nothing but the skill."""
    return spc(SkillChoice.of(slug), targets=None, **kw)


S = SkillChoice.of

# (id, card, caster, active dolls, expected total)
PRICED: list[tuple[str, SpellcardDraft, CasterInfo, int | None, int]] = [
    # --- Spellcards intro: "The lowest cost a spellcard can have is 20"; Targets; Attack Power
    # Single 10 + 1d 5 = 15 -> raised to 20.
    ("1d single, raised to 20", atk(1), WITCH, None, 20),
    # To-Hit: Single 10 + roll vs INT -10 + 1d 5 = 5 -> 20 ("20 is the lowest cost").
    ("1d roll vs INT, raised to 20", atk(1, to_hit=ToHit.ROLL_VS_INT), WITCH, None, 20),
    # To-Hit: Burst 0 + Single 10 + 4d 20 = 30.
    ("4d burst", atk(4, to_hit=ToHit.BURST), WITCH, None, 30),
    # Single 10 + roll vs PWR -10 + 5d 40 = 40.
    ("5d roll vs PWR", atk(5, to_hit=ToHit.ROLL_VS_PWR), WITCH, None, 40),
    # Attack Power: Single 10 + 8d 100 + (+5 at 10 each = 50) = 160.
    ("8d+5", atk(8, 5), WITCH, None, 160),
    # Attack Power: Single 10 + 3d 15 + (+6 = 5×10 + 1×20 = 70) = 95.
    ("3d+6 tiered modifier", atk(3, 6), WITCH, None, 95),
    # Targets: Two 20 + 2d 10 + (+8 = 50 + 3×20 = 110) = 140.
    ("2d+8 two targets", atk(2, 8, targets=T.TWO), WITCH, None, 140),
    # Targets: Three 50 + 6d 60 = 110.
    ("6d three targets", atk(6, targets=T.THREE), WITCH, None, 110),
    # Targets: Four 80 + 7d 80 = 160.
    ("7d four targets", atk(7, targets=T.FOUR), WITCH, None, 160),
    # Targets (AOE includes the single target): AOE 1 40 + Single 0 + 2d 10 = 50.
    ("2d AOE 1", atk(2, aoe=1), WITCH, None, 50),
    # RULINGS 5: AOE 3 100 + 2 × Two Targets 20 = 140; + 2d 10 = 150.
    ("AOE 3 + two targets", atk(2, aoe=3, targets=T.TWO), WITCH, None, 150),
    # RULINGS 5: AOE 5 150 + 2 × Four Targets 80 = 310; + 1d 5 = 315.
    ("AOE 5 + four targets", atk(1, aoe=5, targets=T.FOUR), WITCH, None, 315),
    # RULINGS 5: AOE 2 60 + 2 × Three Targets 50 = 160; + 1d 5 = 165.
    ("AOE 2 + three targets", atk(1, aoe=2, targets=T.THREE), WITCH, None, 165),
    # AOE 4 120 + Single 0 + 4d 20 = 140.
    ("4d AOE 4", atk(4, aoe=4), WITCH, None, 140),
    # Duration: Single 10 + 2 Rounds single space 20 + 2d 10 = 40.
    ("2 rounds single space", atk(2, duration=D.SINGLE_SPACE_2), WITCH, None, 40),
    # Duration: Single 10 + 5 Rounds single space 200 + 2d 10 = 220.
    ("5 rounds single space", atk(2, duration=D.SINGLE_SPACE_5), WITCH, None, 220),
    # Duration: Single 10 + 2 Rounds homing 50 + 2d 10 = 70.
    ("2 rounds homing", atk(2, duration=D.HOMING_2), WITCH, None, 70),
    # Duration: Single 10 + 5 Rounds homing 300 + 2d 10 = 320 (over 400 is still allowed).
    ("5 rounds homing", atk(2, duration=D.HOMING_5), WITCH, None, 320),
    # Duration: Single 10 + 4 Rounds homing 200 + 3d 15 = 225.
    ("4 rounds homing", atk(3, duration=D.HOMING_4), WITCH, None, 225),
    # RULINGS 6 (table wins): Fire caster, Water card = same cycle 40; 10 + 2d 10 + 40 = 60.
    ("same-cycle element", atk(2, element=E.WATER), FIRE_WITCH, None, 60),
    # RULINGS 6: Fire caster, Light card = other cycle 80; 10 + 10 + 80 = 100.
    ("other-cycle element", atk(2, element=E.LIGHT), FIRE_WITCH, None, 100),
    # Elemental Affinity of the caster – Cost: 0; 10 + 10 + 0 = 20.
    ("own element", atk(2, element=E.SPIRIT), WITCH, None, 20),
    # RULINGS 6: Spirit caster, Wind card = other cycle 80; 10 + 10 + 80 = 100.
    ("spirit caster, wind card", atk(2, element=E.WIND), WITCH, None, 100),
    # RULINGS 6: Spirit caster, Darkness card = same cycle 40; 10 + 10 + 40 = 60.
    ("spirit caster, darkness card", atk(2, element=E.DARKNESS), WITCH, None, 60),
    # Defensive-type, Self 0, instantaneous: 0 -> 20.
    ("defensive self, raised to 20", dfn(targets=T.SELF), WITCH, None, 20),
    # Defensive: Self 0 + 3 Rounds single space 50 = 50.
    ("defensive self 3 rounds", dfn(targets=T.SELF, duration=D.SINGLE_SPACE_3), WITCH, None, 50),
    # Defensive: Two Targets 20 + 2 Rounds homing 50 = 70.
    ("defensive two homing", dfn(targets=T.TWO, duration=D.HOMING_2), WITCH, None, 70),
    # Defensive: Single 10 + roll vs INT -10 = 0 -> 20.
    ("defensive roll vs INT", dfn(to_hit=ToHit.ROLL_VS_INT), WITCH, None, 20),
    # Bomb: "an attack-type card that costs 20 spell power would cost 40 as a bomb"
    # (10 + 1d 5 = 15 -> 20 -> ×2 = 40; RULINGS 7: minimum first, then double).
    ("bomb of the rulebook example", atk(1, bomb=True), WITCH, None, 40),
    # Bomb with AOE ("they can have AOE"): AOE 2 60 + 4d 20 = 80 -> ×2 = 160.
    ("attack bomb with AOE", atk(4, aoe=2, bomb=True), WITCH, None, 160),
    # Defensive bomb: Self 0 + 2 Rounds single space 20 = 20 -> ×2 = 40.
    (
        "defensive bomb",
        dfn(targets=T.SELF, duration=D.SINGLE_SPACE_2, bomb=True),
        WITCH,
        None,
        40,
    ),
    # Efficiency: 15 -> 20 minimum -> -10 = 10 ("a minimum of 10").
    ("efficiency to the floor", atk(1), MISSILE, None, 10),
    # Efficiency: 10 + 4d 20 = 30 -> -10 = 20.
    ("efficiency 30 -> 20", atk(4), MISSILE, None, 20),
    # RULINGS 7 order: 15 -> 20 -> bomb 40 -> Efficiency 30.
    ("efficiency after bomb", atk(1, bomb=True), MISSILE, None, 30),
    # Efficiency: 10 + 5d 40 = 50 -> 40.
    ("efficiency 50 -> 40", atk(5), MISSILE, None, 40),
    # RULINGS 5 + 6 + Efficiency: AOE 3 100 + 2 × Two 20 + 2d 10 + Fire for a Spirit caster
    # (other cycle) 80 = 230; Efficiency -> 220.
    (
        "efficiency on a big card",
        atk(2, aoe=3, targets=T.TWO, element=E.FIRE),
        MISSILE,
        None,
        220,
    ),
    # --- Impulse Skills (Carefree Soul), each its own card
    ("DIE.", alone("die"), SOUL, None, 200),  # Cost: 200
    ("DIE. as a bomb", alone("die", bomb=True), SOUL, None, 400),  # "making the cost 400"
    ("I wanna be over there", alone("i_wanna_be_over_there"), SOUL, None, 40),  # Cost: 40
    # "This card is a bomb by default (but still only costs 20 spellpower!)": 20, not doubled.
    ("What was I doing again?", alone("what_was_i_doing_again", bomb=True), SOUL, None, 20),
    # ... and Efficiency still applies to it: 20 -> 10.
    (
        "What was I doing again? with Efficiency",
        alone("what_was_i_doing_again", bomb=True),
        SOUL_MISSILE,
        None,
        10,
    ),
    ("Stay still!", alone("stay_still"), SOUL, None, 40),  # Cost: 40
    # Cost: 40, "can be made into a bomb (making the cost 80)".
    (
        "painful anymore as a bomb",
        alone("i_dont_wanna_be_painful_anymore", bomb=True),
        SOUL,
        None,
        80,
    ),
    # Cost: 200, "making the cost 400".
    ("But dying is no fun as a bomb", alone("but_dying_is_no_fun", bomb=True), SOUL, None, 400),
    # --- Divine Skills (Shrine Maiden), Healing: defensive creation rules
    # Single 10 + 1d hit points 20 = 30.
    ("heal 1d", spc(S("healing", dice=1)), MAIDEN, None, 30),
    # Single 10 + 3 Rounds single space 50 + 2d hit points 40 ×2 (not instantaneous) = 140.
    (
        "heal 2d over 3 rounds",
        spc(S("healing", dice=2), duration=D.SINGLE_SPACE_3),
        MAIDEN,
        None,
        140,
    ),
    # Two Targets 20 + 4d hit points 100 = 120.
    ("heal 4d two targets", spc(S("healing", dice=4), targets=T.TWO), MAIDEN, None, 120),
    # Self 0 + 2 Rounds homing 50 + 4d hit points 100 ×2 = 250.
    (
        "heal 4d self homing",
        spc(S("healing", dice=4), targets=T.SELF, duration=D.HOMING_2),
        MAIDEN,
        None,
        250,
    ),
    # Single 10 + Recover 40 = 50.
    ("Recover", spc(S("recover")), MAIDEN, None, 50),
    # AOE 1 40 + Single 0 + 1d hit points 20 + Recover 40 = 100.
    ("heal + recover with AOE", spc(S("healing", dice=1), S("recover"), aoe=1), MAIDEN, None, 100),
    # --- Divine Wrath: attack creation rules
    # Single 10 + 2d 10 + Goddess's Element 0 (Light, the goddess's, free) = 20.
    (
        "Goddess's Element",
        spc(S("goddess_element"), attack_power=AttackPower(2), element=E.LIGHT),
        MAIDEN,
        None,
        20,
    ),
    # Burst 0 + Single 10 + Divine Insight 20 (sets the damage) = 30.
    ("Divine Insight", spc(S("divine_insight"), to_hit=ToHit.BURST), MAIDEN, None, 30),
    # Single 10 + 3d 15 + Stay where you are! 40 = 65.
    (
        "Stay where you are!",
        spc(S("stay_where_you_are"), attack_power=AttackPower(3)),
        MAIDEN,
        None,
        65,
    ),
    # Divine Fire 80 + 3d 15 ("can only be combined with an attack power skill") = 95.
    (
        "Divine Fire",
        spc(S("divine_fire"), targets=None, attack_power=AttackPower(3)),
        MAIDEN,
        None,
        95,
    ),
    # --- Magic Theory (Librarian)
    # Single 10 + roll vs INT -10 + Intelligent Design 80 = 80.
    (
        "Intelligent Design",
        spc(S("intelligent_design"), to_hit=ToHit.ROLL_VS_INT),
        LIBRARIAN_PLAIN,
        None,
        80,
    ),
    # AOE 2 60 + 2 × Two Targets 20 + Intelligent Design 80 = 180; Efficiency -> 170.
    (
        "Intelligent Design AOE with Efficiency",
        spc(S("intelligent_design"), aoe=2, targets=T.TWO),
        LIBRARIAN,
        None,
        170,
    ),
    ("Read a book", alone("read_a_book"), LIBRARIAN_PLAIN, None, 80),  # Cost: 80
    (
        "Summon Familiar",
        spc(S("summon_familiar", familiar_element="wind"), targets=None),
        LIBRARIAN_PLAIN,
        None,
        200,
    ),  # Cost: 200
    # --- Protection (Guardian): defensive creation rules, the target fixed by the text. Each
    # prints its complete cost ("Body-shield - Cost: 20"), which is the card's whole cost
    # (RULINGS 12, house rule printed_costs_complete, default 1): no target, AOE, duration or
    # other section on top, like "What was I doing again?" (the other reading:
    # test_printed_costs_with_the_sections_added_on_top).
    # Body-shield: "Used like a bomb" -> a bomb by default, not doubled: 20.
    ("Body-shield", spc(S("body_shield"), bomb=True), GUARDIAN, None, 20),
    # Shield: "Cost: 50", its 3 Rounds single space included.
    ("Shield", spc(S("shield"), duration=D.SINGLE_SPACE_3), GUARDIAN, None, 50),
    # Soul Transfer: "Cost: 20".
    ("Soul Transfer", spc(S("soul_transfer")), GUARDIAN, None, 20),
    # Sturdy: "Cost: 50", Self and 3 Rounds homing included.
    ("Sturdy", spc(S("sturdy"), targets=T.SELF, duration=D.HOMING_3), GUARDIAN, None, 50),
    # Power Transfer: "Cost: 20".
    ("Power Transfer", spc(S("power_transfer")), GUARDIAN, None, 20),
    # Taunt: "Cost: 20" for "the target (or targets)", its 2 Rounds single space included.
    ("Taunt", spc(S("taunt"), targets=T.THREE, duration=D.SINGLE_SPACE_2), GUARDIAN, None, 20),
    # --- Lethal (Combat-Maid): lethal damage replaces the attack power
    # Single 10 + 6d damage 30 = 40.
    ("lethal 6d", spc(S("lethal_6d")), MAID, None, 40),
    # Single 10 + 7d damage 40 + +10 damage ×2 (20 per 10 points) 40 = 90.
    ("lethal 7d+20", spc(S("lethal_7d"), S("lethal_bonus", tens=2)), MAID, None, 90),
    # AOE 1 40 + Single 0 + roll vs PWR -10 + +10 damage 20 = 50.
    (
        "lethal +10 AOE",
        spc(S("lethal_bonus", tens=1), aoe=1, to_hit=ToHit.ROLL_VS_PWR),
        MAID,
        None,
        50,
    ),
    # --- Drinking (Drunken Master)
    ("Drunk as I please", alone("drunk_as_i_please"), DRUNK, None, 20),  # Cost: 20
    ("Drunk as I please bomb", alone("drunk_as_i_please", bomb=True), DRUNK, None, 40),  # "40"
    ("Have a drink! bomb", alone("have_a_drink", bomb=True), DRUNK, None, 100),  # "100"
    # "This card is a bomb (do not double the cost of this card)": 20.
    ("Bob and weave", alone("bob_and_weave", bomb=True), DRUNK, None, 20),
    # Bob and weave with Efficiency: 20 -> 10.
    ("Bob and weave, Efficiency", alone("bob_and_weave", bomb=True), DRUNK_MISSILE, None, 10),
    # --- Doll Skills (Doll Master)
    ("Doll Swarm", alone("doll_swarm"), DOLLS, None, 120),  # Cost: 120
    # Doll Cremation 20 + 4d 20 ("choose an attack power to go with this card") = 40.
    ("Doll Cremation", alone("doll_cremation", attack_power=AttackPower(4)), DOLLS, None, 40),
    # Doll Cremation 20 + 1d 5 = 25; Efficiency -> 15.
    (
        "Doll Cremation, Efficiency",
        alone("doll_cremation", attack_power=AttackPower(1)),
        DOLLS_MISSILE,
        None,
        15,
    ),
    # Dual Strike: 10 per active doll, minimum of 20: 1 doll -> max(10, 20) = 20.
    ("Dual Strike, 1 doll", alone("dual_strike"), DOLLS, 1, 20),
    # 5 dolls -> 10 × 5 = 50.
    ("Dual Strike, 5 dolls", alone("dual_strike"), DOLLS, 5, 50),
    # Unknown number of dolls: priced at the minimum, 20, and marked variable.
    ("Dual Strike, not cast yet", alone("dual_strike"), DOLLS, None, 20),
    # 4 dolls -> 40; Efficiency -> 30.
    ("Dual Strike, Efficiency", alone("dual_strike"), DOLLS_MISSILE, 4, 30),
    ("Hive Mind", alone("hive_mind"), DOLLS, None, 40),  # Cost: 40
    ("Buff", alone("doll_buff"), DOLLS, None, 300),  # Cost: 300
    ("Dollmageddon", alone("dollmageddon"), DOLLS, None, 400),  # Cost: 400
]


def test_table_is_big_and_covers_every_skill() -> None:
    assert len(PRICED) >= 40
    used = {skill.slug for _, card, *_ in PRICED for skill in card.skills}
    assert used == set(SKILLS)


@pytest.mark.parametrize(
    ("card", "caster", "dolls", "expected"),
    [row[1:] for row in PRICED],
    ids=[row[0] for row in PRICED],
)
def test_hand_priced_cards(
    card: SpellcardDraft, caster: CasterInfo, dolls: int | None, expected: int
) -> None:
    assert validate(card, caster) == []
    breakdown = price(card, caster, active_dolls=dolls)
    assert breakdown.total == expected
    assert sum(line.cost for line in breakdown.lines) == breakdown.subtotal
    running = breakdown.subtotal
    for step in breakdown.steps:
        running += step.change
        assert step.total == running
    assert running == breakdown.total
    json.dumps(breakdown.to_dict())


def test_breakdown_itemises_minimum_bomb_and_efficiency() -> None:
    b = price(atk(1, bomb=True), MISSILE)
    assert [(line.code, line.cost) for line in b.lines] == [
        ("targets", 10),
        ("attack_power_dice", 5),
    ]
    assert b.subtotal == 15
    assert [(s.code, s.change, s.total) for s in b.steps] == [
        ("minimum", 5, 20),
        ("bomb", 20, 40),
        ("efficiency", -10, 30),
    ]
    assert b.steps[0].label == "Raised to the 20 minimum"
    assert b.before_efficiency == 40
    assert b.is_bomb and b.bomb_doubled
    data = b.to_dict()
    assert data["total"] == 30
    assert data["steps"][2]["label"] == "Efficiency (Magic Missile): −10, not below 10"
    assert data["house_rules"] == {}


def test_bomb_by_default_is_marked_not_doubled() -> None:
    b = price(alone("bob_and_weave", bomb=True), DRUNK)
    assert b.is_bomb and not b.bomb_doubled
    assert [s.code for s in b.steps] == ["bomb_not_doubled"]


def test_aoe_targets_lines_follow_ruling_5() -> None:
    lines = price(atk(2, aoe=3, targets=T.TWO), WITCH).lines
    assert [(line.code, line.label, line.cost) for line in lines[:2]] == [
        ("aoe", "AOE 3", 100),
        ("targets", "Two Targets ×2 (with AOE)", 40),
    ]


def test_healing_doubles_only_its_own_cost() -> None:
    line = price(spc(S("healing", dice=2), duration=D.HOMING_2), MAIDEN).lines[-1]
    assert (line.code, line.cost) == ("skill:healing", 80)
    assert "not instantaneous" in line.label


def test_dual_strike_variable_cost_is_reported() -> None:
    assert price(alone("dual_strike"), DOLLS).to_dict()["variable"] == {
        "skill": "dual_strike",
        "per_unit": 10,
        "unit": "active doll",
        "minimum": 20,
        "units": None,
    }
    assert price(alone("dual_strike"), DOLLS, active_dolls=3).variable is not None
    assert price(alone("dual_strike"), DOLLS, active_dolls=3).total == 30


def test_house_rules_change_prices_and_are_recorded() -> None:
    rules = HouseRules(
        aoe_targets_multiplier=3,
        element_cost_same_cycle=10,
        element_cost_other_cycle=20,
        spellcard_min_cost=30,
        bomb_multiplier=3,
        efficiency_discount=5,
        efficiency_floor=20,
    )
    # AOE 3 100 + 3 × Two 20 = 160, + 2d 10, + Water from Fire (same cycle) 10 = 180.
    assert price(atk(2, aoe=3, targets=T.TWO, element=E.WATER), FIRE_WITCH, rules).total == 180
    # Light from Fire (other cycle): 10 + 10 + 20 = 40.
    assert price(atk(2, element=E.LIGHT), FIRE_WITCH, rules).total == 40
    # 15 -> 30 minimum -> ×3 bomb = 90 -> Efficiency -5 = 85.
    b = price(atk(1, bomb=True), MISSILE, rules)
    assert b.total == 85
    assert b.house_rules == rules.changed()
    # 15 -> 30 -> Efficiency -5 = 25 (floor 20 not reached).
    assert price(atk(1), MISSILE, rules).total == 25


def test_efficiency_never_raises_a_cost_below_its_floor() -> None:
    rules = HouseRules(spellcard_min_cost=0, efficiency_floor=10)
    # Self defensive card: 0, no minimum; Efficiency cannot make it cost 10.
    assert price(dfn(targets=T.SELF), MISSILE, rules).total == 0


def test_exceeding_the_spell_power_cap_is_flagged_not_refused() -> None:
    # "There is no upward limit on how much a spell card can cost" but 400 is the most held.
    b = price(atk(8, 10, aoe=5, targets=T.FOUR, duration=D.HOMING_5), WITCH)
    assert b.total > 400 and b.exceeds_spell_power_cap


def test_unpriceable_parts_raise() -> None:
    with pytest.raises(PricingError):
        price(spc(S("no_such_skill")), WITCH)
    with pytest.raises(PricingError):
        price(spc(S("healing")), MAIDEN)
    with pytest.raises(PricingError):
        price(atk(9), WITCH)
    with pytest.raises(PricingError):
        price(atk(1, aoe=6), WITCH)


# --- properties -------------------------------------------------------------------------

CASTERS = st.builds(
    CasterInfo,
    profession=st.sampled_from(list(Profession)),
    shot_type=st.sampled_from(["magic_missile", "spectrum_mystery"]),
    element=st.sampled_from(list(Element)),
    level=st.integers(1, 10),
)
STANDARD_CARDS = st.builds(
    SpellcardDraft,
    name=st.text(min_size=1, max_size=20),
    type=st.sampled_from([CardType.ATTACK, CardType.DEFENSIVE]),
    bomb=st.booleans(),
    to_hit=st.sampled_from(list(ToHit)),
    targets=st.sampled_from(list(Targets)),
    aoe=st.integers(0, 5),
    duration=st.sampled_from(list(Duration)),
    attack_power=st.none() | st.builds(AttackPower, st.integers(1, 8), st.integers(0, 30)),
    element=st.none() | st.sampled_from(list(Element)),
)
BOMBABLE = [s.slug for s in SKILLS.values() if s.bomb is BombRule.OPTIONAL and not s.params]
BOMBABLE_CARDS = st.builds(
    lambda slug, bomb: alone(slug, bomb=bomb), st.sampled_from(BOMBABLE), st.booleans()
)
RULES = st.builds(
    HouseRules,
    aoe_targets_multiplier=st.integers(1, 10),
    element_cost_same_cycle=st.integers(0, 400),
    element_cost_other_cycle=st.integers(0, 400),
    spellcard_min_cost=st.integers(0, 400),
    bomb_multiplier=st.integers(1, 10),
    efficiency_discount=st.integers(0, 100),
    efficiency_floor=st.integers(0, 100),
)


@settings(max_examples=300, deadline=None)
@given(card=STANDARD_CARDS | BOMBABLE_CARDS, caster=CASTERS, rules=RULES)
def test_cost_never_below_minimum_or_efficiency_floor(
    card: SpellcardDraft, caster: CasterInfo, rules: HouseRules
) -> None:
    b = price(card, caster, rules)
    assert b.before_efficiency >= rules.spellcard_min_cost
    if caster.has_efficiency:
        assert b.total >= min(rules.efficiency_floor, b.before_efficiency)
        assert b.total >= b.before_efficiency - rules.efficiency_discount
    else:
        assert b.total == b.before_efficiency


@settings(max_examples=300, deadline=None)
@given(card=STANDARD_CARDS | BOMBABLE_CARDS, caster=CASTERS, rules=RULES)
def test_bomb_costs_multiplier_times_the_card_before_efficiency(
    card: SpellcardDraft, caster: CasterInfo, rules: HouseRules
) -> None:
    plain = price(replace(card, bomb=False), caster, rules)
    bomb = price(replace(card, bomb=True), caster, rules)
    assert bomb.before_efficiency == rules.bomb_multiplier * plain.before_efficiency


@settings(max_examples=100, deadline=None)
@given(caster=CASTERS, doubled=st.booleans())
def test_bomb_by_default_cards_are_never_doubled(caster: CasterInfo, doubled: bool) -> None:
    for slug in ("what_was_i_doing_again", "bob_and_weave"):
        assert price(alone(slug, bomb=doubled), caster).before_efficiency == 20


@settings(max_examples=200, deadline=None)
@given(card=STANDARD_CARDS, caster=CASTERS)
def test_efficiency_saves_exactly_the_discount_above_the_floor(
    card: SpellcardDraft, caster: CasterInfo
) -> None:
    plain = price(card, replace(caster, shot_type="spectrum_mystery"))
    missile = price(card, replace(caster, shot_type="magic_missile"))
    assert missile.total == max(plain.total - 10, 10)


def test_the_damage_modifier_tiers_are_a_house_rule() -> None:
    """Issue 9: the tiered price of a damage modifier (+1 to +5 at 10 each, each point from +6
    at 20: +6 = 70) is house rule ``damage_modifier_tiered``; off, every point of a modifier
    above +5 costs 20 (+6 = 120). 1d 5 + modifier + Single 10."""
    card = SpellcardDraft(
        name="Big", type=CardType.ATTACK, targets=T.SINGLE, attack_power=AttackPower(1, 6)
    )
    assert price(card, WITCH).total == 5 + 70 + 10
    assert price(card, WITCH, HouseRules(damage_modifier_tiered=0)).total == 5 + 120 + 10


@pytest.mark.parametrize(
    ("card", "complete", "added"),
    [
        # Shield "Cost: 50" + 3 Rounds single space 50 = 100
        (spc(S("shield"), duration=D.SINGLE_SPACE_3), 50, 100),
        # Sturdy "Cost: 50" + Self 0 + 3 Rounds homing 100 = 150
        (spc(S("sturdy"), targets=T.SELF, duration=D.HOMING_3), 50, 150),
        # Taunt "Cost: 20" (its targets free) + 2 Rounds single space 20 = 40
        (spc(S("taunt"), targets=T.THREE, duration=D.SINGLE_SPACE_2), 20, 40),
        # Soul Transfer "Cost: 20": nothing to add either way
        (spc(S("soul_transfer")), 20, 20),
    ],
    ids=["Shield", "Sturdy", "Taunt", "Soul Transfer"],
)
def test_printed_costs_with_the_sections_added_on_top(
    card: SpellcardDraft, complete: int, added: int
) -> None:
    """RULINGS 12: a printed cost is the card's whole cost (default). A GM who reads the
    skill texts' "for the duration of this card" as a duration bought on top sets the house
    rule to 0: then only the target the text fixes is free."""
    assert validate(card, GUARDIAN) == []
    default = price(card, GUARDIAN)
    assert default.total == complete
    assert [line.cost for line in default.lines if line.cost] == [complete]  # the skill's own
    assert [line.label for line in default.lines if "(in the printed cost)" in line.label]
    on_top = price(card, GUARDIAN, HouseRules(printed_costs_complete=0))
    assert on_top.total == added
    assert on_top.house_rules == {"printed_costs_complete": 0}
