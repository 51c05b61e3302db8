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
    duration_words,
    modifier_cost,
)
from westernroses.words import N_, Words, data


class PricingError(ValueError):
    """A part of the card cannot be priced at all (unknown skill, missing cost parameter).

    Its one argument is :class:`Words`: ``str`` gives their English (the API's), the pages show
    them in the reader's language (``reason_in_language``). ``english`` is what ``str`` says
    where the English has always named a parameter by its id rather than its label."""

    def __init__(self, words: Words, english: str | None = None) -> None:
        super().__init__(words)
        self.english = english

    def __str__(self) -> str:
        return super().__str__() if self.english is None else self.english


def _param_words(skill: SkillDef, name: str) -> Words | str:
    """A cost parameter as the reader sees it: its label from the data (its id if none)."""
    for spec in skill.params:
        if spec.name == name:
            return data(spec.label)
    return name


@dataclass(frozen=True, slots=True)
class CostLine:
    """One chosen part of the card and what it adds (negative for a to-hit roll)."""

    code: str
    label: str
    cost: int
    section: str
    #: the label as words, for the app to show in the reader's language (``label`` is their
    #: English)
    words: Words | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "label": self.label,
            "cost": self.cost,
            "section": self.section,
        }
        if self.words is not None:
            out["words"] = self.words.to_json()
        return out


@dataclass(frozen=True, slots=True)
class CostStep:
    """An adjustment after the subtotal (minimum, bomb, Efficiency) and the running total."""

    code: str
    label: str
    change: int
    total: int
    section: str
    words: Words | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "label": self.label,
            "change": self.change,
            "total": self.total,
            "section": self.section,
        }
        if self.words is not None:
            out["words"] = self.words.to_json()
        return out


def _line(code: str, words: Words, cost: int, section: str) -> CostLine:
    """A cost line whose label the rules write: its English, and its words."""
    return CostLine(code, str(words), cost, section, words)


def _step(code: str, words: Words, change: int, total: int, section: str) -> CostStep:
    return CostStep(code, str(words), change, total, section, words)


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
        label = Words(
            N_("Raised to the %(minimum)s minimum"), {"minimum": rules.spellcard_min_cost}
        )
        steps.append(_step("minimum", label, change, total, SEC_MINIMUM))
    by_default = any(skill.bomb is BombRule.DEFAULT for _, skill in skills)
    is_bomb = card.bomb or by_default
    doubled = is_bomb and not by_default
    if doubled:
        change = total * (rules.bomb_multiplier - 1)
        total += change
        label = Words(N_("Bomb: ×%(times)s"), {"times": rules.bomb_multiplier})
        steps.append(_step("bomb", label, change, total, SEC_BOMB))
    elif is_bomb:
        label = Words(N_("Bomb by default: not doubled"))
        steps.append(_step("bomb_not_doubled", label, 0, total, SEC_BOMB))
    before_efficiency = total
    if caster.has_efficiency:
        floor = min(total, rules.efficiency_floor)  # Efficiency never makes a card dearer
        reduced = max(total - rules.efficiency_discount, floor)
        change = reduced - total
        total = reduced
        label = Words(
            N_("Efficiency (Magic Missile): −%(discount)s, not below %(floor)s"),
            {"discount": rules.efficiency_discount, "floor": rules.efficiency_floor},
        )
        steps.append(_step("efficiency", label, change, total, SEC_EFFICIENCY))
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
    return _line(
        line.code,
        Words(N_("%(label)s (in the printed cost)"), {"label": line.words or line.label}),
        0,
        line.section,
    )


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
        raise PricingError(Words(N_("unknown skill %(slug)s"), {"slug": repr(choice.slug)}))
    return skill


def _to_hit_lines(card: SpellcardDraft) -> list[CostLine]:
    if card.to_hit is ToHit.NONE:
        return []
    label = Words(N_("To-hit: %(to_hit)s"), {"to_hit": Words(TO_HIT_LABEL[card.to_hit])})
    return [_line("to_hit", label, TO_HIT_COST[card.to_hit], SEC_TO_HIT)]


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
            words = Words(N_("AOE %(radius)s is not on the AOE table (1-5)"), {"radius": card.aoe})
            raise PricingError(words)
        aoe = Words(N_("AOE %(radius)s"), {"radius": card.aoe})
        lines.append(_line("aoe", aoe, aoe_cost, SEC_AOE_TARGETS))
    if card.targets is None:
        return lines
    label = Words(TARGETS_LABEL[card.targets])
    cost = TARGETS_COST[card.targets]
    if printed:
        printed_words = Words(N_("%(label)s (in the printed cost)"), {"label": label})
        lines.append(_line("targets", printed_words, 0, SEC_TARGETS))
    elif card.aoe == 0:
        lines.append(_line("targets", label, cost, SEC_TARGETS))
    elif card.targets in (Targets.SELF, Targets.SINGLE):
        included = Words(N_("%(label)s (included in the AOE)"), {"label": label})
        lines.append(_line("targets", included, 0, SEC_AOE_TARGETS))
    else:
        times = rules.aoe_targets_multiplier
        with_aoe = Words(N_("%(label)s ×%(times)s (with AOE)"), {"label": label, "times": times})
        lines.append(_line("targets", with_aoe, times * cost, SEC_AOE_TARGETS))
    return lines


