"""Every profession's special spellcard skills, loaded from ``data/spellcard_skills.yaml``.

Skills are data so a GM (or a later ruleset version) can add one without touching the engine;
this module turns the YAML into typed, checked :class:`SkillDef` objects once at import and
fails loudly on a malformed file rather than mispricing cards later.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from westernroses.spellcards.card import Targets
from westernroses.spellcards.caster import Profession
from westernroses.words import N_, Words, listing
from westernroses.yaml_data import load_yaml

DATA_FILE = Path(__file__).resolve().parent.parent / "data" / "spellcard_skills.yaml"


class Build(StrEnum):
    """Which standard sections a card built with a skill may (or must) take."""

    ATTACK = "attack"
    DEFENSIVE = "defensive"
    STAND_ALONE = "stand_alone"
    ATTACK_POWER_ONLY = "attack_power_only"


#: Standard sections open to each build ("Type": attack cards have attack power and element;
#: defensive cards have neither; stand-alone skills are "their own cards").
BUILD_SECTIONS: dict[Build, tuple[str, ...]] = {
    Build.ATTACK: ("to_hit", "targets", "aoe", "duration", "attack_power", "element"),
    Build.DEFENSIVE: ("to_hit", "targets", "aoe", "duration"),
    Build.STAND_ALONE: (),
    Build.ATTACK_POWER_ONLY: ("attack_power",),
}


class BombRule(StrEnum):
    """ "In general, special spellcards cannot be made into bombs" unless the skill says so."""

    NEVER = "never"
    OPTIONAL = "optional"
    DEFAULT = "default"  # "bomb by default" / "do not double": a bomb, and never doubled


class CostKind(StrEnum):
    FIXED = "fixed"
    CHOICE = "choice"  # the cost depends on a chosen parameter (healing dice)
    PER_UNIT = "per_unit"  # a price per unit of a parameter (+10 lethal damage)
    PER_ACTIVE_DOLL = "per_active_doll"  # known only when cast (Dual Strike)


@dataclass(frozen=True, slots=True)
class SkillCost:
    kind: CostKind
    amount: int = 0  # FIXED: the cost; PER_UNIT: per unit; PER_ACTIVE_DOLL: per doll
    param: str | None = None
    options: Mapping[int, int] = field(default_factory=dict)
    non_instant_multiplier: int = 1
    minimum: int = 0

    def describe_words(self) -> Words:
        """Human wording for forms and cost lines, as words for the reader's language."""
        if self.kind is CostKind.FIXED:
            return Words("%(amount)s", {"amount": self.amount})
        if self.kind is CostKind.CHOICE:
            text: Words | str = listing(
                [Words("%(k)s: %(v)s", {"k": k, "v": v}) for k, v in self.options.items()],
                last="comma",
            )
            if self.non_instant_multiplier != 1:
                text = Words(
                    N_("%(options)s (×%(times)s if not instantaneous)"),
                    {"options": text, "times": self.non_instant_multiplier},
                )
            return Words("%(text)s", {"text": text})
        if self.kind is CostKind.PER_UNIT:
            return Words(N_("%(amount)s per %(unit)s"), {"amount": self.amount, "unit": self.param})
        return Words(
            N_("%(amount)s per active doll, minimum %(minimum)s"),
            {"amount": self.amount, "minimum": self.minimum},
        )

    def describe(self) -> str:
        """Human wording for forms and cost lines, in English."""
        return str(self.describe_words())

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "amount": self.amount,
            "param": self.param,
            "options": {str(k): v for k, v in self.options.items()},
            "non_instant_multiplier": self.non_instant_multiplier,
            "minimum": self.minimum,
            "text": self.describe(),
            "words": self.describe_words().to_json(),
        }


class ParamKind(StrEnum):
    INT = "int"
    CHOICE = "choice"
    ELEMENT = "element"


@dataclass(frozen=True, slots=True)
class ParamSpec:
    name: str
    kind: ParamKind
    label: str
    minimum: int | None = None
    choices: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind.value,
            "label": self.label,
            "minimum": self.minimum,
            "choices": list(self.choices),
        }


@dataclass(frozen=True, slots=True)
class SkillDef:
    """One special skill as printed in the ruleset, with the rules the text attaches to it."""

    slug: str
    name: str
    profession: Profession
    group: str
    group_name: str
    section: str
    build: Build
    cost: SkillCost
    bomb: BombRule = BombRule.NEVER
    damage: bool = False
    sets_element: bool = False
    exclusive: str | None = None
    targets: tuple[Targets, ...] | None = None
    aoe: bool = True
    #: The text prints the card's whole cost ("Body-shield - Cost: 20") and fixes its targets:
    #: the Targets skill the card must carry costs nothing on top (issue 9), as with the
    #: stand-alone "What was I doing again?".
    printed_cost: bool = False
    params: tuple[ParamSpec, ...] = ()
    effect: str = ""

    @property
    def stand_alone(self) -> bool:
        """Whether the card may carry nothing but this skill (and, maybe, an attack power)."""
        return self.build in (Build.STAND_ALONE, Build.ATTACK_POWER_ONLY)

    def to_dict(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "name": self.name,
            "profession": self.profession.value,
            "group": self.group,
            "group_name": self.group_name,
            "section": self.section,
            "build": self.build.value,
            "sections": list(BUILD_SECTIONS[self.build]),
            "stand_alone": self.stand_alone,
            "cost": self.cost.to_dict(),
            "bomb": self.bomb.value,
            "damage": self.damage,
            "sets_element": self.sets_element,
            "exclusive": self.exclusive,
            "targets": None if self.targets is None else [t.value for t in self.targets],
            "aoe": self.aoe,
            "printed_cost": self.printed_cost,
            "params": [p.to_dict() for p in self.params],
            "effect": self.effect,
        }


