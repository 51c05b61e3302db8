"""The character sheet: every number derived from a draft, with where each part comes from.

Nothing here is stored. :func:`derive_sheet` recomputes the sheet from the draft, the rule
catalog and the campaign's house rules, so fixing a rule or changing a house rule updates
every character at once. Every total is listed with its :class:`Contribution` parts and
equals their sum, so a player can check the arithmetic against the rulebook.

Checks are written as dice notation (``4d+2``): the dice come from the stat or skill value
(RULINGS 1), the modifier from bonuses and situational penalties such as drink.

:meth:`Sheet.to_dict` shape (a *part* is ``{"source", "label", "amount"}``, a *check* is
``{"base", "dice", "modifier", "expression", "modifiers": [part]}``)::

    name, level, element, goddess_element, yen, can_act
    shot_type / race / profession: {slug, name}
    stats.{pwr,cha,int,ins}: {name, total, contributions: [part], dice, check}
    hp: {max, contributions, current, mortal_wound_below, state}
    speed, range: {name, total, contributions}
    skills.<slug>: {name, kind, formula, base, points, value, bonuses: [part], effective,
                    situational: [part], dice, check}
    attacks: [{slug, name, kind, category, range, range_rule, to_hit: check | null,
               damage: {dice, modifier, multiplier, expression, dice_parts, modifier_parts},
               elements, quantity, recovery, on_hit, notes}]
    defence: {dodge_rolls, can_dodge, physical_dodge, danmaku_dodge, danmaku_dodge_target,
              graze, graze_target, damage_reduction(+_parts), minimum_damage,
              status_resistance(+_parts), attackers_physical_to_hit(+_parts), notes}
    opponents: {graze(+_parts), danmaku_dodge(+_parts)}
    spell_power: {start, cap, held, per_turn(+_parts), multiplier(+_parts), concentrate,
                  graze_multiplier, options_bonus}
    spellcards: {deck: {level, max_cards, max_kinds, copies_per_card, cards, kinds},
                 dodge_difficulty, to_hit(+_parts), efficiency, min_cost, bomb_multiplier,
                 special}
    drunkenness: {level, name, rolls, speed, consciousness, dodge_rolls, fist_extra_dice,
                  attack_power_halved, physical_damage_multiplier, notes}
    status_effects, passives: [{source, name, text}]
    warmness: {total, contributions}; inventory: [{slug, name, category, quantity, equipped}]
    house_rules: {changed setting: value}; problems: [{code, field, message, rule}]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Final

from westernroses.catalog import (
    MAIN_STATS,
    STAT_NAMES,
    Ability,
    Catalog,
    Profession,
    Race,
    ShotType,
    get_catalog,
)
from westernroses.characters.attacks import (
    Attack,
    AttackContext,
    derive_attacks,
)
from westernroses.characters.builder import HP_FLOOR, RuleViolation, blocking, validate
from westernroses.characters.contributions import (
    Check,
    Contribution,
    as_dicts,
    ceil_div,
    total,
)
from westernroses.characters.draft import CharacterDraft
from westernroses.characters.drunkenness import DrunkLevel, DrunkModifiers, modifiers
from westernroses.characters.effects import (
    EffectsInPlay,
    gather_effects,
    hp_max_parts,
    temporary_parts,
)
from westernroses.characters.levels import DeckLimits, deck_limits, profession_features
from westernroses.checks import pool_size
from westernroses.house_rules import DEFAULT_HOUSE_RULES, HouseRules

#: Resilience and armor: "at least 1 damage from any successful attack".
MINIMUM_DAMAGE: Final = 1
#: Grazing gains "TWICE as much power as the damage you would have taken".
GRAZE_POWER_MULTIPLIER: Final = 2


class SheetError(ValueError):
    """The draft cannot be turned into a sheet; ``violations`` says why."""

    def __init__(self, violations: list[RuleViolation]) -> None:
        super().__init__("; ".join(f"{v.field}: {v.message}" for v in violations))
        self.violations = violations


# --------------------------------------------------------------------------- sheet records


@dataclass(frozen=True, slots=True)
class StatLine:
    """A main stat: its parts, total, and the check it rolls (drink modifies the roll)."""

    key: str
    name: str
    contributions: tuple[Contribution, ...]
    check: Check

    @property
    def total(self) -> int:
        return total(self.contributions)

    @property
    def dice(self) -> int:
        return self.check.dice

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "total": self.total,
            "contributions": as_dicts(self.contributions),
            "dice": self.check.dice,
            "check": self.check.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class SubStat:
    """HP max, speed or range: a total and its parts."""

    key: str
    name: str
    contributions: tuple[Contribution, ...]

    @property
    def total(self) -> int:
        return total(self.contributions)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "total": self.total,
            "contributions": as_dicts(self.contributions),
        }


@dataclass(frozen=True, slots=True)
class SkillLine:
    """A skill: base from its formula, points, bonuses; ``effective`` = value + bonuses.

    Bonuses are "+2 to all rolls with this skill" (Skill Focus), so the dice come from the
    value and the bonuses are the roll's modifier: intuition 12 with Focus is effective 14 and
    rolls 4d+2. ``situational`` bonuses (at night ...) are listed but never summed.
    """

    slug: str
    name: str
    kind: str
    formula: str
    base: int
    points: int
    bonuses: tuple[Contribution, ...]
    situational: tuple[Contribution, ...]
    check: Check

    @property
    def value(self) -> int:
        return self.base + self.points

    @property
    def effective(self) -> int:
        return self.value + total(self.bonuses)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "formula": self.formula,
            "base": self.base,
            "points": self.points,
            "value": self.value,
            "bonuses": as_dicts(self.bonuses),
            "effective": self.effective,
            "situational": as_dicts(self.situational),
            "dice": self.check.dice,
            "check": self.check.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class Defence:
    """Dodging, grazing and what reduces damage taken."""

    dodge_rolls: int
    physical_dodge: Check
    danmaku_dodge: Check
    danmaku_dodge_target: int
    graze: Check
    graze_target: int
    damage_reduction: tuple[Contribution, ...]
    minimum_damage: int
    status_resistance: tuple[Contribution, ...]
    attackers_physical_to_hit: tuple[Contribution, ...]
    notes: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "dodge_rolls": self.dodge_rolls,
            "can_dodge": self.dodge_rolls > 0,
            "physical_dodge": self.physical_dodge.to_dict(),
            "danmaku_dodge": self.danmaku_dodge.to_dict(),
            "danmaku_dodge_target": self.danmaku_dodge_target,
            "graze": self.graze.to_dict(),
            "graze_target": self.graze_target,
            "damage_reduction": total(self.damage_reduction),
            "damage_reduction_parts": as_dicts(self.damage_reduction),
            "minimum_damage": self.minimum_damage,
            "status_resistance": total(self.status_resistance),
            "status_resistance_parts": as_dicts(self.status_resistance),
            "attackers_physical_to_hit": total(self.attackers_physical_to_hit),
            "attackers_physical_to_hit_parts": as_dicts(self.attackers_physical_to_hit),
            "notes": list(self.notes),
        }


@dataclass(frozen=True, slots=True)
class SpellPower:
    """Spell power: start, cap, gain per turn (INS + bonuses, times multipliers), Options."""

    start: int
    cap: int
    held: int | None
    per_turn_parts: tuple[Contribution, ...]
    multipliers: tuple[Contribution, ...]
    options_bonus: int

    @property
    def multiplier(self) -> int:
        return math.prod(m.amount for m in self.multipliers)

    @property
    def per_turn(self) -> int:
        return total(self.per_turn_parts) * self.multiplier

    def to_dict(self) -> dict[str, Any]:
        return {
            "start": self.start,
            "cap": self.cap,
            "held": self.held,
            "per_turn": self.per_turn,
            "per_turn_parts": as_dicts(self.per_turn_parts),
            "multiplier": self.multiplier,
            "multiplier_parts": as_dicts(self.multipliers),
            "concentrate": self.per_turn,
            "graze_multiplier": GRAZE_POWER_MULTIPLIER * self.multiplier,
            "options_bonus": self.options_bonus,
        }


@dataclass(frozen=True, slots=True)
class Spellcards:
    """Deck limits and the numbers spellcards use for this character."""

    deck: DeckLimits
    dodge_difficulty: int
    to_hit: tuple[Contribution, ...]
    efficiency: tuple[int, int] | None
    min_cost: int
    bomb_multiplier: int
    special: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "deck": self.deck.to_dict(),
            "dodge_difficulty": self.dodge_difficulty,
            "to_hit": total(self.to_hit),
            "to_hit_parts": as_dicts(self.to_hit),
            "efficiency": (
                {"discount": self.efficiency[0], "floor": self.efficiency[1]}
                if self.efficiency
                else None
            ),
            "min_cost": self.min_cost,
            "bomb_multiplier": self.bomb_multiplier,
            "special": self.special,
        }


@dataclass(frozen=True, slots=True)
class HitPoints:
    maximum: SubStat
    current: int

    @property
    def mortal_wound_below(self) -> int:
        """ "Once your HP drops below 1/4 of your max" (rounded up, RULINGS 3)."""
        return ceil_div(self.maximum.total, 4)

    @property
    def state(self) -> str:
        if self.current <= -100:
            return "destroyed"
        if self.current < 0:
            return "dead"
        if self.current < self.mortal_wound_below:
            return "mortally_wounded"
        return "healthy"

    def to_dict(self) -> dict[str, Any]:
        return {
            "max": self.maximum.total,
            "contributions": as_dicts(self.maximum.contributions),
            "current": self.current,
            "mortal_wound_below": self.mortal_wound_below,
            "state": self.state,
        }


@dataclass(frozen=True, slots=True)
class Passive:
    """A rule shown as text: a shot-type passive, racial trait, profession feature, ability."""

    source: str
    name: str
    text: str

    def to_dict(self) -> dict[str, str]:
        return {"source": self.source, "name": self.name, "text": self.text}


@dataclass(frozen=True, slots=True)
class DollLine:
    """A Doll Master's dolls: how many, how many she has no deep emotional connection with,
    and their stats with one or two out ("stats equal to the controller's"); an unconnected
    doll "has all its stats halved" (rounded up, RULINGS 3; HP too, as for a crowd of more
    than four). Three or more out change them further in battle."""

    count: int
    unconnected: int
    stats: dict[str, int]
    hp: int
    unconnected_stats: dict[str, int]
    unconnected_hp: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "count": self.count,
            "unconnected": self.unconnected,
            "stats": dict(self.stats),
            "hp": self.hp,
            "unconnected_stats": dict(self.unconnected_stats),
            "unconnected_hp": self.unconnected_hp,
        }


@dataclass(frozen=True, slots=True)
class Sheet:
    name: str
    level: int
    shot_type: ShotType
    race: Race
    profession: Profession
    element: str
    goddess_element: str | None
    stats: dict[str, StatLine]
    hp: HitPoints
    speed: SubStat
    range: SubStat
    skills: dict[str, SkillLine]
    attacks: tuple[Attack, ...]
    defence: Defence
    opponents_graze: tuple[Contribution, ...]
    opponents_danmaku_dodge: tuple[Contribution, ...]
    spell_power: SpellPower
    spellcards: Spellcards
    drunkenness: DrunkModifiers
    status_effects: tuple[Passive, ...]
    can_act: bool
    passives: tuple[Passive, ...]
    warmness: tuple[Contribution, ...]
    yen: int
    inventory: tuple[dict[str, Any], ...]
    house_rules: dict[str, int]
    problems: tuple[RuleViolation, ...] = field(default=())
    dolls: DollLine | None = None

    def attack(self, slug: str) -> Attack:
        """The attack with ``slug`` (``danmaku``, ``bare_fists``, an item slug ...)."""
        for attack in self.attacks:
            if attack.slug == slug:
                return attack
        raise KeyError(slug)

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable sheet with every breakdown (shape in the module docstring)."""
        return {
            "name": self.name,
            "level": self.level,
            "shot_type": {"slug": self.shot_type.slug, "name": self.shot_type.name},
            "race": {"slug": self.race.slug, "name": self.race.name},
            "profession": {"slug": self.profession.slug, "name": self.profession.name},
            "element": self.element,
            "goddess_element": self.goddess_element,
            "stats": {key: line.to_dict() for key, line in self.stats.items()},
            "hp": self.hp.to_dict(),
            "speed": self.speed.to_dict(),
            "range": self.range.to_dict(),
            "skills": {slug: line.to_dict() for slug, line in self.skills.items()},
            "attacks": [a.to_dict() for a in self.attacks],
            "defence": self.defence.to_dict(),
            "opponents": {
                "graze": total(self.opponents_graze),
                "graze_parts": as_dicts(self.opponents_graze),
                "danmaku_dodge": total(self.opponents_danmaku_dodge),
                "danmaku_dodge_parts": as_dicts(self.opponents_danmaku_dodge),
            },
            "spell_power": self.spell_power.to_dict(),
            "spellcards": self.spellcards.to_dict(),
            "drunkenness": self.drunkenness.to_dict(),
            "status_effects": [s.to_dict() for s in self.status_effects],
            "can_act": self.can_act,
            "passives": [p.to_dict() for p in self.passives],
            "warmness": {"total": total(self.warmness), "contributions": as_dicts(self.warmness)},
            "yen": self.yen,
            "inventory": [dict(i) for i in self.inventory],
            "house_rules": dict(self.house_rules),
            "problems": [p.to_dict() for p in self.problems],
            "dolls": self.dolls.to_dict() if self.dolls else None,
        }


