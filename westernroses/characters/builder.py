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
from westernroses.words import N_, Words, listing

BONUS_POINTS: Final = 20
SKILL_POINTS: Final = 10
ABILITIES_AT_CREATION: Final = 1

# Rulebook sections, as the ``rule`` of a violation (message ids: the app shows them in the
# reader's language).
R_CREATION: Final = N_("Character Creation")
R_SHOT_TYPES: Final = N_("Character Creation > Shot-types")
R_RACES: Final = N_("Character Creation > Races")
R_PROFESSIONS: Final = N_("Character Creation > Professions")
R_ELEMENT: Final = N_("Character Creation > Elemental Affinity")
R_BONUS: Final = N_("Character Creation > Bonus Points")
R_SKILLS: Final = N_("Character Creation > Skills")
R_ABILITIES: Final = N_("Character Creation > Abilities")
R_MANIPULATION: Final = N_("Character Creation > Abilities > Manipulation abilities")
R_ITEMS: Final = N_("Items")
R_ARMOR: Final = N_("Items > Armor")
R_NATURAL: Final = N_("Items > Natural Weapons")
R_SPELLCARDS: Final = N_("Spellcards")
R_SPELL_POWER: Final = N_("Spell Power")
R_DRINKING: Final = N_("Drinking")
R_STATUS: Final = N_("Status Effects")
R_WOUNDS: Final = N_("Attacking and Dodging > Mortal Wounds, Death, Utter Destruction")

#: Every section a violation names, for the app to look up only these.
RULE_SECTIONS: Final = frozenset(
    {
        R_CREATION,
        R_SHOT_TYPES,
        R_RACES,
        R_PROFESSIONS,
        R_ELEMENT,
        R_BONUS,
        R_SKILLS,
        R_ABILITIES,
        R_MANIPULATION,
        R_ITEMS,
        R_ARMOR,
        R_NATURAL,
        R_SPELLCARDS,
        R_SPELL_POWER,
        R_DRINKING,
        R_STATUS,
        R_WOUNDS,
    }
)

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
    """One broken rule: stable ``code``, the draft ``field``, a ``message`` and the ``rule``.

    ``words`` is the message as :class:`Words` (a message id and its parameters) where the
    rules write it, so the app shows it in the reader's language; ``message`` is its English."""

    code: str
    field: str
    message: str
    rule: str
    words: Words | None = None

    def to_dict(self, *, words: bool = False) -> dict[str, Any]:
        """The violation as JSON: the message in English and, with ``words``, its words when
        it has them, for the app to render in the reader's language (the API keeps its
        English shape)."""
        out: dict[str, Any] = {
            "code": self.code,
            "field": self.field,
            "message": self.message,
            "rule": self.rule,
        }
        if words and self.words is not None:
            out["words"] = self.words.to_json()
        return out


