"""Taking damage, healing, and what low HP does ("Death and Dying", "Damage Rolls", items).

Order of modifiers on damage that hits (ruling, docs/battle.md): the rolled damage is
multiplied by the element table (×2 / ×½, rounded up, "Elements Affinities"), halved by a
Guardian's Shield (rounded up), then reduced by Resilience (5), armour (3) and the Shrine Maiden
outfit (1); when any reduction applies, a successful attack still deals at least 1 ("You still
take at least 1 damage from any successful attack").

Thresholds: below ¼ of max HP (rounded up) a character is mortally wounded and makes a will
check or falls unconscious; below 0 she dies; at −100 she is utterly destroyed. Dolls are
"incapacitated" below 0 (they have no mortal wounds). A fairy's Short-term Memory stores the
damage instead, to be settled at the start of her next turn.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Final

from westernroses.battle import spell_power
from westernroses.battle.context import Ctx
from westernroses.battle.state import Combatant, Effect, Json, peek, scan
from westernroses.battle.stats import hp_max, mortal_threshold, mortally_wounded, will
from westernroses.elements import Element, damage_multiplier
from westernroses.words import N_, Words

#: "Utter Destruction – At -100 your body is completely and utterly destroyed".
DESTROYED_AT: Final = -100
MINIMUM_DAMAGE: Final = 1


@functools.lru_cache(maxsize=64)
def _factor(attack: str, defender: str) -> Fraction:
    """The elements' damage multiplier by their names (every hit asks; the enum lookups and
    the fraction cost more than the rule)."""
    return damage_multiplier(Element(attack), Element(defender))


def modified(
    ctx: Ctx, defender: Combatant, raw: int, element: str | None, *, reducible: bool = True
) -> tuple[int, list[Json]]:
    """Damage after the defender's element, Shield and reductions, with each step shown."""
    steps: list[Json] = []
    amount = max(raw, 0)
    if element is not None and defender.profile.element is not None:
        factor = _factor(element, defender.profile.element)
        if factor != 1:
            value = amount * factor
            amount = -(-value.numerator // value.denominator)
            steps.append({"step": "element", "factor": str(factor), "damage": amount})
    if defender.has("shield"):
        amount = -(-amount // 2)
        steps.append({"step": "shield", "factor": "1/2", "damage": amount})
    reduction = defender.profile.damage_reduction if reducible else 0
    if reduction and amount > 0:
        amount = _reduce(amount, reduction, defender.profile.reduction_parts, steps)
    return amount, steps


def _reduce(
    amount: int, reduction: int, parts: tuple[tuple[str, int, bool], ...], steps: list[Json]
) -> int:
    """``amount`` less ``reduction``, at least 1, with a step for each of its ``parts`` (one
    step without a name when the parts do not make it up: an NPC's single number) and one for
    the minimum when it is what remains."""
    named = [(label, value) for label, value, _ in parts]
    if sum(value for _, value in named) != reduction:
        named = [("", reduction)]
    left = amount
    for label, value in named:
        left = max(left - value, 0)
        step: Json = {"step": "reduction", "amount": -value, "damage": left}
        if label:
            step["label"] = label
        steps.append(step)
    if left < MINIMUM_DAMAGE:
        left = MINIMUM_DAMAGE
        steps.append({"step": "minimum", "damage": left})
    return left


def not_from_an_attack(c: Combatant, raw: int) -> tuple[int, list[Json]]:
    """Damage that no attack deals (a knockdown's impact): armour and the Shrine Maiden outfit
    reduce it like any other ("all damage"), to a minimum of 1; Resilience ("from all
    attacks"), elements and Shield do not."""
    amount = max(raw, 0)
    reduction = c.profile.any_damage_reduction
    if not reduction or amount <= 0:
        return amount, []
    steps: list[Json] = []
    parts = tuple(p for p in c.profile.reduction_parts if p[2])
    return _reduce(amount, reduction, parts, steps), steps


def take(ctx: Ctx, c: Combatant, amount: int, cause: str) -> None:
    """Damage that gets through. A fairy (Short-term Memory) keeps track of it instead."""
    if amount <= 0:
        return
    if "short_term_memory" in c.profile.traits and c.alive:
        c.memory += amount
        ctx.emit("damage_remembered", combatant=c.id, amount=amount, cause=cause, held=c.memory)
        return
    lose_hp(ctx, c, amount, cause)


def lose_hp(ctx: Ctx, c: Combatant, amount: int, cause: str) -> None:
    before = c.hp
    c.hp -= amount
    ctx.emit("damage", combatant=c.id, amount=amount, cause=cause, hp=c.hp)
    after_change(ctx, c, before, cause)


def heal(ctx: Ctx, c: Combatant, amount: int, cause: str) -> None:
    """ "You cannot be healed once you are dead, only resurrected." Never above max HP."""
    if not c.alive:
        ctx.emit("heal_failed", combatant=c.id, cause=cause, reason="dead")
        return
    before = c.hp
    c.hp = max(min(c.hp + max(amount, 0), hp_max(c)), c.hp)
    ctx.emit("heal", combatant=c.id, amount=c.hp - before, cause=cause, hp=c.hp)
    after_change(ctx, c, before, cause)


def after_change(ctx: Ctx, c: Combatant, before: int, cause: str) -> None:
    """Death, destruction, mortal wounds and waking up after HP moved."""
    if not c.alive:
        if c.life == "dead" and c.hp <= DESTROYED_AT:
            c.life = "destroyed"
            ctx.emit("destroyed", combatant=c.id)
        return
    if c.hp < 0:
        fall_dead(ctx, c)
        return
    threshold = mortal_threshold(c)
    if c.hp >= threshold and before < threshold:
        knocked = c.effect("unconscious")
        if knocked is not None and knocked.data.get("cause") != "drink":
            remove_unconscious(ctx, c, "healed above the mortal-wound level")
        return
    if c.kind == "doll" or not mortally_wounded(c) or before < threshold:
        return
    ctx.emit("mortally_wounded", combatant=c.id, hp=c.hp, below=threshold)
    if c.conscious:
        mortal_check(ctx, c)


def mortal_check(ctx: Ctx, c: Combatant) -> bool:
    """ "you must make a will check to continue functioning. If you fail, you fall
    unconscious." Returns whether she stays up."""
    dice, mods = will(c, ctx.rules)
    result = ctx.check(
        c.id, Words(N_("mortal wound (will)")), dice, mods, ctx.target("will"), stat="will"
    )
    if not result.success:
        knock_out(ctx, c, "mortal wounds")
        return False
    return True


def fall_dead(ctx: Ctx, c: Combatant) -> None:
    c.life = "destroyed" if c.hp <= DESTROYED_AT else "dead"
    c.actions_left = 0
    c.effects = [e for e in c.effects if e.kind not in ("unconscious",)]
    word = "incapacitated" if c.kind == "doll" else c.life
    ctx.emit("fell", combatant=c.id, state=word, hp=c.hp)
    spell_power.drop(ctx, c)


def knock_out(ctx: Ctx, c: Combatant, cause: str, rounds: int | None = None) -> None:
    """Unconscious: "unable to act for five full rounds"; she drops her spell power."""
    if not c.conscious:
        return
    data: Json = {"turns": 0, "cause": cause}
    if rounds is not None:
        data["rounds"] = rounds
    c.effects.append(Effect(ctx.state.new_id("e"), "unconscious", "Unconscious", None, data))
    c.actions_left = 0
    ctx.emit("unconscious", combatant=c.id, cause=cause)
    spell_power.drop(ctx, c)


def remove_unconscious(ctx: Ctx, c: Combatant, reason: str) -> None:
    c.effects = [e for e in c.effects if e.kind != "unconscious"]
    ctx.emit("woke", combatant=c.id, reason=reason)
    stand_clear(ctx, c)


def guardians_sync(ctx: Ctx) -> None:
    """Guardian: "If harm comes to this pony or object, the Guardian loses all
    Guardian-related powers ... until their charge is no longer injured" - her extra HP too
    (house rule ``guardian_hp_needs_safe_charge``, on by default): while her charge is below
    her maximum HP (or fallen) her own maximum is that much lower and her HP is capped to it;
    it comes back when the charge is healed."""
    for seen in scan(ctx.state.combatants):  # read only; a guardian to change is taken by id
        if not seen.profile.charge_hp or not seen.profile.charge:
            continue
        charge = peek(ctx.state.combatants, seen.profile.charge)
        harmed = (
            bool(ctx.rules.guardian_hp_needs_safe_charge)
            and charge is not None
            and (not charge.alive or charge.hp < hp_max(charge))
        )
        if harmed == seen.has("charge_injured"):
            continue
        g = ctx.c(seen.id)
        marked = g.effect("charge_injured")
        if harmed and marked is None:
            g.effects.append(
                Effect(
                    ctx.state.new_id("e"),
                    "charge_injured",
                    "Charge injured",
                    charge.id if charge else None,
                    {},
                )
            )
            ctx.emit("effect_added", combatant=g.id, kind="charge_injured", hp_max=hp_max(g))
            if g.hp > hp_max(g):
                g.hp = hp_max(g)
                ctx.emit("hp_capped", combatant=g.id, hp=g.hp)
        elif not harmed and marked is not None:
            g.effects.remove(marked)
            ctx.emit(
                "effect_ended",
                combatant=g.id,
                effect=marked.id,
                kind="charge_injured",
                reason="her charge is no longer injured",
            )


def stand_clear(ctx: Ctx, c: Combatant) -> None:
    """She gets up (wakes or is revived) where someone now stands: she moves to the nearest
    free open square, counted in straight steps; between equals the first in reading order
    (top row first, left to right), and the GM may move her elsewhere (``gm_move``). Ruling
    (issue 9): "you never stop on someone else's square" holds for getting up too."""
    here = c.position
    if here is None or not c.conscious:
        return
    taken = {
        o.position
        for o in ctx.state.combatants.values()
        if o.id != c.id and o.conscious and o.position is not None
    }
    if here not in taken:
        return
    arena = ctx.state.arena
    free = [
        (x, y)
        for y in range(arena.height)
        for x in range(arena.width)
        if arena.open((x, y)) and (x, y) not in taken
    ]
    if not free:
        return
    best = min(free, key=lambda sq: (abs(sq[0] - here[0]) + abs(sq[1] - here[1]), sq[1], sq[0]))
    c.position = best
    ctx.emit("moved", combatant=c.id, frm=list(here), to=list(best), reason="got up")