class SkillDataError(ValueError):
    """The skills data file is malformed; the message names the entry."""


def load_skills(path: Path = DATA_FILE) -> dict[str, SkillDef]:
    """Parse and check the skills file; slugs map to definitions in file order."""
    raw = load_yaml(path.read_text(encoding="utf-8"))
    if not isinstance(raw, dict):
        raise SkillDataError(f"{path}: expected a mapping with groups and skills")
    groups = raw.get("groups")
    entries = raw.get("skills")
    if not isinstance(groups, dict) or not isinstance(entries, list):
        raise SkillDataError(f"{path}: expected 'groups' (mapping) and 'skills' (list)")
    skills: dict[str, SkillDef] = {}
    for entry in entries:
        skill = _parse_skill(entry, groups)
        if skill.slug in skills:
            raise SkillDataError(f"duplicate skill slug {skill.slug!r}")
        skills[skill.slug] = skill
    return skills


def _parse_skill(entry: object, groups: Mapping[str, Any]) -> SkillDef:
    if not isinstance(entry, dict) or not isinstance(entry.get("slug"), str):
        raise SkillDataError(f"skill entry without a slug: {entry!r}")
    slug: str = entry["slug"]
    try:
        group_key = _str(entry, "group")
        group = groups[group_key]
        targets = entry.get("targets")
        return SkillDef(
            slug=slug,
            name=_str(entry, "name"),
            profession=Profession(_str(group, "profession")),
            group=group_key,
            group_name=_str(group, "name"),
            section=_str(group, "section"),
            build=Build(entry.get("build", group["build"])),
            cost=_parse_cost(entry["cost"]),
            bomb=BombRule(entry.get("bomb", BombRule.NEVER.value)),
            damage=_bool(entry.get("damage", False)),
            sets_element=_bool(entry.get("sets_element", False)),
            exclusive=entry.get("exclusive"),
            targets=None if targets is None else tuple(Targets(t) for t in targets),
            aoe=_bool(entry.get("aoe", True)),
            printed_cost=_bool(entry.get("printed_cost", False)),
            params=tuple(_parse_param(p) for p in entry.get("params", [])),
            effect=str(entry.get("effect", "")),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise SkillDataError(f"skill {slug!r}: {exc}") from exc


def _parse_cost(raw: object) -> SkillCost:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return SkillCost(CostKind.FIXED, amount=raw)
    if not isinstance(raw, dict):
        raise SkillDataError(f"cost must be a number or a mapping, not {raw!r}")
    if "options" in raw:
        options = {int(k): int(v) for k, v in raw["options"].items()}
        return SkillCost(
            CostKind.CHOICE,
            param=_str(raw, "param"),
            options=options,
            non_instant_multiplier=int(raw.get("non_instant_multiplier", 1)),
        )
    if "each" in raw:
        return SkillCost(CostKind.PER_UNIT, amount=int(raw["each"]), param=_str(raw, "param"))
    if "per_active_doll" in raw:
        return SkillCost(
            CostKind.PER_ACTIVE_DOLL,
            amount=int(raw["per_active_doll"]),
            minimum=int(raw.get("minimum", 0)),
        )
    raise SkillDataError(f"unknown cost form {raw!r}")


def _parse_param(raw: object) -> ParamSpec:
    if not isinstance(raw, dict):
        raise SkillDataError(f"parameter must be a mapping, not {raw!r}")
    minimum = raw.get("minimum")
    return ParamSpec(
        name=_str(raw, "name"),
        kind=ParamKind(raw["kind"]),
        label=_str(raw, "label"),
        minimum=None if minimum is None else int(minimum),
        choices=tuple(int(c) for c in raw.get("choices", [])),
    )


def _str(data: Mapping[str, Any], key: str) -> str:
    value = data[key]
    if not isinstance(value, str):
        raise SkillDataError(f"{key} must be a string, not {value!r}")
    return value


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise SkillDataError(f"expected true or false, not {value!r}")
    return value


SKILLS: dict[str, SkillDef] = load_skills()


def get_skill(slug: str) -> SkillDef | None:
    return SKILLS.get(slug)


def skills_for(profession: Profession | str) -> list[SkillDef]:
    """The special skills a profession may put on its cards, in rulebook order."""
    return [skill for skill in SKILLS.values() if skill.profession == profession]