class _Report:
    def __init__(self, waivers: frozenset[str]) -> None:
        self.violations: list[RuleViolation] = []
        self.waivers = waivers

    def add(self, code: str, field: str, message: Words | str, rule: str) -> None:
        if code in WAIVABLE and code in self.waivers:
            return
        words = message if isinstance(message, Words) else None
        self.violations.append(RuleViolation(code, field, str(message), rule, words))


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
        report.add("name.missing", "name", Words(N_("Give the character a name.")), R_CREATION)

    if not draft.shot_type:
        report.add("shot_type.missing", "shot_type", Words(N_("Choose a shot-type.")), R_SHOT_TYPES)
    elif draft.shot_type not in cat.shot_types:
        report.add(
            "shot_type.unknown",
            "shot_type",
            Words(N_("Unknown shot-type %(slug)r."), {"slug": draft.shot_type}),
            R_SHOT_TYPES,
        )

    if not draft.race:
        report.add("race.missing", "race", Words(N_("Choose a race.")), R_RACES)
    elif draft.race not in cat.races:
        report.add(
            "race.unknown",
            "race",
            Words(N_("Unknown race %(slug)r."), {"slug": draft.race}),
            R_RACES,
        )

    profession = cat.professions.get(draft.profession or "")
    if not draft.profession:
        report.add(
            "profession.missing", "profession", Words(N_("Choose a profession.")), R_PROFESSIONS
        )
    elif profession is None:
        report.add(
            "profession.unknown",
            "profession",
            Words(N_("Unknown profession %(slug)r."), {"slug": draft.profession}),
            R_PROFESSIONS,
        )
    elif not profession.available:
        report.add(
            "profession.unavailable",
            "profession",
            Words(
                N_("%(profession)s is not yet implemented in the rulebook."),
                {"profession": Words(profession.name)},
            ),
            R_PROFESSIONS,
        )

    if not draft.element:
        report.add(
            "element.missing", "element", Words(N_("Choose an elemental affinity.")), R_ELEMENT
        )
    elif draft.element not in _ELEMENT_VALUES:
        report.add(
            "element.unknown",
            "element",
            Words(
                N_("Unknown element %(slug)r; choose one of %(elements)s."),
                {"slug": draft.element, "elements": _element_names()},
            ),
            R_ELEMENT,
        )

    needs_goddess = profession is not None and profession.needs_goddess_element
    if draft.goddess_element is not None and draft.goddess_element not in _ELEMENT_VALUES:
        report.add(
            "goddess_element.unknown",
            "goddess_element",
            Words(
                N_("Unknown element %(slug)r; choose one of %(elements)s."),
                {"slug": draft.goddess_element, "elements": _element_names()},
            ),
            R_PROFESSIONS,
        )
    elif needs_goddess and not draft.goddess_element:
        report.add(
            "goddess_element.missing",
            "goddess_element",
            Words(N_("A Shrine Maiden chooses an element for her patron goddess.")),
            R_PROFESSIONS,
        )
    elif draft.goddess_element and profession is not None and not needs_goddess:
        report.add(
            "goddess_element.not_allowed",
            "goddess_element",
            Words(N_("Only Shrine Maidens serve a patron goddess.")),
            R_PROFESSIONS,
        )

    needs_charge = profession is not None and profession.needs_charge
    if needs_charge and not (draft.guardian_charge or "").strip():
        report.add(
            "guardian_charge.missing",
            "guardian_charge",
            Words(N_("Every Guardian has a charge (an item or another character) to protect.")),
            R_PROFESSIONS,
        )
    elif draft.guardian_charge and profession is not None and not needs_charge:
        report.add(
            "guardian_charge.not_allowed",
            "guardian_charge",
            Words(N_("Only Guardians have a charge.")),
            R_PROFESSIONS,
        )

    if draft.unconnected_dolls:
        dolls = sum(stack.quantity for slug, stack in draft.inventory.items() if slug == "doll")
        if profession is not None and profession.slug != "doll_master":
            report.add(
                "unconnected_dolls.not_allowed",
                "unconnected_dolls",
                Words(N_("Only Doll Masters mark dolls as connected or not.")),
                R_PROFESSIONS,
            )
        elif draft.unconnected_dolls < 0 or draft.unconnected_dolls > dolls:
            report.add(
                "unconnected_dolls.range",
                "unconnected_dolls",
                Words(
                    N_("She can feel no connection with at most the %(dolls)s dolls she has."),
                    {"dolls": dolls},
                ),
                R_PROFESSIONS,
            )

    race = cat.races.get(draft.race or "")
    has_choice = race is not None and race.natural_weapon_choice
    if has_choice and not (draft.natural_weapon or "").strip():
        report.add(
            "natural_weapon.missing",
            "natural_weapon",
            Words(N_("Youkai choose a natural weapon (teeth, claws, tail, etc) at creation.")),
            R_RACES,
        )
    elif draft.natural_weapon and race is not None and not has_choice:
        report.add(
            "natural_weapon.not_allowed",
            "natural_weapon",
            Words(
                N_("%(race)s characters do not choose a natural weapon (only youkai do)."),
                {"race": Words(race.name)},
            ),
            R_RACES,
        )


