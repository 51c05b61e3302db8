"""Character creation: validation reports every broken rule at once; drafts round-trip.

Rulebook: ruleset v0.6 "Character Creation" (shot-types, races, professions, elemental
affinity, bonus points, skills, abilities) and "Items" (armor, natural weapons).
"""

from __future__ import annotations

import itertools
import json
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from westernroses.catalog import get_catalog
from westernroses.characters import (
    ActiveEffect,
    CharacterDraft,
    DraftFormatError,
    ItemStack,
    derive_sheet,
    starting_kit,
    validate,
    with_starting_kit,
)
from westernroses.characters.builder import BLOCKING, WAIVABLE, is_valid
from westernroses.characters.draft import EFFECT_TARGETS
from westernroses.characters.drunkenness import DrunkLevel
from westernroses.elements import Element

CAT = get_catalog()
AVAILABLE = sorted(s for s, p in CAT.professions.items() if p.available)
GENERAL_ABILITIES = sorted(s for s, a in CAT.abilities.items() if not a.manipulation)


def minimal_draft(shot_type: str, race: str, profession: str, /, **changes: Any) -> CharacterDraft:
    """The smallest legal character for a combination: all points dumped, plain abilities."""
    abilities = ["hard_to_kill", "ley_lines"][: 1 + CAT.races[race].extra_abilities]
    draft = CharacterDraft(
        name="Test",
        shot_type=shot_type,
        race=race,
        profession=profession,
        element="fire",
        bonus_points={"pwr": 20},
        skill_points={"stealth": 10},
        abilities=abilities,
        natural_weapon="claws" if race == "youkai" else None,
        goddess_element="light" if profession == "shrine_maiden" else None,
        guardian_charge="the village" if profession == "guardian" else None,
    )
    draft = with_starting_kit(draft)
    for key, value in changes.items():
        setattr(draft, key, value)
    return draft


def codes(draft: CharacterDraft) -> list[str]:
    return [v.code for v in validate(draft)]


def _split(draw: st.DrawFn, amount: int, keys: list[str]) -> dict[str, int]:
    """``amount`` points spread over ``keys`` (zeros left out), every split possible."""
    cuts = sorted(draw(st.lists(st.integers(0, amount), min_size=len(keys) - 1)))[: len(keys) - 1]
    cuts += [amount] * (len(keys) - 1 - len(cuts))
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, amount], strict=True)]
    return {k: v for k, v in zip(keys, parts, strict=True) if v}


