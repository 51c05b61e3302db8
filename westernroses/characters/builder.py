"""Character-creation rules: what makes a draft legal, and a profession's starting kit.

:func:`validate` reports *every* problem at once, so a player fixing her sheet sees the whole
list instead of one error per save. Each :class:`RuleViolation` has a stable ``code`` (for
the API and translations), the draft ``field`` it concerns, a human ``message`` and the
rulebook ``rule`` (section) it breaks. Codes in :data:`BLOCKING` mean the sheet cannot be
derived at all (an unknown race has no numbers); the rest still allow a live preview.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

from westernroses.catalog import MAIN_STATS, STAT_NAMES, Catalog, get_catalog
from westernroses.characters.draft import EFFECT_TARGETS, CharacterDraft, ItemStack
from westernroses.characters.drunkenness import parse_level
from westernroses.characters.effects import gather_effects, hp_max_parts
from westernroses.characters.levels import level_problem
from westernroses.elements import Element
from westernroses.house_rules import DEFAULT_HOUSE_RULES, HouseRules

BONUS_POINTS: Final = 20
SKILL_POINTS: Final = 10
ABILITIES_AT_CREATION: Final = 1

# Rulebook sections, as the ``rule`` of a violation.
R_CREATION: Final = "Character Creation"
R_SHOT_TYPES: Final = "Character Creation > Shot-types"
R_RACES: Final = "Character Creation > Races"
R_PROFESSIONS: Final = "Character Creation > Professions"
R_ELEMENT: Final = "Character Creation > Elemental Affinity"
R_BONUS: Final = "Character Creation > Bonus Points"
R_SKILLS: Final = "Character Creation > Skills"
R_ABILITIES: Final = "Character Creation > Abilities"
R_MANIPULATION: Final = "Character Creation > Abilities > Manipulation abilities"
R_ITEMS: Final = "Items"
R_ARMOR: Final = "Items > Armor"
R_NATURAL: Final = "Items > Natural Weapons"
R_SPELLCARDS: Final = "Spellcards"
R_SPELL_POWER: Final = "Spell Power"
R_DRINKING: Final = "Drinking"
R_STATUS: Final = "Status Effects"
R_WOUNDS: Final = "Attacking and Dodging > Mortal Wounds, Death, Utter Destruction"

# "Utter Destruction – At -100 your body is completely and utterly destroyed": no HP below
# it means anything, so a sheet's current HP is never lower.
HP_FLOOR: Final = -100

#: Violations the GM may allow: the rulebook leaves these to "the DM's discretion".
WAIVABLE: Final = frozenset({"abilities.manipulation_element"})

#: Violations that leave nothing to derive a sheet from.
BLOCKING: Final = frozenset(
    {
        "shot_type.missing",
        "shot_type.unknown",
        "race.missing",
        "race.unknown",
        "profession.missing",
        "profession.unknown",
        "profession.unavailable",
        "element.missing",
        "element.unknown",
        "goddess_element.unknown",
        "bonus_points.unknown_stat",
        "skill_points.unknown_skill",
        "abilities.unknown",
        "inventory.unknown_item",
        "level.range",
        "drunkenness.unknown",
        "status_effects.unknown",
        "effects.target",
    }
)


@dataclass(frozen=True, slots=True)
class RuleViolation:
    """One broken rule: stable ``code``, the draft ``field``, a ``message`` and the ``rule``."""

    code: str
    field: str
    message: str
    rule: str

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "field": self.field, "message": self.message, "rule": self.rule}


class _Report:
    def __init__(self, waivers: frozenset[str]) -> None:
        self.violations: list[RuleViolation] = []
        self.waivers = waivers

    def add(self, code: str, field: str, message: str, rule: str) -> None:
        if code in WAIVABLE and code in self.waivers:
            return
        self.violations.append(RuleViolation(code, field, message, rule))


_ELEMENT_VALUES: Final = frozenset(e.value for e in Element)


def _element_names() -> str:
    return ", ".join(e.value for e in Element)


def validate(
    draft: CharacterDraft,
    rules: HouseRules = DEFAULT_HOUSE_RULES,
    catalog: Catalog | None = None,
) -> list[RuleViolation]:
    """Every rule ``draft`` breaks, in a stable order; an empty list means it is legal."""
    cat = catalog or get_catalog()
    report = _Report(frozenset(draft.gm_waivers))
    _check_identity(draft, cat, report)
    _check_points(draft, cat, report)
    _check_abilities(draft, cat, report)
    _check_equipment(draft, cat, report)
    _check_state(draft, rules, cat, report)
    _check_hp(draft, rules, cat, report)
    return report.violations


def is_valid(
    draft: CharacterDraft,
    rules: HouseRules = DEFAULT_HOUSE_RULES,
    catalog: Catalog | None = None,
) -> bool:
    return not validate(draft, rules, catalog)


def blocking(violations: list[RuleViolation]) -> list[RuleViolation]:
    """The violations that prevent deriving a sheet."""
    return [v for v in violations if v.code in BLOCKING]


def _check_identity(draft: CharacterDraft, cat: Catalog, report: _Report) -> None:
    if not draft.name.strip():
        report.add("name.missing", "name", "Give the character a name.", R_CREATION)

    if not draft.shot_type:
        report.add("shot_type.missing", "shot_type", "Choose a shot-type.", R_SHOT_TYPES)
    elif draft.shot_type not in cat.shot_types:
        report.add(
            "shot_type.unknown",
            "shot_type",
            f"Unknown shot-type {draft.shot_type!r}.",
            R_SHOT_TYPES,
        )

    if not draft.race:
        report.add("race.missing", "race", "Choose a race.", R_RACES)
    elif draft.race not in cat.races:
        report.add("race.unknown", "race", f"Unknown race {draft.race!r}.", R_RACES)

    profession = cat.professions.get(draft.profession or "")
    if not draft.profession:
        report.add("profession.missing", "profession", "Choose a profession.", R_PROFESSIONS)
    elif profession is None:
        report.add(
            "profession.unknown",
            "profession",
            f"Unknown profession {draft.profession!r}.",
            R_PROFESSIONS,
        )
    elif not profession.available:
        report.add(
            "profession.unavailable",
            "profession",
            f"{profession.name} is not yet implemented in the rulebook.",
            R_PROFESSIONS,
        )

    if not draft.element:
        report.add("element.missing", "element", "Choose an elemental affinity.", R_ELEMENT)
    elif draft.element not in _ELEMENT_VALUES:
        report.add(
            "element.unknown",
            "element",
            f"Unknown element {draft.element!r}; choose one of {_element_names()}.",
            R_ELEMENT,
        )

    needs_goddess = profession is not None and profession.needs_goddess_element
    if draft.goddess_element is not None and draft.goddess_element not in _ELEMENT_VALUES:
        report.add(
            "goddess_element.unknown",
            "goddess_element",
            f"Unknown element {draft.goddess_element!r}; choose one of {_element_names()}.",
            R_PROFESSIONS,
        )
    elif needs_goddess and not draft.goddess_element:
        report.add(
            "goddess_element.missing",
            "goddess_element",
            "A Shrine Maiden chooses an element for her patron goddess.",
            R_PROFESSIONS,
        )
    elif draft.goddess_element and profession is not None and not needs_goddess:
        report.add(
            "goddess_element.not_allowed",
            "goddess_element",
            "Only Shrine Maidens serve a patron goddess.",
            R_PROFESSIONS,
        )

    needs_charge = profession is not None and profession.needs_charge
    if needs_charge and not (draft.guardian_charge or "").strip():
        report.add(
            "guardian_charge.missing",
            "guardian_charge",
            "Every Guardian has a charge (an item or another character) to protect.",
            R_PROFESSIONS,
        )
    elif draft.guardian_charge and profession is not None and not needs_charge:
        report.add(
            "guardian_charge.not_allowed",
            "guardian_charge",
            "Only Guardians have a charge.",
            R_PROFESSIONS,
        )

    if draft.unconnected_dolls:
        dolls = sum(stack.quantity for slug, stack in draft.inventory.items() if slug == "doll")
        if profession is not None and profession.slug != "doll_master":
            report.add(
                "unconnected_dolls.not_allowed",
                "unconnected_dolls",
                "Only Doll Masters mark dolls as connected or not.",
                R_PROFESSIONS,
            )
        elif draft.unconnected_dolls < 0 or draft.unconnected_dolls > dolls:
            report.add(
                "unconnected_dolls.range",
                "unconnected_dolls",
                f"She can feel no connection with at most the {dolls} dolls she has.",
                R_PROFESSIONS,
            )

    race = cat.races.get(draft.race or "")
    has_choice = race is not None and race.natural_weapon_choice
    if has_choice and not (draft.natural_weapon or "").strip():
        report.add(
            "natural_weapon.missing",
            "natural_weapon",
            "Youkai choose a natural weapon (teeth, claws, tail, etc) at creation.",
            R_RACES,
        )
    elif draft.natural_weapon and race is not None and not has_choice:
        report.add(
            "natural_weapon.not_allowed",
            "natural_weapon",
            f"{race.name} characters do not choose a natural weapon (only youkai do).",
            R_RACES,
        )


def _check_points(draft: CharacterDraft, cat: Catalog, report: _Report) -> None:
    for stat, points in draft.bonus_points.items():
        if stat not in MAIN_STATS:
            report.add(
                "bonus_points.unknown_stat",
                f"bonus_points.{stat}",
                f"Bonus points go only into the four main stats "
                f"({', '.join(STAT_NAMES.values())}), not {stat!r}.",
                R_BONUS,
            )
        elif points < 0:
            report.add(
                "bonus_points.negative",
                f"bonus_points.{stat}",
                f"{STAT_NAMES[stat]} cannot take {points} bonus points.",
                R_BONUS,
            )
    spent = sum(draft.bonus_points.values())
    if spent != BONUS_POINTS:
        report.add(
            "bonus_points.total",
            "bonus_points",
            f"Spend exactly {BONUS_POINTS} bonus points on the main stats ({spent} spent).",
            R_BONUS,
        )

    for skill, points in draft.skill_points.items():
        if skill not in cat.skills:
            report.add(
                "skill_points.unknown_skill",
                f"skill_points.{skill}",
                f"Unknown skill {skill!r}.",
                R_SKILLS,
            )
        elif points < 0:
            report.add(
                "skill_points.negative",
                f"skill_points.{skill}",
                f"{cat.skills[skill].name} cannot take {points} skill points.",
                R_SKILLS,
            )
    spent = sum(draft.skill_points.values())
    if spent != SKILL_POINTS:
        report.add(
            "skill_points.total",
            "skill_points",
            f"Spend exactly {SKILL_POINTS} skill points ({spent} spent).",
            R_SKILLS,
        )


def _check_abilities(draft: CharacterDraft, cat: Catalog, report: _Report) -> None:
    race = cat.races.get(draft.race or "")
    expected = ABILITIES_AT_CREATION + (race.extra_abilities if race else 0)
    if len(draft.abilities) != expected:
        who = f"{race.name} characters pick" if race else "A character picks"
        report.add(
            "abilities.count",
            "abilities",
            f"{who} exactly {expected} abilit{'y' if expected == 1 else 'ies'} at creation "
            f"({len(draft.abilities)} chosen).",
            R_ABILITIES,
        )
    for slug, count in Counter(draft.abilities).items():
        if count > 1:
            report.add(
                "abilities.duplicate",
                "abilities",
                f"{slug!r} is chosen {count} times; each ability can be taken once.",
                R_ABILITIES,
            )

    manipulations = []
    for i, slug in enumerate(draft.abilities):
        ability = cat.abilities.get(slug)
        if ability is None:
            report.add(
                "abilities.unknown", f"abilities[{i}]", f"Unknown ability {slug!r}.", R_ABILITIES
            )
            continue
        if ability.manipulation:
            manipulations.append(ability)
            element = ability.element
            own = draft.element if draft.element in _ELEMENT_VALUES else None
            if element is not None and own is not None and element.value != own:
                report.add(
                    "abilities.manipulation_element",
                    f"abilities[{i}]",
                    f"{ability.name} requires a {element.value} affinity "
                    f"(the character's is {own}).",
                    R_MANIPULATION,
                )
        if ability.choice == "skill":
            chosen = draft.ability_choices.get(slug)
            if not chosen:
                report.add(
                    "abilities.choice_missing",
                    f"ability_choices.{slug}",
                    f"{ability.name}: choose the skill it applies to.",
                    R_ABILITIES,
                )
            elif chosen not in cat.skills:
                report.add(
                    "abilities.choice_unknown",
                    f"ability_choices.{slug}",
                    f"{ability.name}: unknown skill {chosen!r}.",
                    R_ABILITIES,
                )
    if len(manipulations) > 1:
        names = ", ".join(a.name for a in manipulations)
        report.add(
            "abilities.manipulation_count",
            "abilities",
            f"Only one manipulation ability can be taken ({names}).",
            R_MANIPULATION,
        )
    for slug in draft.ability_choices:
        if slug not in draft.abilities:
            report.add(
                "abilities.choice_not_taken",
                f"ability_choices.{slug}",
                f"A choice is recorded for {slug!r}, which the character does not have.",
                R_ABILITIES,
            )


def _check_equipment(draft: CharacterDraft, cat: Catalog, report: _Report) -> None:
    profession = cat.professions.get(draft.profession or "")
    armor_worn = []
    for slug, stack in draft.inventory.items():
        item = cat.items.get(slug)
        if item is None:
            report.add(
                "inventory.unknown_item", f"inventory.{slug}", f"Unknown item {slug!r}.", R_ITEMS
            )
            continue
        if item.category == "natural_weapon":
            report.add(
                "inventory.natural_weapon",
                f"inventory.{slug}",
                f"{item.name} is part of the body, not an item to carry.",
                R_NATURAL,
            )
        if stack.quantity < 1:
            report.add(
                "inventory.quantity",
                f"inventory.{slug}.quantity",
                f"Carry at least one {item.name} or remove it ({stack.quantity}).",
                R_ITEMS,
            )
        if stack.equipped and item.category == "armor":
            armor_worn.append(item)
            if profession is not None and not profession.may_wear_armor:
                report.add(
                    "equipment.armor_not_allowed",
                    f"inventory.{slug}.equipped",
                    f"Only Guardians can wear armor; a {profession.name} cannot wear {item.name}.",
                    R_ARMOR,
                )
    if len(armor_worn) > 1:
        report.add(
            "equipment.armor_count",
            "inventory",
            f"Wear one armor at a time ({', '.join(a.name for a in armor_worn)}).",
            R_ARMOR,
        )
    if draft.yen < 0:
        report.add("yen.negative", "yen", f"Yen cannot be negative ({draft.yen}).", R_ITEMS)


def _check_state(draft: CharacterDraft, rules: HouseRules, cat: Catalog, report: _Report) -> None:
    problem = level_problem(draft.level)
    if problem:
        report.add("level.range", "level", problem[0].upper() + problem[1:] + ".", R_SPELLCARDS)
    try:
        parse_level(draft.drunkenness)
    except ValueError as exc:
        report.add("drunkenness.unknown", "drunkenness", str(exc), R_DRINKING)
    for i, slug in enumerate(draft.status_effects):
        if slug not in cat.status_effects:
            report.add(
                "status_effects.unknown",
                f"status_effects[{i}]",
                f"Unknown status effect {slug!r}.",
                R_STATUS,
            )
    for slug, count in Counter(draft.status_effects).items():
        if count > 1:
            report.add(
                "status_effects.duplicate",
                "status_effects",
                f"{slug!r} is listed {count} times.",
                R_STATUS,
            )
    for i, effect in enumerate(draft.effects):
        if effect.target not in EFFECT_TARGETS:
            report.add(
                "effects.target",
                f"effects[{i}].target",
                f"A temporary effect cannot change {effect.target!r}; "
                f"choose one of {', '.join(EFFECT_TARGETS)}.",
                R_SPELLCARDS,
            )
        if effect.rounds is not None and effect.rounds < 1:
            report.add(
                "effects.rounds",
                f"effects[{i}].rounds",
                "A temporary effect lasts at least one round; remove it when it ends.",
                R_SPELLCARDS,
            )
    if draft.spell_power is not None and not 0 <= draft.spell_power <= rules.spell_power_cap:
        report.add(
            "spell_power.range",
            "spell_power",
            f"Spell power is between 0 and {rules.spell_power_cap} ({draft.spell_power}).",
            R_SPELL_POWER,
        )
    for code in draft.gm_waivers:
        if code not in WAIVABLE:
            report.add(
                "gm_waivers.not_waivable",
                "gm_waivers",
                f"{code!r} is not left to the GM's discretion by the rulebook.",
                R_CREATION,
            )


def _check_hp(draft: CharacterDraft, rules: HouseRules, cat: Catalog, report: _Report) -> None:
    """Current HP lies between the utter-destruction floor and the sheet's maximum."""
    current = draft.current_hp
    if current is None:
        return
    if current < HP_FLOOR:
        report.add(
            "current_hp.below_floor",
            "current_hp",
            f"Current HP cannot be below {HP_FLOOR}: at {HP_FLOOR} a character is utterly "
            f"destroyed ({current} given).",
            R_WOUNDS,
        )
        return
    if blocking(report.violations):
        return  # no maximum to compare with until the draft names real things
    assert draft.shot_type and draft.race and draft.profession  # noqa: S101
    shot = cat.shot_types[draft.shot_type]
    effects = gather_effects(
        draft,
        cat,
        shot,
        cat.races[draft.race],
        cat.professions[draft.profession],
        [cat.abilities[slug] for slug in draft.abilities],
        rules,
    )
    maximum = sum(part.amount for part in hp_max_parts(draft, shot, effects))
    if current > maximum:
        report.add(
            "current_hp.above_max",
            "current_hp",
            f"Current HP cannot be above the maximum of {maximum} ({current} given); "
            f"leave it empty for an unhurt character.",
            R_WOUNDS,
        )