def _check_points(draft: CharacterDraft, cat: Catalog, report: _Report) -> None:
    for stat, points in draft.bonus_points.items():
        if stat not in MAIN_STATS:
            report.add(
                "bonus_points.unknown_stat",
                f"bonus_points.{stat}",
                Words(
                    N_("Bonus points go only into the four main stats (%(stats)s), not %(slug)r."),
                    {"stats": listing([Words(n) for n in STAT_NAMES.values()]), "slug": stat},
                ),
                R_BONUS,
            )
        elif points < 0:
            report.add(
                "bonus_points.negative",
                f"bonus_points.{stat}",
                Words(
                    N_("%(stat)s cannot take %(points)s bonus points."),
                    {"stat": Words(STAT_NAMES[stat]), "points": points},
                ),
                R_BONUS,
            )
    spent = sum(draft.bonus_points.values())
    if spent != BONUS_POINTS:
        report.add(
            "bonus_points.total",
            "bonus_points",
            Words(
                N_("Spend exactly %(points)s bonus points on the main stats (%(spent)s spent)."),
                {"points": BONUS_POINTS, "spent": spent},
            ),
            R_BONUS,
        )

    for skill, points in draft.skill_points.items():
        if skill not in cat.skills:
            report.add(
                "skill_points.unknown_skill",
                f"skill_points.{skill}",
                Words(N_("Unknown skill %(slug)r."), {"slug": skill}),
                R_SKILLS,
            )
        elif points < 0:
            report.add(
                "skill_points.negative",
                f"skill_points.{skill}",
                Words(
                    N_("%(skill)s cannot take %(points)s skill points."),
                    {"skill": Words(cat.skills[skill].name), "points": points},
                ),
                R_SKILLS,
            )
    spent = sum(draft.skill_points.values())
    if spent != SKILL_POINTS:
        report.add(
            "skill_points.total",
            "skill_points",
            Words(
                N_("Spend exactly %(points)s skill points (%(spent)s spent)."),
                {"points": SKILL_POINTS, "spent": spent},
            ),
            R_SKILLS,
        )


def _check_abilities(draft: CharacterDraft, cat: Catalog, report: _Report) -> None:
    race = cat.races.get(draft.race or "")
    expected = ABILITIES_AT_CREATION + (race.extra_abilities if race else 0)
    if len(draft.abilities) != expected:
        counts = {"count": expected, "chosen": len(draft.abilities)}
        if race is None:
            message = Words(
                N_("A character picks exactly %(count)s ability at creation (%(chosen)s chosen).")
                if expected == 1
                else N_(
                    "A character picks exactly %(count)s abilities at creation (%(chosen)s chosen)."
                ),
                counts,
            )
        else:
            message = Words(
                N_(
                    "%(race)s characters pick exactly %(count)s ability at creation "
                    "(%(chosen)s chosen)."
                )
                if expected == 1
                else N_(
                    "%(race)s characters pick exactly %(count)s abilities at creation "
                    "(%(chosen)s chosen)."
                ),
                {"race": Words(race.name), **counts},
            )
        report.add(
            "abilities.count",
            "abilities",
            message,
            R_ABILITIES,
        )
    for slug, count in Counter(draft.abilities).items():
        if count > 1:
            report.add(
                "abilities.duplicate",
                "abilities",
                Words(
                    N_("%(slug)r is chosen %(count)s times; each ability can be taken once."),
                    {"slug": slug, "count": count},
                ),
                R_ABILITIES,
            )

    manipulations = []
    for i, slug in enumerate(draft.abilities):
        ability = cat.abilities.get(slug)
        if ability is None:
            report.add(
                "abilities.unknown",
                f"abilities[{i}]",
                Words(N_("Unknown ability %(slug)r."), {"slug": slug}),
                R_ABILITIES,
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
                    Words(
                        N_(
                            "%(ability)s requires a %(element)s affinity "
                            "(the character's is %(own)s)."
                        ),
                        {
                            "ability": Words(ability.name),
                            "element": Words(element.value),
                            "own": Words(own),
                        },
                    ),
                    R_MANIPULATION,
                )
        if ability.choice == "skill":
            chosen = draft.ability_choices.get(slug)
            if not chosen:
                report.add(
                    "abilities.choice_missing",
                    f"ability_choices.{slug}",
                    Words(
                        N_("%(ability)s: choose the skill it applies to."),
                        {"ability": Words(ability.name)},
                    ),
                    R_ABILITIES,
                )
            elif chosen not in cat.skills:
                report.add(
                    "abilities.choice_unknown",
                    f"ability_choices.{slug}",
                    Words(
                        N_("%(ability)s: unknown skill %(slug)r."),
                        {"ability": Words(ability.name), "slug": chosen},
                    ),
                    R_ABILITIES,
                )
    if len(manipulations) > 1:
        names = listing([Words(a.name) for a in manipulations], last="comma")
        report.add(
            "abilities.manipulation_count",
            "abilities",
            Words(N_("Only one manipulation ability can be taken (%(names)s)."), {"names": names}),
            R_MANIPULATION,
        )
    for slug in draft.ability_choices:
        if slug not in draft.abilities:
            report.add(
                "abilities.choice_not_taken",
                f"ability_choices.{slug}",
                Words(
                    N_("A choice is recorded for %(slug)r, which the character does not have."),
                    {"slug": slug},
                ),
                R_ABILITIES,
            )


