"""What a caster may pick for each field of a card, with prices, for a builder form.

The form offers only these choices, so most illegal cards cannot be built in the first place;
``validate`` still has the last word (some rules depend on combinations, e.g. Self + to-hit).
Prices that depend on house rules (elements, AOE with targets) are computed from ``rules``.
"""

from __future__ import annotations

from typing import Any

from westernroses.elements import Element, distance
from westernroses.house_rules import DEFAULT_HOUSE_RULES, HouseRules
from westernroses.spellcards.card import CardType, Duration, Targets, ToHit
from westernroses.spellcards.caster import CasterInfo
from westernroses.spellcards.cost import element_cost
from westernroses.spellcards.skills import BUILD_SECTIONS, BombRule, skills_for
from westernroses.spellcards.tables import (
    AOE_COST,
    DICE_COST,
    DURATION_COST,
    MODIFIER_HIGH_COST,
    MODIFIER_LOW_COST,
    MODIFIER_LOW_LIMIT,
    TARGETS_COST,
    TARGETS_LABEL,
    TO_HIT_COST,
    TO_HIT_LABEL,
    duration_label,
)
from westernroses.words import N_

_TYPE_LABELS = {
    CardType.ATTACK: N_("Attack-type"),
    CardType.DEFENSIVE: N_("Defensive-type"),
    CardType.SPECIAL: N_("Special"),
}


def allowed_options(caster: CasterInfo, rules: HouseRules = DEFAULT_HOUSE_RULES) -> dict[str, Any]:
    """Every legal choice per field for ``caster``, JSON-friendly.

    Shape::

        {
          "type": [{"value", "label", "bomb": "optional" | "per_skill"}],
          "builds": {"attack": [section names], "defensive": [...], ...},
          "to_hit": [{"value", "label", "cost"}],
          "targets": [{"value", "label", "cost", "cost_with_aoe"}],
          "aoe": [{"value", "label", "cost"}],
          "duration": [{"value", "label", "cost", "rounds", "homing"}],
          "attack_power": {"dice": [{"value", "label", "cost"}],
                           "modifier": {"minimum": 0, "tiers": [{"from", "to", "cost_each"}]}},
          "element": [{"value", "label", "distance", "cost"}],
          "skills": [SkillDef.to_dict() for the caster's profession],
          "efficiency": {"discount", "floor"} | None,
          "minimum_cost": 20, "bomb_multiplier": 2, "aoe_targets_multiplier": 2,
        }
    """
    skills = skills_for(caster.profession)
    types: list[dict[str, Any]] = [
        {
            "value": CardType.ATTACK.value,
            "label": _TYPE_LABELS[CardType.ATTACK],
            "bomb": "optional",
        },
        {
            "value": CardType.DEFENSIVE.value,
            "label": _TYPE_LABELS[CardType.DEFENSIVE],
            "bomb": "optional",
        },
    ]
    if skills:
        types.append(
            {
                "value": CardType.SPECIAL.value,
                "label": _TYPE_LABELS[CardType.SPECIAL],
                "bomb": "per_skill",
            }
        )
    return {
        "type": types,
        "builds": {build.value: list(sections) for build, sections in BUILD_SECTIONS.items()},
        "to_hit": [
            {"value": t.value, "label": TO_HIT_LABEL[t], "cost": TO_HIT_COST[t]} for t in ToHit
        ],
        "targets": [
            {
                "value": t.value,
                "label": TARGETS_LABEL[t],
                "cost": TARGETS_COST[t],
                "cost_with_aoe": _cost_with_aoe(t, rules),
            }
            for t in Targets
        ],
        "aoe": [
            {"value": radius, "label": f"AOE {radius}" if radius else "No AOE", "cost": cost}
            for radius, cost in AOE_COST.items()
        ],
        "duration": [
            {
                "value": d.value,
                "label": duration_label(d),
                "cost": DURATION_COST[d],
                "rounds": d.rounds,
                "homing": d.homing,
            }
            for d in Duration
        ],
        "attack_power": {
            "dice": [
                {"value": dice, "label": f"{dice}d", "cost": cost}
                for dice, cost in DICE_COST.items()
            ],
            "modifier": {
                "minimum": 0,
                "tiers": [
                    {"from": 1, "to": MODIFIER_LOW_LIMIT, "cost_each": MODIFIER_LOW_COST},
                    {"from": MODIFIER_LOW_LIMIT + 1, "to": None, "cost_each": MODIFIER_HIGH_COST},
                ],
                # House rule off: above +5 every point costs the higher price.
                "tiered": bool(rules.damage_modifier_tiered),
            },
        },
        "element": [_element_option(caster, e, rules) for e in Element],
        "skills": [skill.to_dict() for skill in skills],
        "bombable_skills": [s.slug for s in skills if s.bomb is not BombRule.NEVER],
        "efficiency": (
            {"discount": rules.efficiency_discount, "floor": rules.efficiency_floor}
            if caster.has_efficiency
            else None
        ),
        "minimum_cost": rules.spellcard_min_cost,
        "bomb_multiplier": rules.bomb_multiplier,
        "aoe_targets_multiplier": rules.aoe_targets_multiplier,
    }


def _cost_with_aoe(targets: Targets, rules: HouseRules) -> int:
    """What the Targets skill adds on top of an AOE (RULINGS 5): Single is included."""
    if targets in (Targets.SELF, Targets.SINGLE):
        return 0
    return rules.aoe_targets_multiplier * TARGETS_COST[targets]


def _element_option(caster: CasterInfo, element: Element, rules: HouseRules) -> dict[str, Any]:
    how_far = distance(caster.element, element)
    cost = element_cost(how_far, rules)
    return {
        "value": element.value,
        "label": element.value.capitalize(),
        "distance": how_far.value,
        "cost": cost,
    }
