"""Spellcard validation (every broken rule at once), builder options and the card's JSON form."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from westernroses.elements import Element
from westernroses.spellcards import (
    AttackPower,
    CardFormatError,
    CardType,
    CardViolation,
    CasterInfo,
    Duration,
    Profession,
    SkillChoice,
    SpellcardDraft,
    Targets,
    ToHit,
    allowed_options,
    skills_for,
    validate,
)
from westernroses.spellcards.skills import SKILLS

E = Element
P = Profession
T = Targets
D = Duration
S = SkillChoice.of

WITCH = CasterInfo(P.WITCH, "spectrum_mystery", E.SPIRIT)
SOUL = CasterInfo(P.CAREFREE_SOUL, "tengu_gale", E.WIND)
MAIDEN = CasterInfo(P.SHRINE_MAIDEN, "homing_amulets", E.FIRE, goddess_element=E.LIGHT)
MAIDEN_NO_GODDESS = CasterInfo(P.SHRINE_MAIDEN, "homing_amulets", E.FIRE)
LIBRARIAN = CasterInfo(P.LIBRARIAN, "magic_missile", E.WATER)
GUARDIAN = CasterInfo(P.GUARDIAN, "charge_of_virtue", E.METAL)
MAID = CasterInfo(P.COMBAT_MAID, "fourth_strike", E.METAL)
DRUNK = CasterInfo(P.DRUNKEN_MASTER, "tip_of_death", E.WOOD)
DOLLS = CasterInfo(P.DOLL_MASTER, "spectrum_mystery", E.DARKNESS)

AP2 = AttackPower(2)


def card(card_type: CardType = CardType.ATTACK, **kw: object) -> SpellcardDraft:
    kw.setdefault("attack_power", AP2 if card_type is CardType.ATTACK else None)
    return SpellcardDraft("Card", card_type, **kw)  # type: ignore[arg-type]


def special(*skills: SkillChoice, **kw: object) -> SpellcardDraft:
    return SpellcardDraft("Card", CardType.SPECIAL, skills=skills, **kw)  # type: ignore[arg-type]


def codes(violations: list[CardViolation]) -> list[str]:
    return [v.code for v in violations]


# (id, card, caster, expected violation codes in order)
INVALID: list[tuple[str, SpellcardDraft, CasterInfo, list[str]]] = [
    # Spellcards: Name
    (
        "blank name",
        SpellcardDraft(" ", CardType.ATTACK, attack_power=AP2),
        WITCH,
        ["name_required"],
    ),
    # Targets (Self): "Any card that targets self cannot have a to-hit skill" (Burst is one).
    (
        "self with burst",
        card(CardType.DEFENSIVE, targets=T.SELF, to_hit=ToHit.BURST),
        WITCH,
        ["self_to_hit"],
    ),
    ("self with AOE", card(CardType.DEFENSIVE, targets=T.SELF, aoe=1), WITCH, ["self_aoe"]),
    ("attack on self", card(targets=T.SELF), WITCH, ["attack_targets_self"]),
    # Defensive-type: "Defensive-type spellcards do not have an attack power"; element.
    (
        "defensive with attack power",
        card(CardType.DEFENSIVE, attack_power=AP2),
        WITCH,
        ["attack_power_not_allowed"],
    ),
    (
        "defensive with element",
        card(CardType.DEFENSIVE, element=E.FIRE),
        WITCH,
        ["element_not_allowed"],
    ),
    # Attack-type: "They have attack power".
    ("attack without power", card(attack_power=None), WITCH, ["attack_power_required"]),
    ("no targets", card(targets=None), WITCH, ["targets_required"]),
    # Attack Power table: 1d-8d; modifiers are bought in +1 steps.
    ("9d", card(attack_power=AttackPower(9)), WITCH, ["attack_power_dice"]),
    ("0d", card(attack_power=AttackPower(0)), WITCH, ["attack_power_dice"]),
    ("negative modifier", card(attack_power=AttackPower(2, -1)), WITCH, ["attack_power_modifier"]),
    # Targets: AOE 1-5.
    ("AOE 6", card(aoe=6), WITCH, ["aoe_out_of_range"]),
    # Bomb: "Bomb cards can only be single-target, however they can have AOE."
    ("bomb two targets", card(bomb=True, targets=T.TWO), WITCH, ["bomb_single_target"]),
    # Type: special cards are made of profession skills.
    ("special without skill", special(), WITCH, ["special_needs_skill"]),
    ("skill on an attack card", card(skills=(S("taunt"),)), GUARDIAN, ["skills_need_special_type"]),
    ("unknown skill", special(S("fireball")), WITCH, ["unknown_skill"]),
    # "Only Carefree Souls can use impulse spellcards" etc.
    ("impulse for a witch", special(S("stay_still"), targets=None), WITCH, ["skill_profession"]),
    ("lethal for a guardian", special(S("lethal_6d")), GUARDIAN, ["skill_profession"]),
    # Impulse: "their own cards, disallowing any other skills".
    (
        "impulse with a Targets skill and duration",
        special(S("stay_still"), duration=D.HOMING_2),
        SOUL,
        ["targets_not_allowed", "duration_not_allowed"],
    ),
    (
        "two impulse skills",
        special(S("stay_still"), S("die"), targets=None),
        SOUL,
        ["stand_alone_combined", "stand_alone_combined"],
    ),
    # Study: "stand alone and are not compatible with any other skills".
    (
        "study with to-hit",
        special(S("read_a_book"), targets=None, to_hit=ToHit.ROLL_VS_INT),
        LIBRARIAN,
        ["to_hit_not_allowed"],
    ),
    # Divine Fire: "can only be combined with an attack power skill".
    (
        "Divine Fire with another skill and element",
        special(S("divine_fire"), S("stay_where_you_are"), targets=None, attack_power=AP2),
        MAIDEN,
        ["stand_alone_combined"],
    ),
    (
        "Divine Fire without attack power, with AOE",
        special(S("divine_fire"), targets=None, aoe=2),
        MAIDEN,
        ["aoe_not_allowed", "attack_power_required"],
    ),
    # Healing follows the defensive rules, Divine Wrath the attack rules: not on one card.
    (
        "healing with divine wrath",
        special(S("healing", dice=1), S("stay_where_you_are"), attack_power=AP2),
        MAIDEN,
        ["skill_build_conflict"],
    ),
    (
        "healing with attack power and element",
        special(S("healing", dice=2), attack_power=AP2, element=E.FIRE),
        MAIDEN,
        ["attack_power_not_allowed", "element_not_allowed"],
    ),
    # Healing dice are 1d, 2d or 4d.
    ("healing 3d", special(S("healing", dice=3)), MAIDEN, ["skill_parameter"]),
    ("healing without dice", special(S("healing")), MAIDEN, ["skill_parameter"]),
    (
        "healing with a stray parameter",
        special(S("healing", dice=1, x=1)),
        MAIDEN,
        ["skill_parameter"],
    ),
    ("healing twice", special(S("recover"), S("recover")), MAIDEN, ["skill_duplicate"]),
    # Goddess's Element: the card has the goddess's element.
    (
        "goddess element mismatch",
        special(S("goddess_element"), attack_power=AP2, element=E.FIRE),
        MAIDEN,
        ["goddess_element_mismatch"],
    ),
    (
        "goddess element unknown",
        special(S("goddess_element"), attack_power=AP2, element=E.LIGHT),
        MAIDEN_NO_GODDESS,
        ["goddess_element_unknown"],
    ),
    # Divine Insight / Intelligent Design / Lethal set the damage: no attack power as well.
    (
        "Intelligent Design with attack power",
        special(S("intelligent_design"), attack_power=AP2),
        LIBRARIAN,
        ["attack_power_with_damage_skill"],
    ),
    (
        "Stay where you are! without damage",
        special(S("stay_where_you_are")),
        MAIDEN,
        ["attack_power_required"],
    ),
    ("lethal 6d and 7d", special(S("lethal_6d"), S("lethal_7d")), MAID, ["skill_exclusive"]),
    ("lethal +0", special(S("lethal_bonus", tens=0)), MAID, ["skill_parameter"]),
    # "In general, special spellcards cannot be made into bombs."
    (
        "Stay still! as a bomb",
        special(S("stay_still"), targets=None, bomb=True),
        SOUL,
        ["bomb_not_allowed"],
    ),
    ("lethal bomb", special(S("lethal_7d"), bomb=True), MAID, ["bomb_not_allowed"]),
    # "This card is a bomb by default" / "This card is a bomb (do not double ...)".
    (
        "Bob and weave not marked",
        special(S("bob_and_weave"), targets=None),
        DRUNK,
        ["bomb_by_default"],
    ),
    # Defender: "The target of these cards is always the Guardian's charge".
    (
        "Shield on two with AOE",
        special(S("shield"), targets=T.TWO, aoe=1),
        GUARDIAN,
        ["skill_targets", "skill_aoe"],
    ),
    # Training: "The target of these cards is always self".
    ("Sturdy on another", special(S("sturdy")), GUARDIAN, ["skill_targets"]),
    ("Sturdy with Shield", special(S("sturdy"), S("shield")), GUARDIAN, ["skill_targets"]),
    (
        "Summon Familiar with a bad element",
        special(S("summon_familiar", familiar_element="mud"), targets=None),
        LIBRARIAN,
        ["skill_parameter"],
    ),
    (
        "Doll Cremation without attack power",
        special(S("doll_cremation"), targets=None),
        DOLLS,
        ["attack_power_required"],
    ),
]


@pytest.mark.parametrize(
    ("draft", "caster", "expected"), [r[1:] for r in INVALID], ids=[r[0] for r in INVALID]
)
def test_invalid_cards(draft: SpellcardDraft, caster: CasterInfo, expected: list[str]) -> None:
    violations = validate(draft, caster)
    assert codes(violations) == expected
    for violation in violations:
        assert violation.field and violation.message and violation.section
        json.dumps(violation.to_dict())


def test_every_broken_rule_is_named_at_once() -> None:
    draft = SpellcardDraft(
        name="",
        type=CardType.DEFENSIVE,
        bomb=True,
        to_hit=ToHit.ROLL_VS_INT,
        targets=T.SELF,
        aoe=7,
        attack_power=AttackPower(9, -2),
        element=E.FIRE,
        skills=(S("die"), S("lethal_6d")),
    )
    found = {(v.code, v.field) for v in validate(draft, WITCH)}
    assert found == {
        ("name_required", "name"),
        ("skill_profession", "skills[0]"),
        ("skill_profession", "skills[1]"),
        ("skills_need_special_type", "type"),
        ("attack_power_not_allowed", "attack_power"),
        ("element_not_allowed", "element"),
        ("aoe_out_of_range", "aoe"),
        ("attack_power_dice", "attack_power.dice"),
        ("attack_power_modifier", "attack_power.modifier"),
        ("self_to_hit", "to_hit"),
        ("self_aoe", "aoe"),
    }


def test_messages_cite_the_rulebook() -> None:
    (violation,) = validate(card(CardType.DEFENSIVE, targets=T.SELF, to_hit=ToHit.BURST), WITCH)
    assert violation.section == "Spellcards: Targets (Self)"
    assert violation.message == "Any card that targets self cannot have a to-hit skill."
    (violation,) = validate(special(S("stay_still"), targets=None), WITCH)
    assert violation.message == "Only Carefree Souls can use Impulse Skills (Stay still!)."


@pytest.mark.parametrize(
    "draft",
    [
        card(to_hit=ToHit.ROLL_VS_INT, targets=T.FOUR, aoe=5, duration=D.HOMING_5, element=E.FIRE),
        card(CardType.DEFENSIVE, targets=T.SELF, bomb=True, duration=D.SINGLE_SPACE_4),
        card(CardType.DEFENSIVE, to_hit=ToHit.ROLL_VS_PWR, targets=T.TWO, aoe=2),
        card(bomb=True, aoe=5),
        card(attack_power=AttackPower(8, 40), element=None),
    ],
)
def test_legal_standard_cards(draft: SpellcardDraft) -> None:
    assert validate(draft, WITCH) == []


def test_unimplemented_professions_build_standard_cards_only() -> None:
    for profession in (P.WITCH, P.SCOUT, P.MECHANIC):
        caster = CasterInfo(profession, "spectrum_mystery", E.FIRE)
        assert skills_for(profession) == []
        assert [t["value"] for t in allowed_options(caster)["type"]] == ["attack", "defensive"]


# --- allowed options --------------------------------------------------------------------


def test_allowed_options_shape_and_prices() -> None:
    options = allowed_options(MAIDEN)
    json.dumps(options)
    assert set(options) == {
        "type",
        "builds",
        "to_hit",
        "targets",
        "aoe",
        "duration",
        "attack_power",
        "element",
        "skills",
        "bombable_skills",
        "efficiency",
        "minimum_cost",
        "bomb_multiplier",
        "aoe_targets_multiplier",
    }
    assert [t["value"] for t in options["type"]] == ["attack", "defensive", "special"]
    assert {s["slug"] for s in options["skills"]} == {
        "healing",
        "recover",
        "goddess_element",
        "divine_insight",
        "stay_where_you_are",
        "divine_fire",
    }
    elements = {e["value"]: (e["distance"], e["cost"]) for e in options["element"]}
    assert elements["fire"] == ("own", 0)
    assert elements["metal"] == ("same_cycle", 40)
    assert elements["spirit"] == ("other_cycle", 80)
    targets = {t["value"]: (t["cost"], t["cost_with_aoe"]) for t in options["targets"]}
    assert targets == {
        "self": (0, 0),
        "single": (10, 0),
        "two": (20, 40),
        "three": (50, 100),
        "four": (80, 160),
    }
    assert [a["cost"] for a in options["aoe"]] == [0, 40, 60, 100, 120, 150]
    assert [d["cost"] for d in options["attack_power"]["dice"]] == [5, 10, 15, 20, 40, 60, 80, 100]
    assert options["efficiency"] is None
    assert allowed_options(LIBRARIAN)["efficiency"] == {"discount": 10, "floor": 10}
    healing = next(s for s in options["skills"] if s["slug"] == "healing")
    assert healing["build"] == "defensive"
    assert healing["params"] == [
        {
            "name": "dice",
            "kind": "choice",
            "label": "Hit-point dice",
            "minimum": None,
            "choices": [1, 2, 4],
        }
    ]


@pytest.mark.parametrize("profession", list(Profession))
def test_every_profession_is_offered_only_its_own_skills(profession: Profession) -> None:
    caster = CasterInfo(profession, "spectrum_mystery", E.WIND)
    offered = {s["slug"] for s in allowed_options(caster)["skills"]}
    assert offered == {slug for slug, s in SKILLS.items() if s.profession == profession}


def test_skill_catalogue_matches_the_rulebook() -> None:
    by_profession = {p: [s.slug for s in skills_for(p)] for p in Profession}
    assert by_profession[P.CAREFREE_SOUL] == [
        "die",
        "i_wanna_be_over_there",
        "what_was_i_doing_again",
        "stay_still",
        "i_dont_wanna_be_painful_anymore",
        "but_dying_is_no_fun",
    ]
    assert len(by_profession[P.DOLL_MASTER]) == 6
    assert len(by_profession[P.GUARDIAN]) == 6
    assert len(SKILLS) == 33


# --- card JSON form ---------------------------------------------------------------------

PARAMS = st.dictionaries(
    st.text(min_size=1, max_size=8), st.integers(-5, 50) | st.text(max_size=8), max_size=3
)
SKILL_CHOICES = st.builds(
    lambda slug, params: SkillChoice(slug, tuple(params.items())),
    st.sampled_from(sorted(SKILLS)) | st.text(min_size=1, max_size=10),
    PARAMS,
)
ANY_CARDS = st.builds(
    SpellcardDraft,
    name=st.text(max_size=30),
    type=st.sampled_from(list(CardType)),
    bomb=st.booleans(),
    to_hit=st.sampled_from(list(ToHit)),
    targets=st.none() | st.sampled_from(list(Targets)),
    aoe=st.integers(-2, 9),
    duration=st.sampled_from(list(Duration)),
    attack_power=st.none() | st.builds(AttackPower, st.integers(-1, 10), st.integers(-3, 40)),
    element=st.none() | st.sampled_from(list(Element)),
    skills=st.lists(SKILL_CHOICES, max_size=3).map(tuple),
)
CASTERS = st.builds(
    CasterInfo,
    profession=st.sampled_from(list(Profession)),
    shot_type=st.sampled_from(["magic_missile", "spectrum_mystery"]),
    element=st.sampled_from(list(Element)),
    goddess_element=st.none() | st.sampled_from(list(Element)),
)


@settings(max_examples=300, deadline=None)
@given(draft=ANY_CARDS)
def test_to_dict_from_dict_round_trips_through_json(draft: SpellcardDraft) -> None:
    data = json.loads(json.dumps(draft.to_dict()))
    assert SpellcardDraft.from_dict(data) == draft
    assert SpellcardDraft.from_dict(data).to_dict() == data


@settings(max_examples=300, deadline=None)
@given(draft=ANY_CARDS, caster=CASTERS)
def test_validate_never_raises_and_names_fields(draft: SpellcardDraft, caster: CasterInfo) -> None:
    for violation in validate(draft, caster):
        assert violation.code and violation.field and violation.message and violation.section


def test_skill_params_order_does_not_matter() -> None:
    a = SkillChoice("lethal_bonus", (("b", 1), ("a", 2)))
    assert a == SkillChoice.of("lethal_bonus", a=2, b=1)
    assert a.param("a") == 2


def test_from_dict_names_every_malformed_field() -> None:
    with pytest.raises(CardFormatError) as error:
        SpellcardDraft.from_dict(
            {
                "name": 3,
                "type": "bomb",
                "bomb": "yes",
                "aoe": "1",
                "duration": "forever",
                "attack_power": {"dice": 2, "mod": 1},
                "skills": [{"slug": "healing", "params": {"dice": True}}],
                "colour": "red",
            }
        )
    message = str(error.value)
    for part in (
        "unknown fields: colour",
        "name:",
        "type:",
        "bomb:",
        "aoe:",
        "duration:",
        "attack_power:",
        "skills[0].params.dice",
    ):
        assert part in message


def test_from_dict_defaults() -> None:
    draft = SpellcardDraft.from_dict({"name": "Plain", "type": "defensive"})
    assert draft == SpellcardDraft("Plain", CardType.DEFENSIVE)
    assert draft.targets is T.SINGLE and draft.duration is D.INSTANTANEOUS


def test_duration_properties() -> None:
    assert D.INSTANTANEOUS.rounds == 1 and not D.INSTANTANEOUS.homing
    assert D.HOMING_4.rounds == 4 and D.HOMING_4.homing
    assert D.SINGLE_SPACE_3.rounds == 3 and not D.SINGLE_SPACE_3.homing


def test_caster_rejects_unknown_profession_and_level() -> None:
    with pytest.raises(ValueError):
        CasterInfo("pirate", "magic_missile", E.FIRE)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        CasterInfo(P.WITCH, "magic_missile", E.FIRE, level=0)
    assert CasterInfo("witch", "x", "fire").profession is P.WITCH  # type: ignore[arg-type]