# --------------------------------------------------------------------------- starting kit


def starting_kit(
    profession: str,
    race: str | None = None,
    abilities: list[str] | tuple[str, ...] = (),
    choices: Mapping[int, str] | None = None,
    catalog: Catalog | None = None,
) -> tuple[dict[str, ItemStack], int]:
    """The inventory and yen a new character starts with.

    Profession equipment (``choices`` maps the index of a "choose" line to the item picked,
    default the first option), race items (a magician's grimoire) and items an ability grants
    (Grimoire). An item given twice is carried once: the Grimoire ability "gives" a magician
    the grimoire she already has.
    """
    cat = catalog or get_catalog()
    prof = cat.professions[profession]
    choices = dict(choices or {})
    inventory: dict[str, ItemStack] = {}

    def give(slug: str, quantity: int, equipped: bool, *, stack: bool) -> None:
        current = inventory.get(slug)
        if current is None:
            inventory[slug] = ItemStack(quantity=quantity, equipped=equipped)
        elif stack:
            inventory[slug] = replace(
                current,
                quantity=current.quantity + quantity,
                equipped=current.equipped or equipped,
            )

    for i, entry in enumerate(prof.starting_equipment):
        slug = choices.pop(i, entry.options[0])
        if slug not in entry.options:
            raise ValueError(f"{prof.name} equipment line {i}: choose one of {entry.options}")
        give(slug, entry.quantity, entry.equipped, stack=True)
    if choices:
        raise ValueError(f"{prof.name} has no equipment choice at {sorted(choices)}")
    if race is not None:
        for slug in cat.races[race].starting_items:
            give(slug, 1, False, stack=False)
    for ability in abilities:
        for slug in cat.abilities[ability].grants_items:
            give(slug, 1, False, stack=False)
    return inventory, prof.starting_yen or 0


def with_starting_kit(
    draft: CharacterDraft,
    choices: Mapping[int, str] | None = None,
    catalog: Catalog | None = None,
) -> CharacterDraft:
    """A copy of ``draft`` carrying its profession's kit and starting yen."""
    if not draft.profession:
        raise ValueError("choose a profession before taking its starting kit")
    inventory, yen = starting_kit(
        draft.profession, draft.race, draft.abilities, choices, catalog=catalog
    )
    copy = CharacterDraft.from_dict(draft.to_dict())
    copy.inventory = inventory
    copy.yen = yen
    return copy


def summary(violations: list[RuleViolation]) -> list[dict[str, Any]]:
    """Violations as JSON-ready dicts (for the API and the HTMX builder page)."""
    return [v.to_dict() for v in violations]
