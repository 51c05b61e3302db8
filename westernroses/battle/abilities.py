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
* ``activate_doll`` / ``deactivate_doll`` / ``command_dolls`` - Doll Master: bring a doll out
  for 20 power (an action) onto a square next to her; put one away (free); give every active
  doll an action (one of her actions).
* ``familiar_teleport`` - a familiar "can also teleport to you for the cost of 20 power" from
  her own pool, to a square next to her summoner (an action, ruling).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from westernroses.battle import damage, fog, reactions, spell_power, status, summons
from westernroses.battle.arena import Square, manhattan
from westernroses.battle.context import Ctx
from westernroses.battle.errors import IllegalAction
from westernroses.battle.state import Combatant, scan
from westernroses.battle.stats import reach_stat, stat_roll
from westernroses.dice import DiceExpression
from westernroses.words import N_, Words

SHRINE_HEAL_DICE: Final = 2
LIGHTNING_DICE: Final = 4


@dataclass(frozen=True, slots=True)
class AbilityRule:
    """``target``: combatant | ally_or_self | near_square | own_doll | owner_square | none."""

    slug: str
    name: str  # an English message id (N_), translated where it is shown
    trait: str
    uses: int | None  # per battle; None = unlimited
    target: str
    free: bool = False
    spell_power: int = 0


ABILITIES: Final = {
    a.slug: a
    for a in (
        AbilityRule(
            "shrine_heal", N_("Shrine Maiden's healing"), "shrine_maiden", 2, "ally_or_self"
        ),
        AbilityRule("lunatic_gaze", N_("Lunatic Gaze"), "lunatic_gaze", None, "combatant"),
        AbilityRule("light_flash", N_("Flash of light"), "manipulation_of_light", None, "none"),
        AbilityRule(
            "lightning", N_("Lightning bolt"), "manipulation_of_electricity", 1, "combatant"
        ),
        AbilityRule(
            "activate_doll",
            N_("Activate a doll"),
            "doll_master",
            None,
            "near_square",
            spell_power=summons.DOLL_COST,
        ),
        AbilityRule(
            "deactivate_doll", N_("Deactivate a doll"), "doll_master", None, "own_doll", free=True
        ),
        AbilityRule("command_dolls", N_("Command the dolls"), "doll_master", None, "none"),
        AbilityRule(
            "familiar_teleport",
            N_("Teleport to the summoner"),
            "familiar",
            None,
            "owner_square",
            spell_power=summons.FAMILIAR_TELEPORT,
        ),
    )
}


def _ready(ctx: Ctx, c: Combatant, rule: AbilityRule) -> bool:
    if rule.slug == "activate_doll":
        return bool(summons.inactive(ctx, c))
    if rule.slug == "command_dolls":
        return bool(summons.active(ctx, c))
    return True


@functools.lru_cache(maxsize=256)
def _by_traits(traits: tuple[str, ...]) -> tuple[AbilityRule, ...]:
    """The abilities her traits give, in :data:`ABILITIES` order (a profile's traits never
    change in battle; legal actions ask on every call)."""
    return tuple(a for a in ABILITIES.values() if a.trait in traits)


def forget() -> None:
    """Forget the abilities remembered per set of traits (``caches.clear``)."""
    _by_traits.cache_clear()


def available(ctx: Ctx, c: Combatant) -> list[AbilityRule]:
    return [
        a
        for a in _by_traits(c.profile.traits)
        if (a.uses is None or c.battle_used.get(a.slug, 0) < a.uses)
        and c.spell_power >= a.spell_power
        and _ready(ctx, c, a)
    ]


def target_squares(ctx: Ctx, c: Combatant, rule: AbilityRule) -> list[Square]:
    """Squares the ability may aim at; never a fogged one for a player (``fog``)."""
    unseen = fog.blocks(ctx.state, c)
    return [s for s in _target_squares(ctx, c, rule) if s not in unseen]


def _target_squares(ctx: Ctx, c: Combatant, rule: AbilityRule) -> list[Square]:
    if c.position is None or rule.target == "none":
        return []
    if rule.target == "near_square":
        return summons.free_squares_near(ctx, c.position)
    if rule.target == "own_doll":
        return sorted(d.position for d in summons.active(ctx, c) if d.position is not None)
    if rule.target == "owner_square":
        owner = ctx.state.find(c.owner or "")
        return summons.free_squares_near(ctx, owner.position) if owner is not None else []
    limit = reach_stat(c)
    return sorted(
        o.position
        for o in scan(ctx.state.combatants)
        if o.alive
        and o.position is not None
        and manhattan(c.position, o.position) <= limit
        and (rule.target == "ally_or_self" or o.id != c.id)
    )


