"""Turn order, rounds and the start and end of turns ("Turn Order", RULINGS 11).

* Order: higher Speed first; combatants of equal Speed make versus rolls of Speed, re-rolled
  until the tie breaks (a group of three: the winner goes first, the others roll again).
* A combatant who joins later (a GM's reinforcement) is placed by her Speed; against each of
  equal Speed, in order, she rolls a versus and goes before the first one she beats (ruling).
* The order is fixed for the battle: fallen combatants keep their place (their timers and
  lasting cards still count their turns) but their turns pass without actions.
* "During your turn you are given 2 actions"; players end their own turns, and a turn ends by
  itself only when its combatant can no longer act (stunned, knocked out, killed).

Start of a turn, in order: timers counted at her turn start; her lasting cards trigger; an
unconscious combatant counts her turns (and rolls to wake from the sixth); spell power is
gained; a fairy settles the damage she remembers; a mortally wounded character rolls will;
then knockdown, stun, freeze, fear, insanity and berserk (``status.start_of_turn``).
"""

from __future__ import annotations

from typing import Final

from westernroses.battle import damage, reactions, spell_power, spellcasting, status, summons
from westernroses.battle.context import Ctx
from westernroses.battle.end import check_end
from westernroses.battle.state import Combatant
from westernroses.battle.stats import can_act, mortally_wounded, pool, speed
from westernroses.words import N_, Words

#: "During your turn you are given 2 actions."
ACTIONS_PER_TURN: Final = 2
#: Fairy Short-term Memory: "On a 1 or 2 you forget you even took damage".
FORGET_ON: Final = 2
#: A loop that never reaches an actor is a bug: every skipped turn counts down or rolls.
MAX_TURN_SKIPS: Final = 100_000


def _rank(ctx: Ctx, group: list[Combatant]) -> list[str]:
    """Order a tie group by versus rolls of Speed (RULINGS 11)."""
    remaining = list(group)
    out: list[str] = []
    while len(remaining) > 1:
        sides: list[tuple[str, int, list[tuple[str, int]]]] = [
            (c.id, pool(speed(c), ctx.rules), []) for c in remaining
        ]
        result = ctx.versus(
            Words(N_("turn order: speed %(speed)s tie"), {"speed": speed(remaining[0])}), sides
        )
        winner = result.winner or remaining[0].id
        out.append(winner)
        remaining = [c for c in remaining if c.id != winner]
    out.extend(c.id for c in remaining)
    return out


def initiative(ctx: Ctx) -> list[str]:
    fighters = [
        c
        for c in ctx.state.combatants.values()
        if c.position is not None and c.alive and c.kind != "doll"  # dolls act on her actions
    ]
    by_speed: dict[int, list[Combatant]] = {}
    for c in fighters:
        by_speed.setdefault(speed(c), []).append(c)
    order: list[str] = []
    for value in sorted(by_speed, reverse=True):
        order += _rank(ctx, by_speed[value])
    ctx.emit("turn_order", order=order, speeds={cid: speed(ctx.c(cid)) for cid in order})
    return order


def insert(ctx: Ctx, c: Combatant) -> None:
    """Place a combatant who joins a running battle (ruling in the module docstring)."""
    state = ctx.state
    mine = speed(c)
    position = len(state.order)
    for index, other_id in enumerate(state.order):
        other = ctx.c(other_id)
        theirs = speed(other)
        if theirs < mine:
            position = index
            break
        if theirs == mine:
            result = ctx.versus(
                Words(N_("joining the turn order: speed %(speed)s tie"), {"speed": mine}),
                [(c.id, pool(mine, ctx.rules), []), (other.id, pool(theirs, ctx.rules), [])],
            )
            if result.winner == c.id:
                position = index
                break
    state.order.insert(position, c.id)
    if state.phase == "active" and position <= state.turn_index and state.current is not None:
        state.turn_index += 1
    ctx.emit("joined_turn_order", combatant=c.id, position=position, order=list(state.order))


def begin_turn(ctx: Ctx, c: Combatant) -> None:
    """Everything that happens at the start of ``c``'s turn; marks the turn over if lost."""
    state = ctx.state
    state.current = c.id
    state.turn_number += 1
    state.turn_started_at = ctx.at
    c.turn_used = {}
    c.actions_left = 0
    ctx.emit("turn_started", combatant=c.id, round=state.round, turn=state.turn_number, at=ctx.at)
    status.tick(ctx, c.id, "start")
    spellcasting.trigger_fields(ctx, c.id)
    if not c.alive or c.position is None:
        _lose(ctx, c, "down" if c.position is not None else "off the battlefield")
        return
    if not status.unconscious_turn(ctx, c):
        c.turn_used["over"] = 1
        return
    spell_power.turn_gain(ctx, c)
    if c.memory:
        _remember(ctx, c)
        if not c.conscious:
            c.turn_used["over"] = 1
            return
    if mortally_wounded(c) and not damage.mortal_check(ctx, c):
        c.turn_used["over"] = 1
        return
    if not status.start_of_turn(ctx, c):
        c.turn_used["over"] = 1
        return
    c.actions_left = ACTIONS_PER_TURN


def _lose(ctx: Ctx, c: Combatant, reason: str) -> None:
    ctx.emit("turn_lost", combatant=c.id, reason=reason)
    c.turn_used["over"] = 1


def _remember(ctx: Ctx, c: Combatant) -> None:
    """Short-term Memory: "roll a d6. On a 1 or 2 you forget you even took damage ...
    Otherwise, take all the damage you accrued over the last round." (before any action)"""
    held, c.memory = c.memory, 0
    value = ctx.die(c.id, "Short-term Memory", 6)
    if value <= FORGET_ON:
        ctx.emit("damage_forgotten", combatant=c.id, amount=held)
        return
    damage.lose_hp(ctx, c, held, "remembered damage")


def end_turn(ctx: Ctx) -> None:
    state = ctx.state
    cid = state.current
    if cid is None:
        return
    c = ctx.c(cid)
    c.actions_left = 0
    ctx.emit("turn_ended", combatant=cid, round=state.round, at=ctx.at)
    if c.profile.dolls:
        summons.end_of_turn(ctx, c)
    status.tick(ctx, cid, "end")
    spell_power.turn_ended(ctx, cid)
    if cid not in state.done:
        state.done.append(cid)
    state.current = None


def next_turn(ctx: Ctx) -> None:
    state = ctx.state
    if not state.order:
        return
    state.turn_index += 1
    if state.turn_index >= len(state.order):
        state.turn_index = 0
        state.round += 1
        state.done = []
        ctx.emit("round_started", round=state.round)
    begin_turn(ctx, ctx.c(state.order[state.turn_index]))


def turn_over(c: Combatant) -> bool:
    return bool(c.turn_used.get("over")) or not can_act(c)


def settle(ctx: Ctx) -> None:
    """Resolve what resolves by itself and move on until someone has a choice to make."""
    for _ in range(MAX_TURN_SKIPS):
        reactions.drain(ctx)
        if ctx.state.pending or check_end(ctx) or ctx.state.phase != "active":
            return
        current = ctx.state.current
        if current is not None and not turn_over(ctx.c(current)):
            return
        if current is not None:
            end_turn(ctx)
        next_turn(ctx)
    raise RuntimeError("no combatant could act for too long")  # pragma: no cover
