"""Spellcards: designing, pricing and validating cards, and the rules of a spellcard deck.

Pure Python (no Django, DRF or Celery) so the builder form, the API, battle tasks and tests
share one implementation of the ruleset's "Spellcards" part. Every number is either a figure
from the rulebook (``tables.py``, ``data/spellcard_skills.yaml``) or a house rule taken from a
:class:`~westernroses.house_rules.HouseRules` argument.

Entry points:

* :class:`~westernroses.spellcards.card.SpellcardDraft` - a card as designed.
* :func:`~westernroses.spellcards.cost.price` - its itemised spell-power cost.
* :func:`~westernroses.spellcards.validation.validate` - every rule it breaks, at once.
* :func:`~westernroses.spellcards.options.allowed_options` - what a caster may pick.
* :mod:`~westernroses.spellcards.deck` - deck limits and battle-time deck state.
"""

from __future__ import annotations

from westernroses.spellcards.card import (
    AttackPower,
    CardFormatError,
    CardType,
    Duration,
    SkillChoice,
    SpellcardDraft,
    Targets,
    ToHit,
)
from westernroses.spellcards.caster import MAGIC_MISSILE, CasterInfo, Profession
from westernroses.spellcards.cost import CostBreakdown, CostLine, CostStep, PricingError, price
from westernroses.spellcards.options import allowed_options
from westernroses.spellcards.skills import SKILLS, SkillDef, get_skill, skills_for
from westernroses.spellcards.validation import CardViolation, validate

__all__ = [
    "MAGIC_MISSILE",
    "SKILLS",
    "AttackPower",
    "CardFormatError",
    "CardType",
    "CardViolation",
    "CasterInfo",
    "CostBreakdown",
    "CostLine",
    "CostStep",
    "Duration",
    "PricingError",
    "Profession",
    "SkillChoice",
    "SkillDef",
    "SpellcardDraft",
    "Targets",
    "ToHit",
    "allowed_options",
    "get_skill",
    "price",
    "skills_for",
    "validate",
]