# --------------------------------------------------------------------------- derivation


def derive_sheet(
    draft: CharacterDraft,
    rules: HouseRules = DEFAULT_HOUSE_RULES,
    catalog: Catalog | None = None,
) -> Sheet:
    """The full sheet for ``draft`` under ``rules``.

    Raises :class:`SheetError` only when the draft names things that do not exist (or no
    shot-type, race, profession or element at all); other rule problems (19 bonus points, a
    second manipulation ...) still produce a sheet, listed in ``Sheet.problems``, so the
    builder page can preview while the player fixes them.
    """
    cat = catalog or get_catalog()
    violations = validate(draft, rules, cat)
    stop = blocking(violations)
    if stop:
        raise SheetError(stop)
    assert draft.shot_type and draft.race and draft.profession and draft.element  # noqa: S101
    shot = cat.shot_types[draft.shot_type]
    race = cat.races[draft.race]
    profession = cat.professions[draft.profession]
    abilities = [cat.abilities[slug] for slug in draft.abilities]
    effects = gather_effects(draft, cat, shot, race, profession, abilities, rules)

    fear = "fear" in draft.status_effects
    level = DrunkLevel.SOBER if fear else DrunkLevel(draft.drunkenness)
    drunk = modifiers(level, race.slug, profession.slug, cat)
    if fear and draft.drunkenness != DrunkLevel.SOBER:
        drunk = _with_note(drunk, "Fear: drunkenness drops to sober.")

    stats = _stats(draft, shot, race, effects, drunk, rules)
    hp = _hit_points(draft, shot, effects)
    speed = _speed(draft, shot, race, effects, drunk)
    range_ = _sub_stat(draft, "range", "Range", shot.name, shot.range, effects)
    options = _options_bonus(draft.spell_power, rules)
    skills = _skills(draft, cat, stats, effects, drunk, rules)
    goddess = draft.goddess_element if profession.needs_goddess_element else None
    fight = AttackContext(
        stats["pwr"].total, stats["int"].total, range_.total, effects, drunk, options, rules
    )
    attacks = derive_attacks(draft, cat, fight, goddess)
    statuses = tuple(
        Passive("status_effect", cat.status_effects[s].name, cat.status_effects[s].text)
        for s in draft.status_effects
    )
    return Sheet(
        name=draft.name,
        level=draft.level,
        shot_type=shot,
        race=race,
        profession=profession,
        element=draft.element,
        goddess_element=goddess,
        stats=stats,
        hp=hp,
        speed=speed,
        range=range_,
        skills=skills,
        attacks=attacks,
        defence=_defence(stats, effects, drunk, rules),
        opponents_graze=effects.parts("enemy_graze"),
        opponents_danmaku_dodge=effects.parts("enemy_danmaku_dodge"),
        spell_power=_spell_power(draft, stats, effects, options, rules),
        spellcards=_spellcards(draft, profession, stats, effects, rules),
        drunkenness=drunk,
        status_effects=statuses,
        can_act=not effects.has("cannot_act"),
        passives=_passives(draft, shot, race, profession, abilities, cat, rules),
        warmness=tuple(
            Contribution("item", cat.items[s].name, cat.items[s].warmness or 0)
            for s, stack in draft.inventory.items()
            if stack.equipped and cat.items[s].warmness is not None
        ),
        yen=draft.yen,
        inventory=tuple(
            {
                "slug": slug,
                "name": cat.items[slug].name,
                "category": cat.items[slug].category,
                "quantity": stack.quantity,
                "equipped": stack.equipped,
            }
            for slug, stack in draft.inventory.items()
        ),
        house_rules=rules.changed(),
        problems=tuple(violations),
        dolls=_doll_line(draft, profession, stats, hp.maximum.total),
    )


