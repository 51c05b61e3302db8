"""The rule catalog: shot-types, races, professions, skills, abilities, items, status effects.

The rulebook's creation options live as YAML under ``westernroses/data/`` so a GM (or a new
rulebook version) can change numbers without touching code. Every file is validated on load
and a mistake raises :class:`CatalogError` naming the file and the field (``races.yaml:
races[2].stats.pwr: must be a whole number``): a typo in data must never surface later as a
wrong character sheet. :func:`get_catalog` caches the bundled catalog for the process.

Machine-readable rules are expressed as :class:`Effect` entries (``kind`` + ``amount`` + an
optional target); the character sheet sums effects by kind, so adding an ability whose effect
is of a known kind needs no code. Text that the engine does not compute is kept short so pages
can show it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources
from typing import Any, Final, TypeVar

import yaml

from westernroses.elements import BEATS, CYCLES, Element
from westernroses.yaml_data import error_line, load_yaml

MAIN_STATS: Final = ("pwr", "cha", "int", "ins")
"""The four main ("mane") stats, in rulebook order."""

STAT_NAMES: Final = {"pwr": "Power", "cha": "Charisma", "int": "Intelligence", "ins": "Insight"}

SKILL_KINDS: Final = ("mental", "physical")

ITEM_CATEGORIES: Final = (
    "clothing",
    "natural_weapon",
    "weapon",
    "throwing_weapon",
    "improvised_weapon",
    "armor",
    "misc",
)
WEAPON_CATEGORIES: Final = frozenset(
    {"natural_weapon", "weapon", "throwing_weapon", "improvised_weapon"}
)

#: Effect kind -> the target field it needs ("stat", "skill" or None).
EFFECT_KINDS: Final[Mapping[str, str | None]] = {
    "stat": "stat",  # +amount to a main stat
    "hp_max": None,
    "speed": None,
    "range": None,
    "skill": "skill",  # +amount to every roll with a skill
    "skill_focus": None,  # +amount to the skill chosen for the ability
    "physical_damage": None,
    "danmaku_damage": None,
    "thrown_damage_dice": None,  # extra dice on thrown weapons
    "damage_reduction": None,  # damage taken is reduced, to a minimum of 1
    "dodge": None,  # every roll to dodge an attack (physical or danmaku)
    "danmaku_dodge": None,
    "graze": None,
    "to_hit": None,  # own to-hit rolls (physical attacks, spellcards with a to-hit roll)
    "spellcard_to_hit": None,
    "enemy_graze": None,  # opponents grazing this character's attacks
    "enemy_danmaku_dodge": None,  # opponents dodging this character's danmaku
    "enemy_physical_to_hit": None,  # physical attacks against this character
    "spell_power_per_turn": None,
    "spell_power_multiplier": None,
    "spellcard_efficiency": None,  # numbers from house rules (efficiency_discount/floor)
    "deck_cards": None,
    "deck_kinds": None,
    "status_resistance": None,
    "improvised_no_penalty": None,
    "basic_attack_stats_halved": None,
    "cannot_act": None,
}

#: Conditions an effect may depend on; the sheet decides each from the draft.
EFFECT_CONDITIONS: Final = frozenset({"frilly_clothing", "guardian_charge_safe"})

DATA_FILES: Final = (
    "shot_types.yaml",
    "races.yaml",
    "professions.yaml",
    "skills.yaml",
    "abilities.yaml",
    "items.yaml",
    "status_effects.yaml",
)

_SLUG = re.compile(r"^[a-z][a-z0-9_]*$")


class CatalogError(ValueError):
    """A data file is malformed; says which file and which field, and why."""

    def __init__(self, file: str, field: str, message: str) -> None:
        super().__init__(f"{file}: {field}: {message}")
        self.file = file
        self.field = field
        self.message = message


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Effect:
    """One machine-readable rule: ``kind`` with an ``amount`` and, for some kinds, a target.

    ``condition`` makes it apply only when the sheet finds the condition true (e.g. Frilly
    Clothing needs uncovered clothing); ``requires_item`` only while the item is carried;
    ``situational`` effects (``"at night"``) are listed on the sheet but never summed.
    """

    kind: str
    amount: int = 0
    stat: str | None = None
    skill: str | None = None
    condition: str | None = None
    requires_item: str | None = None
    situational: str | None = None


@dataclass(frozen=True, slots=True)
class Trait:
    """A named passive (shot-type passive, racial trait, profession feature) and its effects."""

    slug: str
    name: str
    text: str
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class ShotType:
    slug: str
    name: str
    description: str
    stats: Mapping[str, int]
    hp: int
    speed: int
    range: int
    passive: Trait


@dataclass(frozen=True, slots=True)
class Race:
    slug: str
    name: str
    description: str
    stats: Mapping[str, int]
    speed: int
    traits: tuple[Trait, ...]
    #: The rulebook's "Other bonuses", absent where it reads "Other bonuses: None".
    other_bonuses: Trait | None
    extra_abilities: int
    starting_items: tuple[str, ...]
    natural_weapon_choice: bool
    drinking: str | None

    @property
    def all_traits(self) -> tuple[Trait, ...]:
        """The racial traits and the other bonuses, as the sheet and the wizard list them."""
        return (*self.traits, self.other_bonuses) if self.other_bonuses else self.traits


@dataclass(frozen=True, slots=True)
class EquipmentEntry:
    """A line of a starting kit: one item, or a choice of ``options`` (first is the default)."""

    options: tuple[str, ...]
    quantity: int
    equipped: bool

    @property
    def is_choice(self) -> bool:
        return len(self.options) > 1


@dataclass(frozen=True, slots=True)
class Profession:
    slug: str
    name: str
    available: bool
    description: str
    spellcards: str
    salary: str
    starting_equipment: tuple[EquipmentEntry, ...]
    starting_equipment_text: str
    starting_yen: int | None
    level_1: Trait | None
    may_wear_armor: bool
    needs_goddess_element: bool
    needs_charge: bool


@dataclass(frozen=True, slots=True)
class Skill:
    slug: str
    name: str
    kind: str
    base_stats: tuple[str, ...]
    formula: str
    text: str


@dataclass(frozen=True, slots=True)
class Ability:
    slug: str
    name: str
    text: str
    manipulation: bool
    element: Element | None
    choice: str | None
    grants_items: tuple[str, ...]
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class Item:
    """An item; weapons have damage dice and either a fixed range or a fraction of RANGE."""

    slug: str
    name: str
    category: str
    text: str
    range: int | None = None
    range_of_stat: Fraction | None = None
    damage_dice: int | None = None
    recovery_dice: int | None = None
    recoverable: bool = False
    on_hit: str | None = None
    warmness: int | None = None
    covers_clothing: bool = False
    effects: tuple[Effect, ...] = ()

    @property
    def is_weapon(self) -> bool:
        return self.category in WEAPON_CATEGORIES


@dataclass(frozen=True, slots=True)
class StatusEffect:
    slug: str
    name: str
    text: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class ElementInfo:
    element: Element
    name: str
    cycle: int
    beats: Element
    beaten_by: Element


@dataclass(frozen=True, slots=True)
class Catalog:
    shot_types: Mapping[str, ShotType]
    races: Mapping[str, Race]
    professions: Mapping[str, Profession]
    skills: Mapping[str, Skill]
    abilities: Mapping[str, Ability]
    items: Mapping[str, Item]
    status_effects: Mapping[str, StatusEffect]
    elements: Mapping[Element, ElementInfo]


# --------------------------------------------------------------------------- reader

_T = TypeVar("_T")


class _Node:
    """A value inside a data file, with the path that error messages name."""

    def __init__(self, file: str, path: str, value: Any) -> None:
        self.file = file
        self.path = path
        self.value = value

    def fail(self, message: str) -> CatalogError:
        return CatalogError(self.file, self.path or "(top level)", message)

    def child(self, key: str | int) -> _Node:
        if isinstance(key, int):
            return _Node(self.file, f"{self.path}[{key}]", self.value[key])
        value = self.value.get(key) if isinstance(self.value, dict) else None
        return _Node(self.file, f"{self.path}.{key}" if self.path else key, value)

    def mapping(self, required: Iterable[str], optional: Iterable[str] = ()) -> _Node:
        if not isinstance(self.value, dict):
            raise self.fail("must be a mapping")
        required = tuple(required)
        allowed = set(required) | set(optional)
        for key in self.value:
            if key not in allowed:
                raise self.child(str(key)).fail("unknown field")
        for key in required:
            if key not in self.value:
                raise self.child(key).fail("is required")
        return self

    def items(self) -> list[_Node]:
        if self.value is None:
            return []
        if not isinstance(self.value, list):
            raise self.fail("must be a list")
        return [self.child(i) for i in range(len(self.value))]

    def text(self, *, optional: bool = False) -> str | None:
        if self.value is None and optional:
            return None
        if not isinstance(self.value, str) or not self.value.strip():
            raise self.fail("must be a non-empty text")
        return self.value.strip()

    def req_text(self) -> str:
        value = self.text()
        assert value is not None  # noqa: S101 - text() raises instead of returning None
        return value

    def slug(self) -> str:
        value = self.req_text()
        if not _SLUG.match(value):
            raise self.fail(f"{value!r} is not a snake_case slug")
        return value

    def whole(self, *, optional: bool = False, minimum: int | None = None) -> int | None:
        if self.value is None and optional:
            return None
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            raise self.fail("must be a whole number")
        if minimum is not None and self.value < minimum:
            raise self.fail(f"must be at least {minimum}")
        return self.value

    def req_whole(self, minimum: int | None = None) -> int:
        value = self.whole(minimum=minimum)
        assert value is not None  # noqa: S101 - whole() raises instead of returning None
        return value

    def flag(self, default: bool = False) -> bool:
        if self.value is None:
            return default
        if not isinstance(self.value, bool):
            raise self.fail("must be true or false")
        return self.value

    def choice(self, options: Iterable[str], *, optional: bool = False) -> str | None:
        value = self.text(optional=optional)
        options = tuple(options)
        if value is not None and value not in options:
            raise self.fail(f"{value!r} is not one of {', '.join(options)}")
        return value


def _records(root: _Node, key: str, parse: Callable[[_Node], _T]) -> dict[str, _T]:
    """Parse the list under ``key`` into a dict by slug, refusing duplicate slugs."""
    root.mapping([key])
    out: dict[str, _T] = {}
    for node in root.child(key).items():
        if not isinstance(node.value, dict):
            raise node.fail("must be a mapping")
        slug = node.child("slug").slug()
        if slug in out:
            raise node.child("slug").fail(f"duplicate slug {slug!r}")
        out[slug] = parse(node)
    if not out:
        raise root.child(key).fail("must list at least one entry")
    return out


def _stats(node: _Node) -> dict[str, int]:
    if node.value is None:
        return {}
    node.mapping((), MAIN_STATS)
    return {stat: node.child(stat).req_whole() for stat in MAIN_STATS if stat in node.value}


def _effect(node: _Node) -> Effect:
    node.mapping(["kind"], ["amount", "stat", "skill", "condition", "requires_item", "situational"])
    kind = node.child("kind").choice(EFFECT_KINDS)
    assert kind is not None  # noqa: S101 - choice() without optional never returns None
    target = EFFECT_KINDS[kind]
    stat = node.child("stat").choice(MAIN_STATS, optional=True)
    skill = node.child("skill").slug() if node.child("skill").value is not None else None
    if target == "stat" and stat is None:
        raise node.child("stat").fail(f"is required for a {kind!r} effect")
    if target == "skill" and skill is None:
        raise node.child("skill").fail(f"is required for a {kind!r} effect")
    if target != "stat" and stat is not None:
        raise node.child("stat").fail(f"not allowed on a {kind!r} effect")
    if target != "skill" and skill is not None:
        raise node.child("skill").fail(f"not allowed on a {kind!r} effect")
    requires_item = node.child("requires_item")
    return Effect(
        kind=kind,
        amount=node.child("amount").whole(optional=True) or 0,
        stat=stat,
        skill=skill,
        condition=node.child("condition").choice(EFFECT_CONDITIONS, optional=True),
        requires_item=requires_item.slug() if requires_item.value is not None else None,
        situational=node.child("situational").text(optional=True),
    )


def _effects(node: _Node) -> tuple[Effect, ...]:
    return tuple(_effect(n) for n in node.items())


def _trait(node: _Node) -> Trait:
    node.mapping(["slug", "name", "text"], ["effects"])
    if node.child("slug").value == "none" or str(node.child("name").value).strip() == "None":
        # "Other bonuses: None" is the rulebook saying there are none: leave the field out.
        raise node.child("name").fail("'None' is not a trait; leave the entry out")
    return Trait(
        slug=node.child("slug").slug(),
        name=node.child("name").req_text(),
        text=node.child("text").req_text(),
        effects=_effects(node.child("effects")),
    )


def _slugs(node: _Node) -> tuple[str, ...]:
    return tuple(n.slug() for n in node.items())


def _shot_type(node: _Node) -> ShotType:
    node.mapping(["slug", "name", "description", "stats", "hp", "speed", "range", "passive"])
    stats = node.child("stats")
    stats.mapping(MAIN_STATS)
    return ShotType(
        slug=node.child("slug").slug(),
        name=node.child("name").req_text(),
        description=node.child("description").req_text(),
        stats=_stats(stats),
        hp=node.child("hp").req_whole(minimum=1),
        speed=node.child("speed").req_whole(minimum=0),
        range=node.child("range").req_whole(minimum=0),
        passive=_trait(node.child("passive")),
    )


def _race(node: _Node) -> Race:
    node.mapping(
        ["slug", "name", "description", "traits"],
        [
            "other_bonuses",
            "stats",
            "speed",
            "extra_abilities",
            "starting_items",
            "natural_weapon_choice",
            "drinking",
        ],
    )
    return Race(
        slug=node.child("slug").slug(),
        name=node.child("name").req_text(),
        description=node.child("description").req_text(),
        stats=_stats(node.child("stats")),
        speed=node.child("speed").whole(optional=True) or 0,
        traits=tuple(_trait(n) for n in node.child("traits").items()),
        other_bonuses=(
            None
            if node.child("other_bonuses").value is None
            else _trait(node.child("other_bonuses"))
        ),
        extra_abilities=node.child("extra_abilities").whole(optional=True, minimum=0) or 0,
        starting_items=_slugs(node.child("starting_items")),
        natural_weapon_choice=node.child("natural_weapon_choice").flag(),
        drinking=node.child("drinking").choice(("iron_blood", "kaze_sake"), optional=True),
    )


def _equipment(node: _Node) -> EquipmentEntry:
    node.mapping((), ["item", "choose", "quantity", "equipped"])
    has_item = node.child("item").value is not None
    has_choice = node.child("choose").value is not None
    if has_item == has_choice:
        raise node.fail("needs exactly one of 'item' or 'choose'")
    options = (node.child("item").slug(),) if has_item else _slugs(node.child("choose"))
    if has_choice and len(options) < 2:
        raise node.child("choose").fail("must offer at least two items")
    return EquipmentEntry(
        options=options,
        quantity=node.child("quantity").whole(optional=True, minimum=1) or 1,
        equipped=node.child("equipped").flag(),
    )


def _profession(node: _Node) -> Profession:
    node.mapping(
        ["slug", "name", "available", "description"],
        [
            "spellcards",
            "salary",
            "starting_equipment",
            "starting_equipment_text",
            "starting_yen",
            "level_1",
            "may_wear_armor",
            "needs_goddess_element",
            "needs_charge",
        ],
    )
    available = node.child("available").flag()
    if available:
        for key in ("salary", "starting_equipment_text", "level_1", "spellcards"):
            if node.child(key).value is None:
                raise node.child(key).fail("is required for an available profession")
    level_1 = node.child("level_1")
    return Profession(
        slug=node.child("slug").slug(),
        name=node.child("name").req_text(),
        available=available,
        description=node.child("description").req_text(),
        spellcards=node.child("spellcards").text(optional=True) or "",
        salary=node.child("salary").text(optional=True) or "",
        starting_equipment=tuple(_equipment(n) for n in node.child("starting_equipment").items()),
        starting_equipment_text=node.child("starting_equipment_text").text(optional=True) or "",
        starting_yen=node.child("starting_yen").whole(optional=True, minimum=0),
        level_1=_trait(level_1) if level_1.value is not None else None,
        may_wear_armor=node.child("may_wear_armor").flag(),
        needs_goddess_element=node.child("needs_goddess_element").flag(),
        needs_charge=node.child("needs_charge").flag(),
    )


def _skill(node: _Node) -> Skill:
    node.mapping(["slug", "name", "kind", "base", "formula", "text"])
    base = node.child("base")
    stats = tuple(n.choice(MAIN_STATS) or "" for n in base.items())
    if not stats:
        raise base.fail("must name at least one main stat")
    kind = node.child("kind").choice(SKILL_KINDS)
    assert kind is not None  # noqa: S101 - choice() without optional never returns None
    return Skill(
        slug=node.child("slug").slug(),
        name=node.child("name").req_text(),
        kind=kind,
        base_stats=stats,
        formula=node.child("formula").req_text(),
        text=node.child("text").req_text(),
    )


def _element(node: _Node) -> Element | None:
    value = node.choice([e.value for e in Element], optional=True)
    return Element(value) if value is not None else None


def _ability(node: _Node) -> Ability:
    node.mapping(
        ["slug", "name", "text"],
        ["manipulation", "element", "choice", "grants_items", "effects"],
    )
    manipulation = node.child("manipulation").flag()
    element = _element(node.child("element"))
    if element is not None and not manipulation:
        raise node.child("element").fail("only manipulation abilities have an element")
    return Ability(
        slug=node.child("slug").slug(),
        name=node.child("name").req_text(),
        text=node.child("text").req_text(),
        manipulation=manipulation,
        element=element,
        choice=node.child("choice").choice(("skill",), optional=True),
        grants_items=_slugs(node.child("grants_items")),
        effects=_effects(node.child("effects")),
    )


def _fraction(node: _Node) -> Fraction | None:
    if node.value is None:
        return None
    try:
        value = Fraction(str(node.value))
    except (ValueError, ZeroDivisionError):
        raise node.fail("must be a fraction such as 1/2 or 2") from None
    if value <= 0:
        raise node.fail("must be greater than 0")
    return value


def _item(node: _Node) -> Item:
    node.mapping(
        ["slug", "name", "category", "text"],
        [
            "range",
            "range_of_stat",
            "damage_dice",
            "recovery_dice",
            "recoverable",
            "on_hit",
            "warmness",
            "covers_clothing",
            "effects",
        ],
    )
    category = node.child("category").choice(ITEM_CATEGORIES)
    assert category is not None  # noqa: S101 - choice() without optional never returns None
    item = Item(
        slug=node.child("slug").slug(),
        name=node.child("name").req_text(),
        category=category,
        text=node.child("text").req_text(),
        range=node.child("range").whole(optional=True, minimum=1),
        range_of_stat=_fraction(node.child("range_of_stat")),
        damage_dice=node.child("damage_dice").whole(optional=True, minimum=1),
        recovery_dice=node.child("recovery_dice").whole(optional=True, minimum=1),
        recoverable=node.child("recoverable").flag(),
        on_hit=node.child("on_hit").text(optional=True),
        warmness=node.child("warmness").whole(optional=True, minimum=0),
        covers_clothing=node.child("covers_clothing").flag(),
        effects=_effects(node.child("effects")),
    )
    if item.is_weapon:
        if item.damage_dice is None:
            raise node.child("damage_dice").fail("is required for a weapon")
        if (item.range is None) == (item.range_of_stat is None):
            raise node.fail("a weapon needs exactly one of 'range' or 'range_of_stat'")
    elif item.damage_dice is not None:
        raise node.child("damage_dice").fail("only weapons deal damage")
    if item.category == "throwing_weapon" and item.recoverable != (item.recovery_dice is not None):
        raise node.child("recovery_dice").fail("recoverable throwing weapons need recovery dice")
    if item.category in ("clothing", "armor") and item.warmness is None:
        raise node.child("warmness").fail(f"is required for {item.category}")
    return item


def _status_effect(node: _Node) -> StatusEffect:
    node.mapping(["slug", "name", "text"], ["effects"])
    return StatusEffect(
        slug=node.child("slug").slug(),
        name=node.child("name").req_text(),
        text=node.child("text").req_text(),
        effects=_effects(node.child("effects")),
    )


_PARSERS: Final[Mapping[str, tuple[str, Callable[[_Node], Any]]]] = {
    "shot_types.yaml": ("shot_types", _shot_type),
    "races.yaml": ("races", _race),
    "professions.yaml": ("professions", _profession),
    "skills.yaml": ("skills", _skill),
    "abilities.yaml": ("abilities", _ability),
    "items.yaml": ("items", _item),
    "status_effects.yaml": ("status_effects", _status_effect),
}


def parse_file(file: str, text: str) -> dict[str, Any]:
    """Parse and validate one data file's text into records by slug (no cross-file checks)."""
    if file not in _PARSERS:
        raise CatalogError(file, "(file)", f"unknown data file; expected one of {DATA_FILES}")
    try:
        data = load_yaml(text)
    except yaml.YAMLError as exc:
        line = error_line(exc)
        where = "(syntax)" if line is None else f"line {line}"
        raise CatalogError(file, where, f"invalid YAML: {exc}") from None
    key, parse = _PARSERS[file]
    return _records(_Node(file, "", data), key, parse)


