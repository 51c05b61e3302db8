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

from westernroses.battle import fog
from westernroses.battle.arena import Square, manhattan, reachable
from westernroses.battle.context import Ctx
from westernroses.battle.state import Combatant
from westernroses.battle.stats import speed
from westernroses.battle.status import fleeing, fleeing_from, forced_target


def reach(ctx: Ctx, c: Combatant) -> dict[Square, int]:
    """Squares she may end a Move on, with their cost in spaces."""
    if c.position is None:
        return {}
    others = [o for o in ctx.state.combatants.values() if o.id != c.id and o.position is not None]
    enemies = {o.position for o in others if o.conscious and o.side != c.side}
    standing = {o.position for o in others if o.conscious}
    budget = speed(c)
    if c.kind == "doll":
        from westernroses.battle.summons import doll_speed

        budget = doll_speed(ctx, c, budget)
    found = reachable(
        ctx.state.arena,
        c.position,
        budget,
        impassable={p for p in enemies if p is not None} | fog.blocks(ctx.state, c),
        occupied={p for p in standing if p is not None},
    )
    return _steer(ctx, c, c.position, found)


def _steer(ctx: Ctx, c: Combatant, here: Square, found: dict[Square, int]) -> dict[Square, int]:
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
    target = ctx.state.combatants.get(target_id) if target_id else None
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
