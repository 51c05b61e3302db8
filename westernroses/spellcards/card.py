"""A spellcard as its owner designed it, and its exact JSON form.

The ruleset builds a card by picking "a single skill from each section" (type, to-hit, targets,
duration, attack power, elemental affinity) plus, for special cards, the skills of the caster's
profession. A draft records those picks and nothing else: what they cost lives in ``cost.py``
and whether they are legal in ``validation.py``, so a half-finished or illegal card can still be
stored, shown and explained.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

from westernroses.elements import Element

ParamValue = int | str
E = TypeVar("E", bound=StrEnum)


class CardFormatError(ValueError):
    """Stored card data has the wrong shape (not a rules problem: see ``validation.py``)."""


class CardType(StrEnum):
    """Ruleset "Type". Bombs are attack or defensive cards with ``bomb=True``."""

    ATTACK = "attack"
    DEFENSIVE = "defensive"
    SPECIAL = "special"


class ToHit(StrEnum):
    """Ruleset "To-Hit". ``NONE`` means no to-hit skill was taken (the default: no roll)."""

    NONE = "none"
    BURST = "burst"
    ROLL_VS_INT = "roll_vs_int"
    ROLL_VS_PWR = "roll_vs_pwr"


class Targets(StrEnum):
    """Ruleset "Targets" (the AOE radius is a separate field, ``SpellcardDraft.aoe``)."""

    SELF = "self"
    SINGLE = "single"
    TWO = "two"
    THREE = "three"
    FOUR = "four"

    @property
    def spaces(self) -> int:
        """How many target spaces the caster picks (Self is the caster's own space)."""
        return _TARGET_COUNTS[self]


_TARGET_COUNTS = {
    Targets.SELF: 1,
    Targets.SINGLE: 1,
    Targets.TWO: 2,
    Targets.THREE: 3,
    Targets.FOUR: 4,
}


class Duration(StrEnum):
    """Ruleset "Duration": instantaneous, or 2-5 rounds staying on a space or homing."""

    INSTANTANEOUS = "instantaneous"
    SINGLE_SPACE_2 = "single_space_2"
    SINGLE_SPACE_3 = "single_space_3"
    SINGLE_SPACE_4 = "single_space_4"
    SINGLE_SPACE_5 = "single_space_5"
    HOMING_2 = "homing_2"
    HOMING_3 = "homing_3"
    HOMING_4 = "homing_4"
    HOMING_5 = "homing_5"

    @property
    def rounds(self) -> int:
        """Times the card takes effect (RULINGS 10: when cast, then each of the caster's turns)."""
        if self is Duration.INSTANTANEOUS:
            return 1
        return int(self.value.rsplit("_", 1)[1])

    @property
    def homing(self) -> bool:
        """Whether the effect follows a character instead of staying on its space."""
        return self.value.startswith("homing")


@dataclass(frozen=True, slots=True)
class AttackPower:
    """Ruleset "Attack Power": 1d-8d plus a flat damage modifier (ranges checked by validate)."""

    dice: int
    modifier: int = 0

    def to_dict(self) -> dict[str, int]:
        return {"dice": self.dice, "modifier": self.modifier}


@dataclass(frozen=True, slots=True)
class SkillChoice:
    """One special skill on a card: its slug and its parameters (e.g. healing ``dice``).

    Parameters are kept as a key-sorted tuple of pairs so the draft stays hashable and
    ``from_dict(to_dict(card)) == card`` holds whatever order they were given in.
    """

    slug: str
    params: tuple[tuple[str, ParamValue], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", tuple(sorted(dict(self.params).items())))

    @classmethod
    def of(cls, slug: str, **params: ParamValue) -> SkillChoice:
        """Convenience constructor: ``SkillChoice.of("healing", dice=2)``."""
        return cls(slug, tuple(params.items()))

    def param(self, name: str) -> ParamValue | None:
        return dict(self.params).get(name)

    def to_dict(self) -> dict[str, Any]:
        return {"slug": self.slug, "params": dict(self.params)}


@dataclass(frozen=True, slots=True)
class SpellcardDraft:
    """A designed spellcard.

    ``targets`` is ``None`` on cards whose special skill says who or what it affects (impulse,
    study, drinking and doll cards, Divine Fire): those cards take no Targets skill at all.
    """

    name: str
    type: CardType
    bomb: bool = False
    to_hit: ToHit = ToHit.NONE
    targets: Targets | None = Targets.SINGLE
    aoe: int = 0
    duration: Duration = Duration.INSTANTANEOUS
    attack_power: AttackPower | None = None
    element: Element | None = None
    skills: tuple[SkillChoice, ...] = field(default=())

    def skill_slugs(self) -> list[str]:
        return [skill.slug for skill in self.skills]

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form; :meth:`from_dict` rebuilds an equal draft."""
        return {
            "name": self.name,
            "type": self.type.value,
            "bomb": self.bomb,
            "to_hit": self.to_hit.value,
            "targets": None if self.targets is None else self.targets.value,
            "aoe": self.aoe,
            "duration": self.duration.value,
            "attack_power": None if self.attack_power is None else self.attack_power.to_dict(),
            "element": None if self.element is None else self.element.value,
            "skills": [skill.to_dict() for skill in self.skills],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SpellcardDraft:
        """Parse stored data; raises :class:`CardFormatError` naming every malformed field.

        Only the shape is checked here (types, enum values). Out-of-range numbers such as
        ``aoe: 9`` parse fine so that ``validate`` can explain them in rules terms.
        """
        errors: list[str] = []
        unknown = set(data) - _FIELDS
        if unknown:
            errors.append(f"unknown fields: {', '.join(sorted(unknown))}")
        name = data.get("name")
        if not isinstance(name, str):
            errors.append("name: must be a string")
        card_type = _enum(CardType, data.get("type"), "type", errors)
        bomb = data.get("bomb", False)
        if not isinstance(bomb, bool):
            errors.append("bomb: must be true or false")
        to_hit = _enum(ToHit, data.get("to_hit", ToHit.NONE.value), "to_hit", errors)
        raw_targets = data.get("targets", Targets.SINGLE.value)
        targets = None if raw_targets is None else _enum(Targets, raw_targets, "targets", errors)
        aoe = _int(data.get("aoe", 0), "aoe", errors)
        duration = _enum(
            Duration, data.get("duration", Duration.INSTANTANEOUS.value), "duration", errors
        )
        attack_power = _attack_power(data.get("attack_power"), errors)
        raw_element = data.get("element")
        element = None if raw_element is None else _enum(Element, raw_element, "element", errors)
        skills = _skills(data.get("skills", []), errors)
        if errors:
            raise CardFormatError("; ".join(errors))
        assert isinstance(name, str) and card_type is not None  # noqa: S101 - errors was empty
        assert to_hit is not None and duration is not None  # noqa: S101
        return cls(
            name=name,
            type=card_type,
            bomb=bool(bomb),
            to_hit=to_hit,
            targets=targets,
            aoe=aoe,
            duration=duration,
            attack_power=attack_power,
            element=element,
            skills=skills,
        )


_FIELDS = frozenset(
    {
        "name",
        "type",
        "bomb",
        "to_hit",
        "targets",
        "aoe",
        "duration",
        "attack_power",
        "element",
        "skills",
    }
)


def _enum(enum: type[E], value: object, name: str, errors: list[str]) -> E | None:
    try:
        if not isinstance(value, str):
            raise ValueError(value)
        return enum(value)
    except ValueError:
        choices = ", ".join(member.value for member in enum)
        errors.append(f"{name}: {value!r} is not one of {choices}")
        return None


def _int(value: object, name: str, errors: list[str]) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        errors.append(f"{name}: must be a whole number")
        return 0
    return value


def _attack_power(value: object, errors: list[str]) -> AttackPower | None:
    if value is None:
        return None
    if not isinstance(value, Mapping) or set(value) - {"dice", "modifier"}:
        errors.append("attack_power: must be null or {dice, modifier}")
        return None
    return AttackPower(
        dice=_int(value.get("dice"), "attack_power.dice", errors),
        modifier=_int(value.get("modifier", 0), "attack_power.modifier", errors),
    )


def _skills(value: object, errors: list[str]) -> tuple[SkillChoice, ...]:
    if not isinstance(value, list | tuple):
        errors.append("skills: must be a list")
        return ()
    skills: list[SkillChoice] = []
    for index, item in enumerate(value):
        where = f"skills[{index}]"
        if not isinstance(item, Mapping) or not isinstance(item.get("slug"), str):
            errors.append(f"{where}: must be {{slug, params}}")
            continue
        params = item.get("params", {})
        if not isinstance(params, Mapping) or set(item) - {"slug", "params"}:
            errors.append(f"{where}: params must be a mapping")
            continue
        good: list[tuple[str, ParamValue]] = []
        for key, param in params.items():
            if not isinstance(key, str) or isinstance(param, bool):
                errors.append(f"{where}.params.{key}: must be a whole number or a string")
            elif isinstance(param, int | str):
                good.append((key, param))
            else:
                errors.append(f"{where}.params.{key}: must be a whole number or a string")
        skills.append(SkillChoice(item["slug"], tuple(good)))
    return tuple(skills)