# --------------------------------------------------------------------------- cross-checks


def _elements() -> dict[Element, ElementInfo]:
    beaten_by = {loser: winner for winner, loser in BEATS.items()}
    out: dict[Element, ElementInfo] = {}
    for element in Element:
        cycle = next(i for i, c in enumerate(CYCLES, start=1) if element in c)
        out[element] = ElementInfo(
            element=element,
            name=element.value.capitalize(),
            cycle=cycle,
            beats=BEATS[element],
            beaten_by=beaten_by[element],
        )
    return out


def _check_references(catalog: Catalog) -> None:
    """Every slug one file names must exist in the file that defines it."""

    def item(file: str, field: str, slug: str) -> None:
        if slug not in catalog.items:
            raise CatalogError(file, field, f"unknown item {slug!r} (see items.yaml)")

    def effects(file: str, field: str, effs: tuple[Effect, ...]) -> None:
        for i, effect in enumerate(effs):
            if effect.skill is not None and effect.skill not in catalog.skills:
                raise CatalogError(
                    file, f"{field}.effects[{i}].skill", f"unknown skill {effect.skill!r}"
                )
            if effect.requires_item is not None:
                item(file, f"{field}.effects[{i}].requires_item", effect.requires_item)

    for i, shot in enumerate(catalog.shot_types.values()):
        effects("shot_types.yaml", f"shot_types[{i}].passive", shot.passive.effects)
    for i, race in enumerate(catalog.races.values()):
        for j, trait in enumerate(race.traits):
            effects("races.yaml", f"races[{i}].traits[{j}]", trait.effects)
        if race.other_bonuses is not None:
            effects("races.yaml", f"races[{i}].other_bonuses", race.other_bonuses.effects)
        for j, slug in enumerate(race.starting_items):
            item("races.yaml", f"races[{i}].starting_items[{j}]", slug)
    for i, prof in enumerate(catalog.professions.values()):
        if prof.level_1 is not None:
            effects("professions.yaml", f"professions[{i}].level_1", prof.level_1.effects)
        for j, entry in enumerate(prof.starting_equipment):
            for slug in entry.options:
                item("professions.yaml", f"professions[{i}].starting_equipment[{j}]", slug)
    for i, ability in enumerate(catalog.abilities.values()):
        effects("abilities.yaml", f"abilities[{i}]", ability.effects)
        for j, slug in enumerate(ability.grants_items):
            item("abilities.yaml", f"abilities[{i}].grants_items[{j}]", slug)
    for i, it in enumerate(catalog.items.values()):
        effects("items.yaml", f"items[{i}]", it.effects)