@st.composite
def valid_drafts(draw: st.DrawFn) -> CharacterDraft:
    """Random legal characters in random states (level, drink, status, buffs, damage)."""
    shot = draw(st.sampled_from(sorted(CAT.shot_types)))
    race = draw(st.sampled_from(sorted(CAT.races)))
    profession = draw(st.sampled_from(AVAILABLE))
    element = draw(st.sampled_from([e.value for e in Element]))
    allowed = [
        s for s, a in CAT.abilities.items() if a.element is None or a.element.value == element
    ]
    count = 1 + CAT.races[race].extra_abilities
    abilities = draw(
        st.lists(st.sampled_from(allowed), min_size=count, max_size=count, unique=True)
    )
    assume(sum(CAT.abilities[a].manipulation for a in abilities) <= 1)
    choices = {}
    if "skill_focus" in abilities:
        choices["skill_focus"] = draw(st.sampled_from(sorted(CAT.skills)))
    kit_choices = {
        i: draw(st.sampled_from(entry.options))
        for i, entry in enumerate(CAT.professions[profession].starting_equipment)
        if entry.is_choice
    }
    draft = CharacterDraft(
        name=draw(st.text(min_size=1, max_size=12).filter(str.strip)),
        shot_type=shot,
        race=race,
        profession=profession,
        element=element,
        goddess_element=(
            draw(st.sampled_from([e.value for e in Element]))
            if profession == "shrine_maiden"
            else None
        ),
        bonus_points=_split(draw, 20, ["pwr", "cha", "int", "ins"]),
        skill_points=_split(draw, 10, sorted(CAT.skills)),
        abilities=abilities,
        ability_choices=choices,
        natural_weapon="tail" if race == "youkai" else None,
        guardian_charge="a lantern" if profession == "guardian" else None,
    )
    draft = with_starting_kit(draft, kit_choices)
    draft.level = draw(st.integers(1, 6))
    draft.drunkenness = draw(st.sampled_from([level.value for level in DrunkLevel]))
    draft.status_effects = draw(st.lists(st.sampled_from(sorted(CAT.status_effects)), unique=True))
    draft.effects = draw(
        st.lists(
            st.builds(
                ActiveEffect,
                target=st.sampled_from(EFFECT_TARGETS),
                amount=st.integers(-6, 50),
                source=st.sampled_from(["Read a book", "Sturdy", "Bob and weave"]),
                rounds=st.none() | st.integers(1, 5),
            ),
            max_size=3,
        )
    )
    draft.guardian_charge_injured = draw(st.booleans()) if profession == "guardian" else False
    draft.clothing_covered = draw(st.booleans())
    draft.spell_power = draw(st.none() | st.integers(0, 400))
    # between utter destruction (-100) and the maximum (docs/characters.md)
    top = derive_sheet(draft).hp.maximum.total
    draft.current_hp = draw(st.none() | st.integers(-100, max(-100, top)))
    return draft


# --------------------------------------------------------------------------- legal characters


def test_every_combination_builds_a_valid_sheet() -> None:
    """Every shot-type x race x available profession, with a minimal allocation, is legal and
    derives a sheet ("Character Creation", steps 1-7)."""
    started = time.perf_counter()
    combos = list(itertools.product(sorted(CAT.shot_types), sorted(CAT.races), AVAILABLE))
    assert len(combos) == 10 * 8 * 7
    for shot, race, profession in combos:
        draft = minimal_draft(shot, race, profession)
        assert validate(draft) == [], (shot, race, profession)
        sheet = derive_sheet(draft)
        shot_pwr = CAT.shot_types[shot].stats["pwr"]
        assert sheet.stats["pwr"].total >= shot_pwr + 20 - 2  # worst race PWR bonus is -2
        assert sheet.problems == ()
    assert time.perf_counter() - started < 10


@given(valid_drafts())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_legal_drafts_are_valid(draft: CharacterDraft) -> None:
    """ "Character Creation" steps 1-7: the property tests' strategy only makes legal drafts."""
    assert validate(draft) == []


# --------------------------------------------------------------------------- violations


def test_invalid_draft_reports_every_broken_rule_at_once() -> None:
    """21 bonus points, 9 skill points, two manipulations and armor on a non-Guardian:
    "Bonus Points", "Skills", "Manipulation abilities" and "Armor" are all reported."""
    draft = minimal_draft(
        "night_dance",
        "pony",
        "carefree_soul",
        bonus_points={"pwr": 11, "cha": 10},
        skill_points={"stealth": 9},
        abilities=["manipulation_of_fire", "manipulation_of_earth"],
    )
    draft.inventory["leather_armor"] = ItemStack(quantity=1, equipped=True)
    violations = validate(draft)
    assert [v.code for v in violations] == [
        "bonus_points.total",
        "skill_points.total",
        "abilities.manipulation_count",
        "equipment.armor_not_allowed",
    ]
    by_code = {v.code: v for v in violations}
    assert by_code["bonus_points.total"].rule == "Character Creation > Bonus Points"
    assert "21 spent" in by_code["bonus_points.total"].message
    assert by_code["skill_points.total"].field == "skill_points"
    assert by_code["abilities.manipulation_count"].rule.endswith("Manipulation abilities")
    assert by_code["equipment.armor_not_allowed"].field == "inventory.leather_armor.equipped"
    assert by_code["equipment.armor_not_allowed"].rule == "Items > Armor"
    # The sheet still derives, for a live preview, and lists the problems.
    assert [p.code for p in derive_sheet(draft).problems] == [v.code for v in violations]


