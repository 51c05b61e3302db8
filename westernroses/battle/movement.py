"""Where a combatant may move now: her speed, the arena, and the statuses that steer her.

"Move – Move a number of spaces less than or equal to your speed", orthogonally (RULINGS 9),
through allies but not enemies, never ending on someone standing (``arena`` for the costs).
A terrified combatant who failed her will check "must run as far as she can from the source
of her fear": only the reachable squares farthest from it, and only if they are farther than
where she stands. A berserk or taunted one moves only to get as close to her target as she
can ("simply try to move as close to the Guardian as they can"). A player's piece never
enters fog (``fog.blocks``): an unseen enemy must not shape her reach.
"""

from __future__ import annotations

import functools

from westernroses.battle import fog
from westernroses.battle.arena import Arena, Reach, Square, ends_near, manhattan, square_bits
from westernroses.battle.context import Ctx
from westernroses.battle.state import Combatant, scan
from westernroses.battle.stats import speed
from westernroses.battle.status import fleeing, fleeing_from, forced_target


def reach(ctx: Ctx, c: Combatant) -> dict[Square, int]:
    """Squares she may end a Move on, with their cost in spaces."""
    return dict(reach_listed(ctx, c)[0])


def reach_listed(ctx: Ctx, c: Combatant) -> Reach:
    """:func:`reach` and the Move option's ``reach`` list (``[{square, cost}]``, sorted).

    Read-only: an unsteered mover's answer is shared by every position with the same pieces
    near her (``arena.ends_near`` remembers it), so the search and the list are made once per
    change of positions."""
    here = c.position
    if here is None:
        return {}, []
    budget = speed(c)
    if c.kind == "doll":
        from westernroses.battle.summons import doll_speed

        budget = doll_speed(ctx, c, budget)
    # Only the pieces within her budget can change where she may go (``arena.ends_near``),
    # as bits of the arena's squares (``arena.square_bits``).
    arena = ctx.state.arena
    width = arena.width
    x, y = here
    enemies = standing = 0
    for o in scan(ctx.state.combatants):
        there = o.position
        if (
            there is None
            or abs(there[0] - x) + abs(there[1] - y) > budget
            or o.id == c.id
            or not o.conscious
        ):
            continue
        bit = 1 << (there[1] * width + there[0])
        standing |= bit
        if o.side != c.side:
            enemies |= bit
    if arena.fog and fog.blocks(ctx.state, c):
        enemies |= _fog_bits(arena)
    found, listed = ends_near(arena, here, budget, enemies, standing)
    steered = _steer(ctx, c, here, found)
    if steered is found:
        return found, listed
    return steered, [{"square": [x, y], "cost": cost} for (x, y), cost in sorted(steered.items())]


@functools.lru_cache(maxsize=64)
def _fog_bits(arena: Arena) -> int:
    return square_bits(arena, arena.fog)


def _steer(ctx: Ctx, c: Combatant, here: Square, found: dict[Square, int]) -> dict[Square, int]:
    if not c.effects:  # fear, berserk and taunts are effects: nothing steers her
        return found
    if fleeing(ctx, c):
        source = fleeing_from(ctx, c)
        if source is None or source.position is None or fog.unseen_by(ctx.state, c, source):
            return {}  # nothing on the board (or in sight) to run from: she cowers
        far = source.position
        best = max((manhattan(sq, far) for sq in found), default=-1)
        if best <= manhattan(here, far):
            return {}
        return {sq: cost for sq, cost in found.items() if manhattan(sq, far) == best}
    target_id = forced_target(ctx, c)
    target = ctx.state.find(target_id) if target_id else None
    if (
        target is not None
        and target.position is not None
        and not fog.unseen_by(ctx.state, c, target)
    ):
        goal = target.position
        best = min((manhattan(sq, goal) for sq in found), default=10**9)
        if best >= manhattan(here, goal):
            return {}
        return {sq: cost for sq, cost in found.items() if manhattan(sq, goal) == best}
    return found