# --------------------------------------------------------------------------- loading


def _bundled_text(file: str) -> str:
    return (resources.files("westernroses") / "data" / file).read_text(encoding="utf-8")


def load_catalog(overrides: Mapping[str, str] | None = None) -> Catalog:
    """Load and validate every data file; ``overrides`` maps file name to replacement text.

    Overrides let tests (and a GM's custom rules, later) swap one file while keeping the rest.
    """
    overrides = dict(overrides or {})
    unknown = set(overrides) - set(DATA_FILES)
    if unknown:
        name = sorted(unknown)[0]
        raise CatalogError(name, "(file)", f"unknown data file; expected one of {DATA_FILES}")
    parsed = {
        file: parse_file(file, overrides[file] if file in overrides else _bundled_text(file))
        for file in DATA_FILES
    }
    catalog = Catalog(
        shot_types=parsed["shot_types.yaml"],
        races=parsed["races.yaml"],
        professions=parsed["professions.yaml"],
        skills=parsed["skills.yaml"],
        abilities=parsed["abilities.yaml"],
        items=parsed["items.yaml"],
        status_effects=parsed["status_effects.yaml"],
        elements=_elements(),
    )
    _check_references(catalog)
    return catalog


@functools.cache
def get_catalog() -> Catalog:
    """The bundled catalog, loaded and validated once per process."""
    return load_catalog()
