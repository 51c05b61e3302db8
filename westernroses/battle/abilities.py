"""Abilities that take an action in battle ("Use an ability – If you have a race or occupation
ability that requires activation, it requires an action").

* ``shrine_heal`` - Shrine Maiden: "heal a target for 2d at will twice per day" (ruling: any
  combatant within her range stat, herself included; twice per battle).
* ``lunatic_gaze`` - moon hare: "the victim ... make[s] a will save or gain[s] the insanity
  status effect" (ruling: one combatant within her range stat).
* ``light_flash`` - Manipulation of Light: "anypony who sees the flash must make a reflex
  save or become blind for a single turn" (ruling: everyone else within her range stat; the
  reflex save is charisma, the stat of "speed or finesse").
* ``lightning`` - Manipulation of Electricity: "once per day ... a single target who must make
  a charisma save to dodge or immediately take 4d6 damage" (ruling: within her range stat,
  once per battle).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from westernroses.battle import damage, reactions, spell_power, status
from westernroses.battle.arena import Square, manhattan
from westernroses.battle.context import Ctx
from westernroses.battle.errors import IllegalAction
from westernroses.battle.state import Combatant
from westernroses.battle.stats import reach_stat, stat_roll
from westernroses.dice import DiceExpression

SHRINE_HEAL_DICE: Final = 2
LIGHTNING_DICE: Final = 4


@dataclass(frozen=True, slots=True)
class AbilityRule:
    slug: str
    name: str
    trait: str
    uses: int | None  # per battle; None = unlimited
    aims: bool  # takes a target square (else: an area around her)
    self_allowed: bool


ABILITIES: Final = {
    a.slug: a
    for a in (
        AbilityRule("shrine_heal", "Shrine Maiden's healing", "shrine_maiden", 2, True, True),
        AbilityRule("lunatic_gaze", "Lunatic Gaze", "lunatic_gaze", None, True, False),
        AbilityRule("light_flash", "Flash of light", "manipulation_of_light", None, False, False),
        AbilityRule("lightning", "Lightning bolt", "manipulation_of_electricity", 1, True, False),
    )
}


def available(c: Combatant) -> list[AbilityRule]:
    return [
        a
        for a in ABILITIES.values()
        if a.trait in c.profile.traits and (a.uses is None or c.battle_used.get(a.slug, 0) < a.uses)
    ]


def target_squares(ctx: Ctx, c: Combatant, rule: AbilityRule) -> list[Square]:
    if not rule.aims or c.position is None:
        return []
    limit = reach_stat(c)
    return sorted(
        o.position
        for o in ctx.state.combatants.values()
        if o.alive
        and o.position is not None
        and manhattan(c.position, o.position) <= limit
        and (rule.self_allowed or o.id != c.id)
    )


def use(ctx: Ctx, c: Combatant, slug: str, target: Square | None) -> None:
    rule = ABILITIES.get(slug)
    if rule is None or rule not in available(c):
        raise IllegalAction(f"{c.name} cannot use {slug!r} now")
    victim: Combatant | None = None
    if rule.aims:
        if target is None or target not in target_squares(ctx, c, rule):
            raise IllegalAction("choose a combatant within her range")
        victim = next(o for o in ctx.state.combatants.values() if o.alive and o.position == target)
    elif target is not None:
        raise IllegalAction("this ability takes no target")
    c.battle_used[slug] = c.battle_used.get(slug, 0) + 1
    ctx.emit(
        "ability",
        combatant=c.id,
        ability=slug,
        name=rule.name,
        target=None if victim is None else victim.id,
    )
    _EFFECTS[slug](ctx, c, victim)
    reactions.drain(ctx)


def _shrine_heal(ctx: Ctx, c: Combatant, victim: Combatant | None) -> None:
    assert victim is not None  # noqa: S101 - aimed ability
    rolled = ctx.damage(c.id, "Shrine Maiden's healing", DiceExpression(SHRINE_HEAL_DICE), [])
    damage.heal(ctx, victim, rolled.total, "Shrine Maiden's healing")


def _gaze(ctx: Ctx, c: Combatant, victim: Combatant | None) -> None:
    assert victim is not None  # noqa: S101
    status.inflict(ctx, victim, "insanity", source=c.id)


def _flash(ctx: Ctx, c: Combatant, victim: Combatant | None) -> None:
    del victim
    if c.position is None:
        return
    limit = reach_stat(c)
    for o in list(ctx.state.combatants.values()):
        if o.id == c.id or not o.conscious or o.position is None:
            continue
        if manhattan(c.position, o.position) > limit or o.kind == "doll":
            continue
        value, dice, mods = stat_roll(o, "cha", ctx.rules)
        result = ctx.check(
            o.id,
            "reflex save (charisma)",
            dice,
            [*mods, ("Hardy", o.profile.status_resistance)],
            ctx.target("status_save"),
            stat="cha",
            value=value,
        )
        if not result.success:
            status.inflict(ctx, o, "blind", source=c.id, turns=1)


def _lightning(ctx: Ctx, c: Combatant, victim: Combatant | None) -> None:
    assert victim is not None  # noqa: S101
    value, dice, mods = stat_roll(victim, "cha", ctx.rules)
    result = ctx.check(
        victim.id,
        "dodge lightning (charisma)",
        dice,
        mods,
        ctx.target("status_save"),
        stat="cha",
        value=value,
    )
    if result.success:
        ctx.emit("dodged", attacker=c.id, defender=victim.id, name="Lightning bolt")
        return
    rolled = ctx.damage(c.id, "Lightning bolt", DiceExpression(LIGHTNING_DICE), [])
    amount, steps = damage.modified(ctx, victim, rolled.total, None)
    ctx.emit(
        "hit",
        attacker=c.id,
        defender=victim.id,
        name="Lightning bolt",
        raw=rolled.total,
        steps=steps,
        damage=amount,
        element=None,
    )
    damage.take(ctx, victim, amount, "Lightning bolt")
    spell_power.meter(ctx, victim, spell_power.METER_DAMAGED if amount else 1, "hit by lightning")


_EFFECTS: Final[dict[str, Callable[[Ctx, Combatant, Combatant | None], None]]] = {
    "shrine_heal": _shrine_heal,
    "lunatic_gaze": _gaze,
    "light_flash": _flash,
    "lightning": _lightning,
}
