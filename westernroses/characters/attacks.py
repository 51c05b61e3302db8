"""Attack lines: danmaku, bare fists, a youkai's natural weapon and every equipped weapon.

Ruleset "Attacking and Dodging" and "Damage Rolls", with RULINGS 4: a physical attack is a
versus check of the attacker's PWR against the defender's CHA and deals the weapon's dice +
floor(PWR / 2); danmaku needs no to-hit roll (the target rolls insight against 12 to dodge) and
deals floor(INT / 3) dice. Bonuses (Training, Brute Force, Magic Spirit, Combat-Maid dice,
Options) and penalties (improvised weapons, drink, blindness) are listed with their sources.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final

from westernroses.catalog import Catalog, Item
from westernroses.characters.contributions import (
    Check,
    Contribution,
    as_dicts,
    ceil_div,
    signed,
    total,
)
from westernroses.characters.draft import CharacterDraft
from westernroses.characters.drunkenness import DrunkModifiers
from westernroses.characters.effects import EffectsInPlay
from westernroses.checks import pool_size
from westernroses.house_rules import HouseRules

#: Improvised weapons: "-2 on to-hit rolls and a -4 to damage rolls".
IMPROVISED_TO_HIT: Final = -2
IMPROVISED_DAMAGE: Final = -4


@dataclass(frozen=True, slots=True)
class Damage:
    """A damage roll: (dice + flat modifier) x ``multiplier``, dice and modifier with parts."""

    dice_parts: tuple[Contribution, ...]
    modifier_parts: tuple[Contribution, ...]
    multiplier: int = 1

    @property
    def dice(self) -> int:
        return total(self.dice_parts)

    @property
    def modifier(self) -> int:
        return total(self.modifier_parts)

    @property
    def expression(self) -> str:
        """Canonical dice notation (:mod:`westernroses.dice`): ``2d+6``; doubled damage is
        ``4dX2+32``, the whole damage doubled with the bonus written already doubled."""
        if self.dice == 0:
            return str(self.modifier * self.multiplier)
        times = f"X{self.multiplier}" if self.multiplier != 1 else ""
        return f"{self.dice}d{times}{signed(self.modifier * self.multiplier)}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "dice": self.dice,
            "modifier": self.modifier,
            "multiplier": self.multiplier,
            "expression": self.expression,
            "dice_parts": as_dicts(self.dice_parts),
            "modifier_parts": as_dicts(self.modifier_parts),
        }


@dataclass(frozen=True, slots=True)
class Attack:
    """One way to attack: danmaku, bare fists, a natural weapon or an equipped weapon."""

    slug: str
    name: str
    kind: str  # "danmaku", "physical" or "thrown"
    category: str
    range: int
    range_rule: str
    to_hit: Check | None
    damage: Damage
    elements: tuple[str, ...] = ()
    quantity: int | None = None
    recovery: str | None = None
    on_hit: str | None = None
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "slug": self.slug,
            "name": self.name,
            "kind": self.kind,
            "category": self.category,
            "range": self.range,
            "range_rule": self.range_rule,
            "to_hit": self.to_hit.to_dict() if self.to_hit else None,
            "damage": self.damage.to_dict(),
            "elements": list(self.elements),
            "quantity": self.quantity,
            "recovery": self.recovery,
            "on_hit": self.on_hit,
            "notes": list(self.notes),
        }


@dataclass(frozen=True, slots=True)
class AttackContext:
    """What every attack line needs: stats, range, effects, drink, Options and house rules."""

    power: int
    intelligence: int
    range_total: int
    effects: EffectsInPlay
    drunk: DrunkModifiers
    options: int
    rules: HouseRules


def derive_attacks(
    draft: CharacterDraft, cat: Catalog, fight: AttackContext, goddess: str | None
) -> tuple[Attack, ...]:
    """Danmaku, bare fists, a youkai's natural weapon, then every equipped weapon."""
    attacks = [_danmaku(draft.element or "", goddess, fight)]
    attacks.append(_physical(cat.items["bare_fists"], "bare_fists", None, None, fight, goddess))
    if draft.natural_weapon:
        name = draft.natural_weapon.strip().capitalize()
        natural = cat.items["natural_weapon"]
        attacks.append(_physical(natural, "natural_weapon", name, None, fight, goddess))
    for slug, stack in draft.inventory.items():
        item = cat.items[slug]
        if stack.equipped and item.is_weapon and item.category != "natural_weapon":
            quantity = stack.quantity if item.category == "throwing_weapon" else None
            attacks.append(_physical(item, slug, None, quantity, fight, goddess))
    return tuple(attacks)


def halved_for_attacks(value: int) -> int:
    """A stat "treated as halved" for attacks (rounded up, RULINGS 3)."""
    return ceil_div(value, 2)