def test_empty_draft_lists_every_missing_choice() -> None:
    """ "Character Creation" steps 1-7: a blank draft names each step still to do."""
    assert codes(CharacterDraft()) == [
        "name.missing",
        "shot_type.missing",
        "race.missing",
        "profession.missing",
        "element.missing",
        "bonus_points.total",
        "skill_points.total",
        "abilities.count",
    ]


BASE = ("misdirection", "fairy", "librarian")


@pytest.mark.parametrize(
    ("changes", "code", "field"),
    [
        ({"shot_type": "laser_beam"}, "shot_type.unknown", "shot_type"),
        ({"race": "kappa"}, "race.unknown", "race"),
        ({"profession": "witch"}, "profession.unavailable", "profession"),
        ({"profession": "pirate"}, "profession.unknown", "profession"),
        ({"element": "ice"}, "element.unknown", "element"),
        ({"goddess_element": "fire"}, "goddess_element.not_allowed", "goddess_element"),
        ({"guardian_charge": "x"}, "guardian_charge.not_allowed", "guardian_charge"),
        ({"natural_weapon": "claws"}, "natural_weapon.not_allowed", "natural_weapon"),
        ({"bonus_points": {"pwr": 20, "hp": 0}}, "bonus_points.unknown_stat", "bonus_points.hp"),
        (
            {"bonus_points": {"pwr": 25, "cha": -5}},
            "bonus_points.negative",
            "bonus_points.cha",
        ),
        ({"bonus_points": {"pwr": 19}}, "bonus_points.total", "bonus_points"),
        (
            {"skill_points": {"stealth": 11, "will": -1}},
            "skill_points.negative",
            "skill_points.will",
        ),
        ({"skill_points": {"cooking": 10}}, "skill_points.unknown_skill", "skill_points.cooking"),
        ({"abilities": []}, "abilities.count", "abilities"),
        ({"abilities": ["hard_to_kill", "ley_lines"]}, "abilities.count", "abilities"),
        ({"abilities": ["x_ray"]}, "abilities.unknown", "abilities[0]"),
        ({"abilities": ["skill_focus"]}, "abilities.choice_missing", "ability_choices.skill_focus"),
        (
            {"abilities": ["skill_focus"], "ability_choices": {"skill_focus": "cooking"}},
            "abilities.choice_unknown",
            "ability_choices.skill_focus",
        ),
        (
            {"ability_choices": {"skill_focus": "stealth"}},
            "abilities.choice_not_taken",
            "ability_choices.skill_focus",
        ),
        (
            {"abilities": ["manipulation_of_ice"]},
            "abilities.manipulation_element",
            "abilities[0]",
        ),
        (
            {"inventory": {"lightsaber": ItemStack()}},
            "inventory.unknown_item",
            "inventory.lightsaber",
        ),
        ({"inventory": {"sword": ItemStack(0)}}, "inventory.quantity", "inventory.sword.quantity"),
        (
            {"inventory": {"bare_fists": ItemStack()}},
            "inventory.natural_weapon",
            "inventory.bare_fists",
        ),
        ({"yen": -1}, "yen.negative", "yen"),
        ({"level": 0}, "level.range", "level"),
        ({"drunkenness": "smashed"}, "drunkenness.unknown", "drunkenness"),
        ({"status_effects": ["sleepy"]}, "status_effects.unknown", "status_effects[0]"),
        ({"status_effects": ["blind", "blind"]}, "status_effects.duplicate", "status_effects"),
        ({"effects": [ActiveEffect("luck", 1, "x")]}, "effects.target", "effects[0].target"),
        ({"effects": [ActiveEffect("pwr", 1, "x", 0)]}, "effects.rounds", "effects[0].rounds"),
        ({"spell_power": 401}, "spell_power.range", "spell_power"),
        ({"gm_waivers": ["bonus_points.total"]}, "gm_waivers.not_waivable", "gm_waivers"),
        ({"name": "  "}, "name.missing", "name"),
    ],
)
def test_each_rule_is_reported_with_its_field(
    changes: dict[str, Any], code: str, field: str
) -> None:
    """ "Character Creation" (and "Items", "Drinking", "Status Effects"): each rule has a
    stable code and names the draft field it concerns."""
    violations = validate(minimal_draft(*BASE, **changes))
    assert (code, field) in [(v.code, v.field) for v in violations]
    assert all(v.rule and v.message for v in violations)