def _doll_line(
    draft: CharacterDraft, profession: Profession, stats: dict[str, StatLine], hp: int
) -> DollLine | None:
    if profession.slug != "doll_master":
        return None
    count = sum(s.quantity for slug, s in draft.inventory.items() if slug == "doll")
    own = {key: line.total for key, line in stats.items()}
    return DollLine(
        count=count,
        unconnected=min(draft.unconnected_dolls, count),
        stats=own,
        hp=hp,
        unconnected_stats={key: ceil_div(value, 2) for key, value in own.items()},
        unconnected_hp=ceil_div(hp, 2),
    )


def _with_note(drunk: DrunkModifiers, note: str) -> DrunkModifiers:
    return replace(drunk, notes=(*drunk.notes, note))


def _temporary(draft: CharacterDraft, target: str) -> list[Contribution]:
    return temporary_parts(draft, target)


def _stats(
    draft: CharacterDraft,
    shot: ShotType,
    race: Race,
    effects: EffectsInPlay,
    drunk: DrunkModifiers,
    rules: HouseRules,
) -> dict[str, StatLine]:
    out: dict[str, StatLine] = {}
    for key in MAIN_STATS:
        parts = [Contribution("shot_type", shot.name, shot.stats[key])]
        if race.stats.get(key):
            parts.append(Contribution("race", race.name, race.stats[key]))
        parts.extend(effects.parts("stat", stat=key))
        if draft.bonus_points.get(key):
            parts.append(Contribution("bonus_points", "Bonus points", draft.bonus_points[key]))
        parts.extend(_temporary(draft, key))
        value = total(parts)
        roll = [Contribution("drunkenness", drunk.name, drunk.stat(key))] if drunk.stat(key) else []
        out[key] = StatLine(
            key, STAT_NAMES[key], tuple(parts), Check(value, pool_size(value, rules), tuple(roll))
        )
    return out


