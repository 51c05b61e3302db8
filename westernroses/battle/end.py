"""The end of a battle ("Spell-meter", "Throwing Weapons").

* "any remaining points in your spell-meter disappear"; drawn cards stay in hand.
* "If you were on the winning team for the battle then any spellcards that were used during
  the battle are shuffled back into your spelldeck."
* Unclaimed dropped power and lasting card effects vanish with the battle (ruling).
* "any character on the winning side that has used thrown weapons can choose to roll a certain
  number of dice ... to determine how many of those weapons she has retrieved": the dice total,
  at most what she threw; a Combat-Maid retrieves twice as many; needles never come back.
"""

from __future__ import annotations

from typing import Final

from westernroses.battle.context import Ctx
from westernroses.battle.state import Combatant, scan
from westernroses.dice import DiceExpression
from westernroses.spellcards.deck import shuffle_back
from westernroses.words import N_, Words

#: Combat-Maid level 1: "retrieve twice as many used thrown weapons".
COMBAT_MAID_RECOVERY: Final = 2


def standing_sides(ctx: Ctx) -> set[str]:
    """Sides that still have someone able to fight (dolls and familiars alone do not keep a
    side in: they fight for someone who has fallen, ruling)."""
    return {
        c.side
        for c in scan(ctx.state.combatants)
        if c.conscious and c.position is not None and c.kind not in ("doll", "familiar")
    }


def _two_sides_standing(ctx: Ctx) -> bool:
    """Whether :func:`standing_sides` has two or more sides (stops at the second one: asked
    after every action)."""
    first = None
    for c in scan(ctx.state.combatants):
        if c.position is not None and c.kind not in ("doll", "familiar") and c.conscious:
            if first is None:
                first = c.side
            elif c.side != first:
                return True
    return False


def check_end(ctx: Ctx) -> bool:
    """End the battle when at most one side can still fight; True if it has ended."""
    if ctx.state.phase != "active":
        return ctx.state.phase == "ended"
    if _two_sides_standing(ctx):  # the common answer, found without looking at everyone
        return False
    sides = standing_sides(ctx)
    if len(sides) <= 1:
        finish(ctx, next(iter(sides)) if sides else None, "one side left standing")
        return True
    return False


def finish(ctx: Ctx, winner: str | None, reason: str) -> None:
    state = ctx.state
    state.phase = "ended"
    state.winner = winner
    state.ended_reason = reason
    state.current = None
    state.pending = []
    ctx.emit("battle_ended", winner=winner, reason=reason, round=state.round)
    for c in state.combatants.values():
        c.actions_left = 0
        if c.meter:
            ctx.emit("meter_cleared", combatant=c.id, points=c.meter)
            c.meter = 0
        if winner is not None and c.side == winner and c.deck.discard:
            count = len(c.deck.discard)
            c.deck = shuffle_back(c.deck, ctx.rng)
            ctx.emit("cards_shuffled_back", combatant=c.id, count=count)
    for drop in state.drops:
        ctx.emit("power_dissipated", drop=drop.id, amount=drop.amount)
    state.drops = []
    state.field_effects = []


def can_recover(ctx: Ctx, c: Combatant) -> bool:
    """A standing winner who threw recoverable weapons and has not rolled for them yet: the
    fallen (dead or unconscious) cannot go looking for them (issue 9)."""
    if ctx.state.phase != "ended" or c.side != ctx.state.winner or c.id in ctx.state.recovered:
        return False
    if not c.conscious:
        return False
    return any(
        used and (a := c.profile.attack(slug)) is not None and a.recovery_dice
        for slug, used in c.thrown_used.items()
    )


def recover_weapons(ctx: Ctx, c: Combatant) -> None:
    ctx.state.recovered.append(c.id)
    for slug, used in sorted(c.thrown_used.items()):
        attack = c.profile.attack(slug)
        if not used or attack is None or not attack.recovery_dice:
            continue
        rolled = ctx.damage(
            c.id,
            Words(N_("recover %(name)s"), {"name": attack.name}),
            DiceExpression(attack.recovery_dice),
            [],
        )
        factor = COMBAT_MAID_RECOVERY if "combat_maid" in c.profile.traits else 1
        found = min(used, rolled.total * factor)
        c.ammo[slug] = c.ammo.get(slug, 0) + found
        ctx.emit("weapons_recovered", combatant=c.id, attack=slug, used=used, recovered=found)
    c.thrown_used = {}