def use(ctx: Ctx, c: Combatant, slug: str, target: Square | None) -> None:
    rule = ABILITIES.get(slug)
    if rule is None or rule not in available(ctx, c):
        raise IllegalAction(f"{c.name} cannot use {slug!r} now")
    if rule.target == "none":
        if target is not None:
            raise IllegalAction("this ability takes no target")
    elif target is None or target not in target_squares(ctx, c, rule):
        raise IllegalAction("choose one of the squares this ability can reach")
    c.battle_used[slug] = c.battle_used.get(slug, 0) + 1
    ctx.emit(
        "ability",
        combatant=c.id,
        ability=slug,
        name=rule.name,
        target=None if target is None else list(target),
    )
    if rule.spell_power:
        spell_power.change(ctx, c, -rule.spell_power, rule.name)
    _EFFECTS[slug](ctx, c, target)
    reactions.drain(ctx)


def _victim(ctx: Ctx, square: Square | None) -> Combatant:
    return next(o for o in ctx.state.combatants.values() if o.alive and o.position == square)


def _shrine_heal(ctx: Ctx, c: Combatant, target: Square | None) -> None:
    rolled = ctx.damage(
        c.id, Words(N_("Shrine Maiden's healing")), DiceExpression(SHRINE_HEAL_DICE), []
    )
    damage.heal(ctx, _victim(ctx, target), rolled.total, "Shrine Maiden's healing")


def _gaze(ctx: Ctx, c: Combatant, target: Square | None) -> None:
    status.inflict(ctx, _victim(ctx, target), "insanity", source=c.id)


def _flash(ctx: Ctx, c: Combatant, target: Square | None) -> None:
    del target
    if c.position is None:
        return
    limit = reach_stat(c)
    for o in list(ctx.state.combatants.values()):
        if o.id == c.id or not o.conscious or o.position is None or o.kind == "doll":
            continue
        if manhattan(c.position, o.position) > limit or fog.unseen_by(ctx.state, c, o):
            continue  # a player's flash does not reach into fog (``fog``)
        value, dice, mods = stat_roll(o, "cha", ctx.rules)
        result = ctx.check(
            o.id,
            Words(N_("reflex save (charisma)")),
            dice,
            [*mods, ("Hardy", o.profile.status_resistance)],
            ctx.target("status_save"),
            stat="cha",
            value=value,
        )
        if not result.success:
            status.inflict(ctx, o, "blind", source=c.id, turns=1)


def _lightning(ctx: Ctx, c: Combatant, target: Square | None) -> None:
    victim = _victim(ctx, target)
    value, dice, mods = stat_roll(victim, "cha", ctx.rules)
    result = ctx.check(
        victim.id,
        Words(N_("dodge lightning (charisma)")),
        dice,
        mods,
        ctx.target("status_save"),
        stat="cha",
        value=value,
    )
    if result.success:
        ctx.emit("dodged", attacker=c.id, defender=victim.id, name="Lightning bolt")
        return
    rolled = ctx.damage(c.id, Words(N_("Lightning bolt")), DiceExpression(LIGHTNING_DICE), [])
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
    points = spell_power.METER_DAMAGED if amount else spell_power.METER_HIT_NO_DAMAGE
    spell_power.meter(ctx, victim, points, "hit by lightning")


def _activate(ctx: Ctx, c: Combatant, target: Square | None) -> None:
    assert target is not None  # noqa: S101 - checked by use()
    summons.activate(ctx, c, summons.inactive(ctx, c)[0], target)


def _deactivate(ctx: Ctx, c: Combatant, target: Square | None) -> None:
    doll = next(d for d in summons.active(ctx, c) if d.position == target)
    summons.deactivate(ctx, c, doll, "put away")


def _command(ctx: Ctx, c: Combatant, target: Square | None) -> None:
    del target
    summons.command(ctx, c, 1)


def _teleport(ctx: Ctx, c: Combatant, target: Square | None) -> None:
    assert target is not None and c.position is not None  # noqa: S101 - checked by use()
    ctx.emit("moved", combatant=c.id, frm=list(c.position), to=list(target), reason="teleport")
    c.position = target


_EFFECTS: Final[dict[str, Callable[[Ctx, Combatant, Square | None], None]]] = {
    "shrine_heal": _shrine_heal,
    "lunatic_gaze": _gaze,
    "light_flash": _flash,
    "lightning": _lightning,
    "activate_doll": _activate,
    "deactivate_doll": _deactivate,
    "command_dolls": _command,
    "familiar_teleport": _teleport,
}