@pytest.mark.parametrize(
    ("race", "profession", "code"),
    [
        ("youkai", "librarian", "natural_weapon.missing"),
        ("fairy", "shrine_maiden", "goddess_element.missing"),
        ("fairy", "guardian", "guardian_charge.missing"),
    ],
)
def test_required_creation_choices(race: str, profession: str, code: str) -> None:
    """ "Races" > Youkai choose a natural weapon; "Professions" > Shrine Maidens choose a
    goddess's element and every Guardian has a charge."""
    draft = minimal_draft(
        "misdirection",
        race,
        profession,
        natural_weapon=None,
        goddess_element=None,
        guardian_charge=None,
    )
    assert code in codes(draft)


def test_ponies_pick_two_abilities() -> None:
    """ "Ponies receive an additional ability at creation"."""
    assert codes(minimal_draft("misdirection", "pony", "librarian")) == []
    one = minimal_draft("misdirection", "pony", "librarian", abilities=["hard_to_kill"])
    assert codes(one) == ["abilities.count"]
    assert "Pony characters pick exactly 2 abilities" in validate(one)[0].message
    same = minimal_draft("misdirection", "pony", "librarian", abilities=["ley_lines"] * 2)
    assert codes(same) == ["abilities.duplicate"]


@pytest.mark.parametrize(
    ("ability", "element", "ok"),
    [
        ("manipulation_of_ice", "water", True),  # "Manipulation of Ice requires a water affinity"
        ("manipulation_of_ice", "fire", False),
        ("manipulation_of_water", "water", True),
        ("manipulation_of_fire", "water", False),
        ("manipulation_of_darkness", "darkness", True),
        ("manipulation_of_light", "darkness", False),
        ("manipulation_of_earth", "wind", True),  # "not an elemental manipulation"
        ("manipulation_of_electricity", "spirit", True),
        ("manipulation_of_the_floor", "metal", True),
    ],
)
def test_elemental_manipulations_need_the_own_element(ability: str, element: str, ok: bool) -> None:
    """ "a character can only take an elemental manipulation of the same type as her elemental
    affinity"."""
    draft = minimal_draft(*BASE, abilities=[ability], element=element)
    assert is_valid(draft) is ok


def test_gm_may_waive_the_manipulation_element() -> None:
    """ "(except under certain situations also at the DM's discretion)": only this rule."""
    draft = minimal_draft(*BASE, abilities=["manipulation_of_ice"], element="fire")
    draft.gm_waivers = ["abilities.manipulation_element"]
    assert validate(draft) == []
    assert {"abilities.manipulation_element"} == WAIVABLE


def test_guardians_may_wear_armor_but_only_one() -> None:
    """ "Guardians have the unique ability to wear armor"; one armor at a time."""
    guardian = minimal_draft("fourth_strike", "oni", "guardian")
    assert guardian.inventory["leather_armor"].equipped
    assert validate(guardian) == []
    guardian.guardian_charge_injured = True  # "they retain this ability even if injured"
    assert validate(guardian) == []
    carried = minimal_draft(*BASE)
    carried.inventory["leather_armor"] = ItemStack(1, equipped=False)
    assert validate(carried) == []  # carrying armor is fine, wearing it is not