def _sub_stat(
    draft: CharacterDraft, key: str, name: str, label: str, base: int, effects: EffectsInPlay
) -> SubStat:
    parts = [Contribution("shot_type", label, base), *effects.parts(key), *_temporary(draft, key)]
    return SubStat(key, name, tuple(parts))


def _hit_points(draft: CharacterDraft, shot: ShotType, effects: EffectsInPlay) -> HitPoints:
    maximum = SubStat("hp_max", "HP", tuple(hp_max_parts(draft, shot, effects)))
    current = maximum.total if draft.current_hp is None else draft.current_hp
    # A stored value out of range (a maximum lowered since it was saved, by an injured charge
    # or an item taken off; or a sheet saved before the bounds were checked) counts as the
    # nearest bound: a battle or a check never starts from HP the rules do not allow. The
    # sheet's problems still name the stored value, so the player fixes it.
    current = min(max(current, HP_FLOOR), maximum.total)
    return HitPoints(maximum, current)


def _speed(
    draft: CharacterDraft, shot: ShotType, race: Race, effects: EffectsInPlay, drunk: DrunkModifiers
) -> SubStat:
    parts = [Contribution("shot_type", shot.name, shot.speed)]
    if race.speed:
        parts.append(Contribution("race", race.name, race.speed))
    parts.extend(effects.parts("speed"))
    if drunk.speed:
        parts.append(Contribution("drunkenness", f"Kaze Sake ({drunk.name})", drunk.speed))
    parts.extend(_temporary(draft, "speed"))
    return SubStat("speed", "Speed", tuple(parts))


