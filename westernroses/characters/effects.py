"""Which rules apply to a character right now, and who grants each one.

The catalog states rules as :class:`~westernroses.catalog.Effect` entries on shot-type
passives, racial traits, profession features, abilities, worn items and status effects.
:func:`gather_effects` collects those in play for a draft (checking conditions such as
Frilly Clothing's uncovered clothing or a Guardian's unharmed charge) so the sheet only has to
sum them by kind, each with its source for the breakdown.
"""

from __future__ import annotations

from dataclasses import dataclass

from westernroses.catalog import Ability, Catalog, Effect, Profession, Race, ShotType
from westernroses.characters.contributions import Contribution
from westernroses.characters.draft import CharacterDraft
from westernroses.characters.levels import profession_features
from westernroses.house_rules import DEFAULT_HOUSE_RULES, HouseRules


@dataclass(frozen=True, slots=True)
class AppliedEffect:
    """An effect in play and who grants it (``origin`` is the granting slug)."""

    effect: Effect
    source: str
    label: str
    origin: str


class EffectsInPlay:
    """The effects that apply to a draft: active ones to sum, situational ones to list."""

    def __init__(self) -> None:
        self.active: list[AppliedEffect] = []
        self.situational: list[AppliedEffect] = []

    def add(self, effect: Effect, source: str, label: str, origin: str, ok: bool) -> None:
        applied = AppliedEffect(effect, source, label, origin)
        if effect.situational is not None:
            self.situational.append(applied)
        elif ok:
            self.active.append(applied)

    def of(self, kind: str, **target: str) -> list[AppliedEffect]:
        return [
            a
            for a in self.active
            if a.effect.kind == kind and all(getattr(a.effect, k) == v for k, v in target.items())
        ]

    def parts(self, kind: str, **target: str) -> tuple[Contribution, ...]:
        return tuple(
            Contribution(a.source, a.label, a.effect.amount) for a in self.of(kind, **target)
        )

    def has(self, kind: str) -> bool:
        return bool(self.of(kind))


def frilly_clothing_shown(draft: CharacterDraft, cat: Catalog) -> bool:
    """Frilly Clothing: wearing clothing and none of it covered (armor covers it too)."""
    worn = [cat.items[s] for s, stack in draft.inventory.items() if stack.equipped]
    wearing = any(item.category == "clothing" for item in worn)
    covered = draft.clothing_covered or any(item.covers_clothing for item in worn)
    return wearing and not covered


def gather_effects(
    draft: CharacterDraft,
    cat: Catalog,
    shot: ShotType,
    race: Race,
    profession: Profession,
    abilities: list[Ability],
    rules: HouseRules = DEFAULT_HOUSE_RULES,
) -> EffectsInPlay:
    conditions = {
        "frilly_clothing": frilly_clothing_shown(draft, cat),
        # House rule (issue 9): whether the Guardian's extra HP needs an unharmed charge.
        "guardian_charge_safe": not (
            draft.guardian_charge_injured and rules.guardian_hp_needs_safe_charge
        ),
    }

    def ok(effect: Effect) -> bool:
        if effect.condition is not None and not conditions[effect.condition]:
            return False
        if effect.requires_item is not None:
            stack = draft.inventory.get(effect.requires_item)
            return stack is not None and stack.quantity > 0
        return True

    effects = EffectsInPlay()
    for effect in shot.passive.effects:
        effects.add(effect, "shot_type", shot.passive.name, shot.slug, ok(effect))
    for trait in race.all_traits:
        for effect in trait.effects:
            effects.add(effect, "race", trait.name, race.slug, ok(effect))
    for feature in profession_features(profession, draft.level):
        for effect in feature.effects:
            effects.add(effect, "profession", profession.name, profession.slug, ok(effect))
    for ability in abilities:
        for effect in ability.effects:
            effects.add(effect, "ability", ability.name, ability.slug, ok(effect))
    for slug, stack in draft.inventory.items():
        item = cat.items[slug]
        if stack.equipped and not item.is_weapon:
            for effect in item.effects:
                effects.add(effect, "item", item.name, slug, ok(effect))
    for slug in draft.status_effects:
        status = cat.status_effects[slug]
        for effect in status.effects:
            effects.add(effect, "status_effect", status.name, slug, ok(effect))
    return effects


def temporary_parts(draft: CharacterDraft, target: str) -> list[Contribution]:
    """The draft's temporary effects on ``target`` (a stat key, ``hp_max``, ``speed`` ...)."""
    return [
        Contribution("effect", e.source or "Temporary effect", e.amount)
        for e in draft.effects
        if e.target == target
    ]


def hp_max_parts(
    draft: CharacterDraft, shot: ShotType, effects: EffectsInPlay
) -> list[Contribution]:
    """Maximum HP's parts: the shot-type's, every effect in play, temporary effects."""
    return [
        Contribution("shot_type", shot.name, shot.hp),
        *effects.parts("hp_max"),
        *temporary_parts(draft, "hp_max"),
    ]