def test_blocking_codes_stop_the_sheet() -> None:
    """ "Character Creation": unknown names leave nothing to compute; counting mistakes
    (bonus points, skills) still preview."""
    assert "bonus_points.total" not in BLOCKING
    assert {"race.unknown", "abilities.unknown", "inventory.unknown_item"} <= BLOCKING


# --------------------------------------------------------------------------- starting kits


def test_starting_kits_follow_the_professions() -> None:
    """ "-Starting Equipment" of each profession, with the listed yen."""
    kit, yen = starting_kit("guardian")
    assert (kit, yen) == (
        {"leather_armor": ItemStack(1, True), "sword": ItemStack(1, True)},
        100,
    )
    kit, yen = starting_kit("combat_maid", choices={1: "shuriken"})
    assert kit["shuriken"] == ItemStack(20, True) and yen == 200
    kit, yen = starting_kit("doll_master")
    assert kit["doll"].quantity == 4 and yen == 0
    kit, yen = starting_kit("carefree_soul")
    assert kit == {
        "basic_clothing": ItemStack(1, True),
        "basic_improvised_weapon": ItemStack(1, True),
    }
    assert yen == 1000
    kit, _ = starting_kit("shrine_maiden")
    assert set(kit) == {"shrine_maiden_outfit", "gohei"}


def test_race_and_ability_items_join_the_kit_once() -> None:
    """Magicians "begin the game in possession of a grimoire"; the Grimoire ability gives one
    only "if you did not already have one"."""
    kit, _ = starting_kit("librarian", "magician", ["grimoire"])
    assert kit["grimoire"] == ItemStack(1, False)
    assert set(kit) == {"book", "basic_clothing", "grimoire"}
    kit, _ = starting_kit("librarian", "pony", ["grimoire", "ley_lines"])
    assert kit["grimoire"].quantity == 1


def test_kit_choice_must_be_offered() -> None:
    """ "Professions" > Starting Equipment: a choice ("minor weapon") must be one offered."""
    with pytest.raises(ValueError, match="choose one of"):
        starting_kit("guardian", choices={1: "needles"})
    with pytest.raises(ValueError, match="no equipment choice"):
        starting_kit("guardian", choices={5: "sword"})
    with pytest.raises(ValueError, match="profession"):
        with_starting_kit(CharacterDraft())


# --------------------------------------------------------------------------- round trip


arbitrary_drafts = st.builds(
    CharacterDraft,
    name=st.text(max_size=10),
    shot_type=st.none() | st.text(max_size=10),
    race=st.none() | st.text(max_size=10),
    profession=st.none() | st.text(max_size=10),
    element=st.none() | st.text(max_size=5),
    goddess_element=st.none() | st.text(max_size=5),
    bonus_points=st.dictionaries(st.text(max_size=4), st.integers(), max_size=5),
    skill_points=st.dictionaries(st.text(max_size=4), st.integers(), max_size=5),
    abilities=st.lists(st.text(max_size=6), max_size=3),
    ability_choices=st.dictionaries(st.text(max_size=4), st.text(max_size=4), max_size=2),
    natural_weapon=st.none() | st.text(max_size=6),
    guardian_charge=st.none() | st.text(max_size=6),
    guardian_charge_injured=st.booleans(),
    inventory=st.dictionaries(
        st.text(max_size=6), st.builds(ItemStack, st.integers(), st.booleans()), max_size=3
    ),
    clothing_covered=st.booleans(),
    yen=st.integers(),
    level=st.integers(),
    drunkenness=st.text(max_size=8),
    status_effects=st.lists(st.text(max_size=6), max_size=3),
    effects=st.lists(
        st.builds(ActiveEffect, st.text(max_size=4), st.integers(), st.text(max_size=4)),
        max_size=2,
    ),
    current_hp=st.none() | st.integers(),
    spell_power=st.none() | st.integers(),
    gm_waivers=st.lists(st.text(max_size=6), max_size=2),
)