def _options_bonus(held: int | None, rules: HouseRules) -> int:
    """RULINGS 8: +1 per ``option_spell_power_step`` spell power held, at most the maximum."""
    if not held or held < 0:
        return 0
    return min(held // rules.option_spell_power_step, rules.option_max_bonus)


def _deck_extras(
    effects: EffectsInPlay, rules: HouseRules
) -> tuple[tuple[Contribution, ...], tuple[Contribution, ...]]:
    """Librarian (+5 cards, +1 kind) and a held Grimoire (the same): both count (house rule
    ``librarian_grimoire_stack``, on by default), or only the first when it is off."""
    cards, kinds = effects.parts("deck_cards"), effects.parts("deck_kinds")
    if rules.librarian_grimoire_stack:
        return cards, kinds
    return cards[:1], kinds[:1]


def _skills(
    draft: CharacterDraft,
    cat: Catalog,
    stats: dict[str, StatLine],
    effects: EffectsInPlay,
    drunk: DrunkModifiers,
    rules: HouseRules,
) -> dict[str, SkillLine]:
    out: dict[str, SkillLine] = {}
    for slug, skill in cat.skills.items():
        base = ceil_div(sum(stats[s].total for s in skill.base_stats), len(skill.base_stats))
        points = draft.skill_points.get(slug, 0)
        bonuses = list(effects.parts("skill", skill=slug))
        for focus in effects.of("skill_focus"):
            if draft.ability_choices.get(focus.origin) == slug:
                bonuses.append(Contribution(focus.source, focus.label, focus.effect.amount))
        situational = tuple(
            Contribution(a.source, f"{a.label} ({a.effect.situational})", a.effect.amount)
            for a in effects.situational
            if a.effect.kind == "skill" and a.effect.skill == slug
        )
        drink = drunk.mental_skills if skill.kind == "mental" else drunk.physical_skills
        value = base + points
        # Ruling, house rule ``skill_bonus_to_roll``: bonuses are added to the roll (on by
        # default); off, they raise the value the dice pool comes from.
        roll = list(bonuses) if rules.skill_bonus_to_roll else []
        if not rules.skill_bonus_to_roll:
            value += sum(b.amount for b in bonuses)
        if drink:
            roll.append(Contribution("drunkenness", drunk.name, drink))
        out[slug] = SkillLine(
            slug=slug,
            name=skill.name,
            kind=skill.kind,
            formula=skill.formula,
            base=base,
            points=points,
            bonuses=tuple(bonuses),
            situational=situational,
            check=Check(value, pool_size(value, rules), tuple(roll)),
        )
    return out


def _defence(
    stats: dict[str, StatLine], effects: EffectsInPlay, drunk: DrunkModifiers, rules: HouseRules
) -> Defence:
    def check(stat: str, *kinds: str) -> Check:
        parts = [p for kind in kinds for p in effects.parts(kind)]
        if drunk.stat(stat):
            parts.append(Contribution("drunkenness", drunk.name, drunk.stat(stat)))
        value = stats[stat].total
        return Check(value, pool_size(value, rules), tuple(parts))

    notes = [
        "Physical attacks: the attacker's power against your charisma (versus check).",
        f"Danmaku: an insight roll against {rules.danmaku_dodge_target} dodges; "
        f"then an insight roll against {rules.graze_target} to graze.",
    ]
    if drunk.dodge_rolls != 1:
        notes.append(f"Drunken Master: {drunk.dodge_rolls} rolls to dodge each attack.")
    return Defence(
        dodge_rolls=drunk.dodge_rolls,
        physical_dodge=check("cha", "dodge"),
        danmaku_dodge=check("ins", "dodge", "danmaku_dodge"),
        danmaku_dodge_target=rules.danmaku_dodge_target,
        graze=check("ins", "graze"),
        graze_target=rules.graze_target,
        damage_reduction=effects.parts("damage_reduction"),
        minimum_damage=MINIMUM_DAMAGE,
        status_resistance=effects.parts("status_resistance"),
        attackers_physical_to_hit=effects.parts("enemy_physical_to_hit"),
        notes=tuple(notes),
    )


def _spell_power(
    draft: CharacterDraft,
    stats: dict[str, StatLine],
    effects: EffectsInPlay,
    options: int,
    rules: HouseRules,
) -> SpellPower:
    per_turn = (
        Contribution("stat", "Insight", stats["ins"].total),
        *effects.parts("spell_power_per_turn"),
    )
    return SpellPower(
        start=rules.starting_spell_power,
        cap=rules.spell_power_cap,
        held=draft.spell_power,
        per_turn_parts=per_turn,
        multipliers=effects.parts("spell_power_multiplier"),
        options_bonus=options,
    )


def _spellcards(
    draft: CharacterDraft,
    profession: Profession,
    stats: dict[str, StatLine],
    effects: EffectsInPlay,
    rules: HouseRules,
) -> Spellcards:
    efficiency = None
    if effects.has("spellcard_efficiency"):
        efficiency = (rules.efficiency_discount, rules.efficiency_floor)
    return Spellcards(
        deck=deck_limits(draft.level, *_deck_extras(effects, rules)),
        dodge_difficulty=max(stats["int"].total, stats["pwr"].total),
        to_hit=(*effects.parts("spellcard_to_hit"), *effects.parts("to_hit")),
        efficiency=efficiency,
        min_cost=rules.spellcard_min_cost,
        bomb_multiplier=rules.bomb_multiplier,
        special=profession.spellcards,
    )


def _passives(
    draft: CharacterDraft,
    shot: ShotType,
    race: Race,
    profession: Profession,
    abilities: list[Ability],
    cat: Catalog,
    rules: HouseRules = DEFAULT_HOUSE_RULES,
) -> tuple[Passive, ...]:
    out = [Passive("shot_type", shot.passive.name, shot.passive.text)]
    out.extend(Passive("race", t.name, t.text) for t in race.all_traits)
    out.extend(
        Passive("profession", f"{profession.name}: {f.name}", f.text)
        for f in profession_features(profession, draft.level)
    )
    for ability in abilities:
        name = ability.name
        chosen = draft.ability_choices.get(ability.slug)
        if ability.choice == "skill" and chosen is not None and chosen in cat.skills:
            name = f"{name} ({cat.skills[chosen].name})"
        out.append(Passive("ability", name, ability.text))
    if draft.guardian_charge_injured and profession.needs_charge:
        lost = (
            "extra HP, protection spellcards"
            if rules.guardian_hp_needs_safe_charge
            else "protection spellcards; house rule: she keeps her extra HP"
        )
        out.append(
            Passive(
                "profession",
                "Charge injured",
                f"Guardian powers ({lost}) are lost until the charge is no longer injured; "
                "armor can still be worn.",
            )
        )
    return tuple(out)