def _duration_lines(card: SpellcardDraft) -> list[CostLine]:
    if card.duration is Duration.INSTANTANEOUS:
        return []
    label = Words(N_("Duration: %(duration)s"), {"duration": duration_words(card.duration)})
    return [_line("duration", label, DURATION_COST[card.duration], SEC_DURATION)]


def _attack_power_lines(card: SpellcardDraft, rules: HouseRules) -> list[CostLine]:
    power = card.attack_power
    if power is None:
        return []
    dice_cost = DICE_COST.get(power.dice)
    if dice_cost is None:
        words = Words(
            N_("%(dice)sd is not on the attack power table (1d-8d)"), {"dice": power.dice}
        )
        raise PricingError(words)
    dice = Words(N_("Attack power %(dice)sd"), {"dice": power.dice})
    lines = [_line("attack_power_dice", dice, dice_cost, SEC_ATTACK_POWER)]
    if power.modifier > 0:
        label = Words(N_("Damage modifier +%(modifier)s"), {"modifier": power.modifier})
        cost = modifier_cost(power.modifier, bool(rules.damage_modifier_tiered))
        lines.append(_line("attack_power_modifier", label, cost, SEC_ATTACK_POWER))
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
    # the element as its name in English; the app puts it in the reader's language
    name = card.element.value.capitalize()
    if any(skill.sets_element for _, skill in skills):
        goddess = Words(N_("Element: %(element)s (goddess's element)"), {"element": name})
        return [_line("element", goddess, 0, SEC_ELEMENT)]
    how_far = distance(caster.element, card.element)
    cost = element_cost(how_far, rules)
    wording = {
        ElementDistance.OWN: N_("Element: %(element)s (caster's element)"),
        ElementDistance.SAME_CYCLE: N_("Element: %(element)s (same cycle as the caster's)"),
        ElementDistance.OTHER_CYCLE: N_("Element: %(element)s (opposite cycle to the caster's)"),
    }[how_far]
    return [_line("element", Words(wording, {"element": name}), cost, SEC_ELEMENT)]


def _skill_line(
    card: SpellcardDraft, choice: SkillChoice, skill: SkillDef, active_dolls: int | None
) -> tuple[CostLine, VariableCost | None]:
    cost = skill.cost
    code = f"skill:{skill.slug}"
    if cost.kind is CostKind.FIXED:
        return _line(code, Words(skill.name), cost.amount, skill.section), None
    if cost.kind is CostKind.CHOICE:
        assert cost.param is not None  # noqa: S101 - the loader requires it
        value = choice.param(cost.param)
        if not isinstance(value, int) or value not in cost.options:
            words = Words(
                N_("%(skill)s: choose %(param)s from %(options)s"),
                {
                    "skill": data(skill.name),
                    "param": _param_words(skill, cost.param),
                    "options": str(list(cost.options)),
                },
            )
            english = f"{skill.name}: choose {cost.param} from {list(cost.options)}"
            raise PricingError(words, english)
        amount = cost.options[value]
        label = Words(N_("%(skill)s %(dice)sd"), {"skill": Words(skill.name), "dice": value})
        if card.duration is not Duration.INSTANTANEOUS and cost.non_instant_multiplier != 1:
            amount *= cost.non_instant_multiplier
            label = Words(
                N_("%(label)s ×%(times)s (duration is not instantaneous)"),
                {"label": label, "times": cost.non_instant_multiplier},
            )
        return _line(code, label, amount, skill.section), None
    if cost.kind is CostKind.PER_UNIT:
        assert cost.param is not None  # noqa: S101 - the loader requires it
        units = choice.param(cost.param)
        if not isinstance(units, int) or units < 0:
            words = Words(
                N_("%(skill)s: %(param)s must be a whole number"),
                {"skill": data(skill.name), "param": _param_words(skill, cost.param)},
            )
            raise PricingError(words, f"{skill.name}: {cost.param} must be a whole number")
        label = Words(N_("%(skill)s ×%(units)s"), {"skill": Words(skill.name), "units": units})
        return _line(code, label, cost.amount * units, skill.section), None
    variable = VariableCost(skill.slug, cost.amount, "active doll", cost.minimum, active_dolls)
    if active_dolls is None:
        pending = Words(
            N_("%(skill)s: %(cost)s (priced at the minimum until cast)"),
            {"skill": Words(skill.name), "cost": cost.describe_words()},
        )
        return _line(code, pending, cost.minimum, skill.section), variable
    if active_dolls < 0:
        raise PricingError(Words(N_("active_dolls cannot be negative")))
    amount = max(cost.amount * active_dolls, cost.minimum)
    dolls = Words(
        N_("%(skill)s: %(each)s × %(dolls)s active dolls, at least %(minimum)s"),
        {
            "skill": Words(skill.name),
            "each": cost.amount,
            "dolls": active_dolls,
            "minimum": cost.minimum,
        },
    )
    return _line(code, dolls, amount, skill.section), variable