def _check_equipment(draft: CharacterDraft, cat: Catalog, report: _Report) -> None:
    profession = cat.professions.get(draft.profession or "")
    armor_worn = []
    for slug, stack in draft.inventory.items():
        item = cat.items.get(slug)
        if item is None:
            report.add(
                "inventory.unknown_item",
                f"inventory.{slug}",
                Words(N_("Unknown item %(slug)r."), {"slug": slug}),
                R_ITEMS,
            )
            continue
        if item.category == "natural_weapon":
            report.add(
                "inventory.natural_weapon",
                f"inventory.{slug}",
                Words(
                    N_("%(item)s is part of the body, not an item to carry."),
                    {"item": Words(item.name)},
                ),
                R_NATURAL,
            )
        if stack.quantity < 1:
            report.add(
                "inventory.quantity",
                f"inventory.{slug}.quantity",
                Words(
                    N_("Carry at least one %(item)s or remove it (%(quantity)s)."),
                    {"item": Words(item.name), "quantity": stack.quantity},
                ),
                R_ITEMS,
            )
        if stack.equipped and item.category == "armor":
            armor_worn.append(item)
            if profession is not None and not profession.may_wear_armor:
                report.add(
                    "equipment.armor_not_allowed",
                    f"inventory.{slug}.equipped",
                    Words(
                        N_("Only Guardians can wear armor; a %(profession)s cannot wear %(item)s."),
                        {"profession": Words(profession.name), "item": Words(item.name)},
                    ),
                    R_ARMOR,
                )
    if len(armor_worn) > 1:
        report.add(
            "equipment.armor_count",
            "inventory",
            Words(
                N_("Wear one armor at a time (%(items)s)."),
                {"items": listing([Words(a.name) for a in armor_worn], last="comma")},
            ),
            R_ARMOR,
        )
    if draft.yen < 0:
        report.add(
            "yen.negative",
            "yen",
            Words(N_("Yen cannot be negative (%(yen)s)."), {"yen": draft.yen}),
            R_ITEMS,
        )


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
                Words(N_("Unknown status effect %(slug)r."), {"slug": slug}),
                R_STATUS,
            )
    for slug, count in Counter(draft.status_effects).items():
        if count > 1:
            report.add(
                "status_effects.duplicate",
                "status_effects",
                Words(N_("%(slug)r is listed %(count)s times."), {"slug": slug, "count": count}),
                R_STATUS,
            )
    for i, effect in enumerate(draft.effects):
        if effect.target not in EFFECT_TARGETS:
            report.add(
                "effects.target",
                f"effects[{i}].target",
                Words(
                    N_("A temporary effect cannot change %(target)r; choose one of %(targets)s."),
                    {"target": effect.target, "targets": ", ".join(EFFECT_TARGETS)},
                ),
                R_SPELLCARDS,
            )
        if effect.rounds is not None and effect.rounds < 1:
            report.add(
                "effects.rounds",
                f"effects[{i}].rounds",
                Words(N_("A temporary effect lasts at least one round; remove it when it ends.")),
                R_SPELLCARDS,
            )
    if draft.spell_power is not None and not 0 <= draft.spell_power <= rules.spell_power_cap:
        report.add(
            "spell_power.range",
            "spell_power",
            Words(
                N_("Spell power is between 0 and %(cap)s (%(given)s)."),
                {"cap": rules.spell_power_cap, "given": draft.spell_power},
            ),
            R_SPELL_POWER,
        )
    for code in draft.gm_waivers:
        if code not in WAIVABLE:
            report.add(
                "gm_waivers.not_waivable",
                "gm_waivers",
                Words(
                    N_("%(code)r is not left to the GM's discretion by the rulebook."),
                    {"code": code},
                ),
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
            Words(
                N_(
                    "Current HP cannot be below %(floor)s: at %(floor)s a character is utterly "
                    "destroyed (%(given)s given)."
                ),
                {"floor": HP_FLOOR, "given": current},
            ),
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
            Words(
                N_(
                    "Current HP cannot be above the maximum of %(maximum)s (%(given)s given); "
                    "leave it empty for an unhurt character."
                ),
                {"maximum": maximum, "given": current},
            ),
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