@given(st.one_of(arbitrary_drafts, valid_drafts()))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_to_dict_from_dict_round_trips_exactly(draft: CharacterDraft) -> None:
    """ "Character Creation" drafts are stored: ``from_dict(to_dict(d)) == d``, also through
    JSON, valid or not."""
    data = draft.to_dict()
    assert CharacterDraft.from_dict(data) == draft
    assert CharacterDraft.from_dict(json.loads(json.dumps(data))) == draft
    assert CharacterDraft.from_dict(data).to_dict() == data


def test_from_dict_defaults_and_shape_errors() -> None:
    """ "Character Creation" drafts from storage: missing keys take defaults; data of the
    wrong shape names its field."""
    assert CharacterDraft.from_dict({}) == CharacterDraft()
    bad = [
        ({"colour": "red"}, "colour"),
        ({"bonus_points": [1, 2]}, "bonus_points"),
        ({"bonus_points": {"pwr": "5"}}, "bonus_points.pwr"),
        ({"level": True}, "level"),
        ({"inventory": {"sword": 1}}, "inventory.sword"),
        ({"inventory": {"sword": {"quantity": 1, "equipped": "yes"}}}, "inventory.sword.equipped"),
        ({"effects": [{"target": "pwr", "amount": 1.5, "source": ""}]}, "effects[0].amount"),
        ({"abilities": "hard_to_kill"}, "abilities"),
        ({"name": None}, "name"),
    ]
    for data, field in bad:
        with pytest.raises(DraftFormatError) as caught:
            CharacterDraft.from_dict(data)
        assert caught.value.field == field, data


def test_current_hp_lies_between_utter_destruction_and_the_maximum() -> None:
    """Ruleset "Attacking and Dodging": dead below 0, "At -100 your body is completely and utterly
    destroyed"; nothing is lower, and current HP is never above the sheet's maximum (Hard to Kill
    and the Guardian's 20 HP count; docs/characters.md)."""
    draft = minimal_draft("charge_of_virtue", "pony", "guardian")
    top = derive_sheet(draft).hp.maximum.total
    assert top == 180  # Charge of Virtue 140 + Hard to Kill 20 + Guardian 20
    for ok in (top, 1, 0, -1, -100):
        draft.current_hp = ok
        assert "current_hp.above_max" not in codes(draft)
        assert "current_hp.below_floor" not in codes(draft)
    draft.current_hp = top + 1
    (above,) = [v for v in validate(draft) if v.code == "current_hp.above_max"]
    assert above.field == "current_hp"
    assert above.message.startswith("Current HP cannot be above the maximum of 180 (181 given)")
    draft.current_hp = -101
    (below,) = [v for v in validate(draft) if v.code == "current_hp.below_floor"]
    assert "utterly destroyed" in below.message
    # the Guardian's charge injured: her maximum is 20 lower, so 180 no longer fits (RULINGS 13)
    draft.current_hp = top
    draft.guardian_charge_injured = True
    assert "current_hp.above_max" in codes(draft)
    # such a sheet still counts its current HP within the bounds (a battle starts from it),
    # and its problems name the stored value
    sheet = derive_sheet(draft)
    assert sheet.hp.maximum.total == 160 and sheet.hp.current == 160
    assert any(p.code == "current_hp.above_max" for p in sheet.problems)
    draft.current_hp = -150  # saved before the floor was checked
    assert derive_sheet(draft).hp.current == -100


def test_every_draft_field_has_words() -> None:
    """Problems name their field in words (the import page listed "shot_type: ...")."""
    from dataclasses import fields

    from westernroses.characters.draft import FIELD_LABELS, field_words

    assert set(FIELD_LABELS) == {f.name for f in fields(CharacterDraft)}
    assert field_words("shot_type") == "Shot-type"
    assert field_words("abilities[1]") == "Abilities"
    assert field_words("inventory.sword.equipped") == "Equipment"
