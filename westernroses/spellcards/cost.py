"""What a spellcard costs to activate, itemised so players can check the arithmetic.

Order (RULINGS 7): add up every chosen part; raise the sum to the minimum (20); double it for
a bomb, unless the card is a bomb by default or says "do not double"; then Magic Missile's
Efficiency takes 10 off, never below 10. Every figure in that sentence is a house rule.

``price`` does not judge legality (that is ``validate``'s job): it prices whatever parts the
draft has, so the builder can show a live cost next to the list of problems.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from westernroses.elements import ElementDistance, distance
from westernroses.house_rules import DEFAULT_HOUSE_RULES, HouseRules
from westernroses.spellcards.card import Duration, SkillChoice, SpellcardDraft, Targets, ToHit
from westernroses.spellcards.caster import CasterInfo
from westernroses.spellcards.skills import SKILLS, BombRule, CostKind, SkillDef
from westernroses.spellcards.tables import (
    AOE_COST,
    DICE_COST,
    DURATION_COST,
    SEC_AOE_TARGETS,
    SEC_ATTACK_POWER,
    SEC_BOMB,
    SEC_DURATION,
    SEC_EFFICIENCY,
    SEC_ELEMENT,
    SEC_MINIMUM,
    SEC_TARGETS,
    SEC_TO_HIT,
    TARGETS_COST,
    TARGETS_LABEL,
    TO_HIT_COST,
    TO_HIT_LABEL,
    duration_label,
    modifier_cost,
)


class PricingError(ValueError):
    """A part of the card cannot be priced at all (unknown skill, missing cost parameter)."""


@dataclass(frozen=True, slots=True)
class CostLine:
    """One chosen part of the card and what it adds (negative for a to-hit roll)."""

    code: str
    label: str
    cost: int
    section: str

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "label": self.label, "cost": self.cost, "section": self.section}


@dataclass(frozen=True, slots=True)
class CostStep:
    """An adjustment after the subtotal (minimum, bomb, Efficiency) and the running total."""

    code: str
    label: str
    change: int
    total: int
    section: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "label": self.label,
            "change": self.change,
            "total": self.total,
            "section": self.section,
        }


@dataclass(frozen=True, slots=True)
class VariableCost:
    """A cost only known when the card is cast (Dual Strike: 10 per active doll, at least 20)."""

    skill: str
    per_unit: int
    unit: str
    minimum: int
    units: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "skill": self.skill,
            "per_unit": self.per_unit,
            "unit": self.unit,
            "minimum": self.minimum,
            "units": self.units,
        }


@dataclass(frozen=True, slots=True)
class CostBreakdown:
    lines: tuple[CostLine, ...]
    subtotal: int
    steps: tuple[CostStep, ...]
    before_efficiency: int
    total: int
    is_bomb: bool
    bomb_doubled: bool
    variable: VariableCost | None
    exceeds_spell_power_cap: bool
    house_rules: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {
            "lines": [line.to_dict() for line in self.lines],
            "subtotal": self.subtotal,
            "steps": [step.to_dict() for step in self.steps],
            "before_efficiency": self.before_efficiency,
            "total": self.total,
            "is_bomb": self.is_bomb,
            "bomb_doubled": self.bomb_doubled,
            "variable": None if self.variable is None else self.variable.to_dict(),
            "exceeds_spell_power_cap": self.exceeds_spell_power_cap,
            "house_rules": dict(self.house_rules),
        }


def price(
    card: SpellcardDraft,
    caster: CasterInfo,
    rules: HouseRules = DEFAULT_HOUSE_RULES,
    *,
    active_dolls: int | None = None,
) -> CostBreakdown:
    """Itemised activation cost of ``card`` for ``caster``.

    ``active_dolls`` prices a Dual Strike at the moment of casting; without it the breakdown
    shows the skill's minimum and marks the cost as variable.
    """
    skills = [(choice, _skill(choice)) for choice in card.skills]
    printed = any(skill.printed_cost for _, skill in skills)
    lines: list[CostLine] = []
    lines += _to_hit_lines(card)
    lines += _target_lines(card, rules, printed=printed)
    lines += _duration_lines(card)
    lines += _attack_power_lines(card, rules)
    lines += _element_lines(card, caster, skills, rules)
    if printed and rules.printed_costs_complete:
        lines = [_in_printed_cost(line) for line in lines]
    variable: VariableCost | None = None
    for choice, skill in skills:
        line, var = _skill_line(card, choice, skill, active_dolls)
        lines.append(line)
        variable = variable or var
    subtotal = sum(line.cost for line in lines)

    steps: list[CostStep] = []
    total = subtotal
    if total < rules.spellcard_min_cost:
        change = rules.spellcard_min_cost - total
        total = rules.spellcard_min_cost
        label = f"Raised to the {rules.spellcard_min_cost} minimum"
        steps.append(CostStep("minimum", label, change, total, SEC_MINIMUM))
    by_default = any(skill.bomb is BombRule.DEFAULT for _, skill in skills)
    is_bomb = card.bomb or by_default
    doubled = is_bomb and not by_default
    if doubled:
        change = total * (rules.bomb_multiplier - 1)
        total += change
        label = f"Bomb: ×{rules.bomb_multiplier}"
        steps.append(CostStep("bomb", label, change, total, SEC_BOMB))
    elif is_bomb:
        label = "Bomb by default: not doubled"
        steps.append(CostStep("bomb_not_doubled", label, 0, total, SEC_BOMB))
    before_efficiency = total
    if caster.has_efficiency:
        floor = min(total, rules.efficiency_floor)  # Efficiency never makes a card dearer
        reduced = max(total - rules.efficiency_discount, floor)
        change = reduced - total
        total = reduced
        label = (
            f"Efficiency (Magic Missile): −{rules.efficiency_discount}, "
            f"not below {rules.efficiency_floor}"
        )
        steps.append(CostStep("efficiency", label, change, total, SEC_EFFICIENCY))
    return CostBreakdown(
        lines=tuple(lines),
        subtotal=subtotal,
        steps=tuple(steps),
        before_efficiency=before_efficiency,
        total=total,
        is_bomb=is_bomb,
        bomb_doubled=doubled,
        variable=variable,
        exceeds_spell_power_cap=total > rules.spell_power_cap,
        house_rules=rules.changed(),
    )


def _in_printed_cost(line: CostLine) -> CostLine:
    """A section of a card whose skill prints the card's whole cost (RULINGS 12, house rule
    ``printed_costs_complete``): shown, and free."""
    if line.cost == 0:
        return line
    return CostLine(line.code, f"{line.label} (in the printed cost)", 0, line.section)


def element_cost(how_far: ElementDistance, rules: HouseRules = DEFAULT_HOUSE_RULES) -> int:
    """RULINGS 6: the table wins over the prose; own 0, same cycle 40, other cycle 80."""
    if how_far is ElementDistance.OWN:
        return 0
    if how_far is ElementDistance.SAME_CYCLE:
        return rules.element_cost_same_cycle
    return rules.element_cost_other_cycle


def _skill(choice: SkillChoice) -> SkillDef:
    skill = SKILLS.get(choice.slug)
    if skill is None:
        raise PricingError(f"unknown skill {choice.slug!r}")
    return skill


def _to_hit_lines(card: SpellcardDraft) -> list[CostLine]:
    if card.to_hit is ToHit.NONE:
        return []
    label = f"To-hit: {TO_HIT_LABEL[card.to_hit]}"
    return [CostLine("to_hit", label, TO_HIT_COST[card.to_hit], SEC_TO_HIT)]


def _target_lines(
    card: SpellcardDraft, rules: HouseRules, *, printed: bool = False
) -> list[CostLine]:
    """Targets and AOE. "Any AOE skill automatically includes the single target skill, but
    higher target skills may be taken for the combined cost of the AOE skill and twice the cost
    of the target skill" (RULINGS 5: AOE 3 + Two Targets = 100 + 2 × 20 = 140). A skill whose
    text prints the card's whole cost (``printed``: Body-shield, Shield ...) pays nothing for
    the targets its text fixes."""
    lines: list[CostLine] = []
    aoe_cost = AOE_COST.get(card.aoe)
    if card.aoe != 0:
        if aoe_cost is None:
            raise PricingError(f"AOE {card.aoe} is not on the AOE table (1-5)")
        lines.append(CostLine("aoe", f"AOE {card.aoe}", aoe_cost, SEC_AOE_TARGETS))
    if card.targets is None:
        return lines
    label = TARGETS_LABEL[card.targets]
    cost = TARGETS_COST[card.targets]
    if printed:
        lines.append(CostLine("targets", f"{label} (in the printed cost)", 0, SEC_TARGETS))
    elif card.aoe == 0:
        lines.append(CostLine("targets", label, cost, SEC_TARGETS))
    elif card.targets in (Targets.SELF, Targets.SINGLE):
        lines.append(CostLine("targets", f"{label} (included in the AOE)", 0, SEC_AOE_TARGETS))
    else:
        times = rules.aoe_targets_multiplier
        lines.append(
            CostLine("targets", f"{label} ×{times} (with AOE)", times * cost, SEC_AOE_TARGETS)
        )
    return lines


def _duration_lines(card: SpellcardDraft) -> list[CostLine]:
    if card.duration is Duration.INSTANTANEOUS:
        return []
    label = f"Duration: {duration_label(card.duration)}"
    return [CostLine("duration", label, DURATION_COST[card.duration], SEC_DURATION)]


def _attack_power_lines(card: SpellcardDraft, rules: HouseRules) -> list[CostLine]:
    power = card.attack_power
    if power is None:
        return []
    dice_cost = DICE_COST.get(power.dice)
    if dice_cost is None:
        raise PricingError(f"{power.dice}d is not on the attack power table (1d-8d)")
    lines = [
        CostLine("attack_power_dice", f"Attack power {power.dice}d", dice_cost, SEC_ATTACK_POWER)
    ]
    if power.modifier > 0:
        label = f"Damage modifier +{power.modifier}"
        cost = modifier_cost(power.modifier, bool(rules.damage_modifier_tiered))
        lines.append(CostLine("attack_power_modifier", label, cost, SEC_ATTACK_POWER))
    return lines


def _element_lines(
    card: SpellcardDraft,
    caster: CasterInfo,
    skills: list[tuple[SkillChoice, SkillDef]],
    rules: HouseRules,
) -> list[CostLine]:
    """The card's element, priced by its distance from the caster's (RULINGS 6)."""
    if card.element is None:
        return []
    name = card.element.value.capitalize()
    if any(skill.sets_element for _, skill in skills):
        return [CostLine("element", f"Element: {name} (goddess's element)", 0, SEC_ELEMENT)]
    how_far = distance(caster.element, card.element)
    cost = element_cost(how_far, rules)
    wording = {
        ElementDistance.OWN: "caster's element",
        ElementDistance.SAME_CYCLE: "same cycle as the caster's",
        ElementDistance.OTHER_CYCLE: "opposite cycle to the caster's",
    }[how_far]
    return [CostLine("element", f"Element: {name} ({wording})", cost, SEC_ELEMENT)]


def _skill_line(
    card: SpellcardDraft, choice: SkillChoice, skill: SkillDef, active_dolls: int | None
) -> tuple[CostLine, VariableCost | None]:
    cost = skill.cost
    code = f"skill:{skill.slug}"
    if cost.kind is CostKind.FIXED:
        return CostLine(code, skill.name, cost.amount, skill.section), None
    if cost.kind is CostKind.CHOICE:
        assert cost.param is not None  # noqa: S101 - the loader requires it
        value = choice.param(cost.param)
        if not isinstance(value, int) or value not in cost.options:
            raise PricingError(f"{skill.name}: choose {cost.param} from {list(cost.options)}")
        amount = cost.options[value]
        label = f"{skill.name} {value}d"
        if card.duration is not Duration.INSTANTANEOUS and cost.non_instant_multiplier != 1:
            amount *= cost.non_instant_multiplier
            label += f" ×{cost.non_instant_multiplier} (duration is not instantaneous)"
        return CostLine(code, label, amount, skill.section), None
    if cost.kind is CostKind.PER_UNIT:
        assert cost.param is not None  # noqa: S101 - the loader requires it
        units = choice.param(cost.param)
        if not isinstance(units, int) or units < 0:
            raise PricingError(f"{skill.name}: {cost.param} must be a whole number")
        label = f"{skill.name} ×{units}"
        return CostLine(code, label, cost.amount * units, skill.section), None
    variable = VariableCost(skill.slug, cost.amount, "active doll", cost.minimum, active_dolls)
    if active_dolls is None:
        label = f"{skill.name}: {cost.describe()} (priced at the minimum until cast)"
        return CostLine(code, label, cost.minimum, skill.section), variable
    if active_dolls < 0:
        raise PricingError("active_dolls cannot be negative")
    amount = max(cost.amount * active_dolls, cost.minimum)
    label = f"{skill.name}: {cost.amount} × {active_dolls} active dolls, at least {cost.minimum}"
    return CostLine(code, label, amount, skill.section), variable