def _danmaku(element: str, goddess: str | None, fight: AttackContext) -> Attack:
    """Danmaku: floor(INT / 3) dice (RULINGS 4), within RANGE, no to-hit roll."""
    effects, options, rules = fight.effects, fight.options, fight.rules
    intelligence = fight.intelligence
    label = f"INT {intelligence}"
    notes = []
    if effects.has("basic_attack_stats_halved"):
        intelligence = halved_for_attacks(intelligence)
        label = f"INT {fight.intelligence} halved to {intelligence}"
        notes.append("Doll Master: intelligence is treated as halved for basic attacks.")
    dice = max(intelligence // rules.danmaku_int_per_die, rules.min_dice)
    modifier_parts = list(effects.parts("danmaku_damage"))
    reach = fight.range_total
    if options:
        modifier_parts.append(Contribution("options", "Options", options))
        reach += options
    elements = [element]
    if goddess and goddess != element:
        elements.append(goddess)
        notes.append("Shrine Maiden: may declare a basic attack to be of her goddess's element.")
    notes.append(f"Targets dodge with an insight roll against {rules.danmaku_dodge_target}.")
    return Attack(
        slug="danmaku",
        name="Danmaku",
        kind="danmaku",
        category="danmaku",
        range=reach,
        range_rule="RANGE" + (f" + {options} (Options)" if options else ""),
        to_hit=None,
        damage=Damage(
            (Contribution("stat", f"{label} / {rules.danmaku_int_per_die}", dice),),
            tuple(modifier_parts),
        ),
        elements=tuple(elements),
        notes=tuple(notes),
    )


def _physical(
    item: Item,
    slug: str,
    name: str | None,
    quantity: int | None,
    fight: AttackContext,
    goddess: str | None = None,
) -> Attack:
    """A physical attack: PWR versus CHA to hit, weapon dice + PWR / 2 (RULINGS 4) damage.
    Non-elemental, unless a Shrine Maiden declares it her goddess's element ("any of her basic
    attacks", bare fists and gohei included; issue 9): the element is listed for her."""
    effects, drunk, options, rules = fight.effects, fight.drunk, fight.options, fight.rules
    power = fight.power
    thrown = item.category == "throwing_weapon"
    improvised = item.category == "improvised_weapon" and not effects.has("improvised_no_penalty")
    halved_doll = effects.has("basic_attack_stats_halved")
    notes: list[str] = []
    if goddess:
        notes.append("Shrine Maiden: may declare this attack to be of her goddess's element.")

    # To-hit: a versus check of PWR against the defender's CHA.
    attack_power = power
    to_hit_parts: list[Contribution] = []
    if drunk.attack_power_halved or halved_doll:
        attack_power = halved_for_attacks(power)
        notes.append(f"Power {power} is treated as halved ({attack_power}) for attack rolls.")
    if drunk.stat("pwr") and not drunk.attack_power_halved:
        to_hit_parts.append(Contribution("drunkenness", drunk.name, drunk.stat("pwr")))
    if improvised:
        to_hit_parts.append(Contribution("item", "Improvised weapon", IMPROVISED_TO_HIT))
    to_hit_parts.extend(effects.parts("to_hit"))

    # Damage: weapon dice + PWR / divisor (RULINGS 4) + bonuses.
    damage_power = halved_for_attacks(power) if halved_doll else power
    dice_parts = [Contribution("item", item.name, item.damage_dice or 0)]
    if thrown:
        dice_parts.extend(effects.parts("thrown_damage_dice"))
    fist_dice = min(drunk.fist_extra_dice, rules.drunken_fists_max_extra_dice)
    if slug == "bare_fists" and fist_dice:
        dice_parts.append(Contribution("drunkenness", f"Drunken Master ({drunk.name})", fist_dice))
    divisor = rules.physical_damage_pwr_divisor
    modifier_parts = [
        Contribution("stat", f"PWR {damage_power} / {divisor}", damage_power // divisor),
        *effects.parts("physical_damage"),
    ]
    if options:
        modifier_parts.append(Contribution("options", "Options", options))
    if improvised:
        modifier_parts.append(Contribution("item", "Improvised weapon", IMPROVISED_DAMAGE))

    if item.range is not None:
        reach, rule = item.range, f"{item.range} (weapon)"
    else:
        assert item.range_of_stat is not None  # noqa: S101 - catalog guarantees one of the two
        reach = math.ceil(item.range_of_stat * fight.range_total)
        rule = f"{item.range_of_stat} x RANGE"
    recovery = None
    if thrown:
        recovery = f"{item.recovery_dice}d" if item.recoverable else "non-recoverable"
    return Attack(
        slug=slug,
        name=name or item.name,
        kind="thrown" if thrown else "physical",
        category=item.category,
        range=reach,
        range_rule=rule,
        to_hit=Check(attack_power, pool_size(attack_power, rules), tuple(to_hit_parts)),
        damage=Damage(tuple(dice_parts), tuple(modifier_parts), drunk.physical_damage_multiplier),
        quantity=quantity,
        recovery=recovery,
        on_hit=item.on_hit,
        elements=(goddess,) if goddess else (),
        notes=tuple(notes),
    )
