"""The straightforward engine, kept as the oracle for the fast paths (docs/battle.md,
"Performance").

The engine remembers answers (reachability per position, areas, prices, legal actions per
sealed state), clones combatants slot by slot, shares a state's log entry events with the
caller, and searches reachability with a bucket queue. The oracle does none of it:

* every question is asked of a *fresh* state, read back from its JSON (no shared objects, no
  memo), with every cross-state cache forgotten first (``westernroses.battle.caches.clear``);
* reachability is the textbook Dijkstra with a binary heap, written here independently;
* an area is the plain double loop over offsets;
* a copy is ``copy.deepcopy``;
* an attack's targets are every living piece within its range, found by a scan of its own
  (the engine measures each piece's distance once for all of a combatant's attacks).
"""

from __future__ import annotations

import copy
import heapq
import json
from collections.abc import Mapping
from typing import Any

from westernroses.battle import BattleState, apply, caches, legal_actions, view
from westernroses.battle.arena import DIFFICULT_COST, Arena, Square
from westernroses.battle.state import Json


def fresh(state: BattleState) -> BattleState:
    """``state`` rebuilt from its JSON: nothing shared with it, nothing remembered."""
    caches.clear()
    return BattleState.from_dict(json.loads(json.dumps(state.to_dict())))


def apply_fresh(state: BattleState, action: Mapping[str, Any]) -> tuple[BattleState, list[Json]]:
    new, events = apply(fresh(state), copy.deepcopy(dict(action)))
    return new, copy.deepcopy(events)


def legal(state: BattleState, player: str) -> list[Json]:
    """Legal actions of a :func:`fresh` state (it keeps no memo), every cache forgotten."""
    assert state.memo is None
    caches.clear()
    return legal_actions(state, player)


def seen(state: BattleState, player: str, since: int = 0) -> Json:
    """A view of a :func:`fresh` state, every cache forgotten."""
    assert state.memo is None
    caches.clear()
    return view(state, player, since=since)


def reachable(
    arena: Arena,
    start: Square,
    budget: int,
    impassable: set[Square],
    occupied: set[Square],
) -> dict[Square, int]:
    """Dijkstra with a heap: cheapest cost of each square a mover can end on (RULINGS 9:
    orthogonal steps; the ruling's difficult squares cost 2, blocking squares and enemies
    cannot be entered, occupied squares cannot be ended on, the start is not listed)."""
    best = {start: 0}
    queue = [(0, start)]
    while queue:
        cost, here = heapq.heappop(queue)
        if cost > best[here]:
            continue
        x, y = here
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if not arena.inside(nxt) or nxt in arena.blocked or nxt in impassable:
                continue
            new = cost + (DIFFICULT_COST if nxt in arena.difficult else 1)
            if new <= budget and new < best.get(nxt, budget + 1):
                best[nxt] = new
                heapq.heappush(queue, (new, nxt))
    return {sq: c for sq, c in best.items() if sq != start and sq not in occupied}


def area(arena: Arena, centre: Square, radius: int) -> list[Square]:
    """Squares within Manhattan ``radius`` (RULINGS 9) inside the arena, sorted."""
    return sorted(
        (x, y)
        for x in range(arena.width)
        for y in range(arena.height)
        if abs(x - centre[0]) + abs(y - centre[1]) <= radius
    )


def in_range(state: BattleState, cid: str, distance: int) -> set[str]:
    """Every living piece but ``cid`` whose Manhattan distance (RULINGS 9) from her is at most
    ``distance``: an attack's targets before fog and a forced target narrow them."""
    c = state.combatants[cid]
    if c.position is None:
        return set()
    x, y = c.position
    return {
        o.id
        for o in state.combatants.values()
        if o.id != cid
        and o.life == "alive"
        and o.position is not None
        and abs(o.position[0] - x) + abs(o.position[1] - y) <= distance
    }
