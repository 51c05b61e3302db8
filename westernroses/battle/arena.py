"""The arena: a rectangle of squares, some blocking, some difficult, and the geometry on it.

Ruleset "The Arena" says battles are fought on a grid the GM may bound; the issue asks for a
GM-sized rectangle with blocking and difficult squares. RULINGS 9 fixes the geometry: range and
AOE are Manhattan distances (AOE n covers every square within n steps of the target square).
Movement is orthogonal steps ("Move – Move a number of spaces less than or equal to your
speed"); **ruling**: entering a difficult square costs 2 of those spaces, blocking squares can
never be entered, and a mover may pass allies' squares but never an enemy's, and never ends on
an occupied square.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

Square = tuple[int, int]

#: Spaces it costs to enter a difficult square (ruling; the rulebook has no terrain rules).
DIFFICULT_COST = 2
#: Arena limits keep a battle's reach lists and AOE previews small enough for a browser.
MAX_SIDE = 100


def manhattan(a: Square, b: Square) -> int:
    """Grid distance in orthogonal steps (RULINGS 9)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def square(value: object) -> Square:
    """A square from JSON (``[x, y]``); ValueError on anything else."""
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ValueError(f"a square is [x, y] with whole numbers, not {value!r}")
    return (int(value[0]), int(value[1]))


def squares_json(squares: Iterable[Square]) -> list[list[int]]:
    """Squares as sorted JSON pairs (sorted so equal sets serialise to equal bytes)."""
    return [[x, y] for x, y in sorted(squares)]


@dataclass(frozen=True, slots=True)
class Arena:
    """A ``width`` × ``height`` grid; (0, 0) is the top-left square."""

    width: int
    height: int
    blocked: frozenset[Square] = frozenset()
    difficult: frozenset[Square] = frozenset()

    def __post_init__(self) -> None:
        for name, value in (("width", self.width), ("height", self.height)):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SIDE:
                raise ValueError(f"arena {name} must be a whole number from 1 to {MAX_SIDE}")
        for sq in self.blocked | self.difficult:
            if not self.inside(sq):
                raise ValueError(
                    f"square {list(sq)} is outside the {self.width}×{self.height} arena"
                )

    def inside(self, sq: Square) -> bool:
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height

    def open(self, sq: Square) -> bool:
        """Inside the arena and not blocking: a combatant may stand here."""
        return self.inside(sq) and sq not in self.blocked

    def step_cost(self, sq: Square) -> int:
        return DIFFICULT_COST if sq in self.difficult else 1

    def neighbours(self, sq: Square) -> list[Square]:
        x, y = sq
        return [n for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)) if self.open(n)]

    def area(self, centre: Square, radius: int) -> list[Square]:
        """Squares within Manhattan ``radius`` of ``centre`` inside the arena (RULINGS 9).

        Blocking squares are covered too (nobody stands there, but a UI can draw them)."""
        out = []
        for dx in range(-radius, radius + 1):
            rest = radius - abs(dx)
            for dy in range(-rest, rest + 1):
                sq = (centre[0] + dx, centre[1] + dy)
                if self.inside(sq):
                    out.append(sq)
        return sorted(out)

    def to_dict(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "height": self.height,
            "blocked": squares_json(self.blocked),
            "difficult": squares_json(self.difficult),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Arena:
        return cls(
            width=data["width"],
            height=data["height"],
            blocked=frozenset(square(s) for s in data.get("blocked", [])),
            difficult=frozenset(square(s) for s in data.get("difficult", [])),
        )


def reachable(
    arena: Arena,
    start: Square,
    budget: int,
    *,
    impassable: frozenset[Square] | set[Square] = frozenset(),
    occupied: frozenset[Square] | set[Square] = frozenset(),
) -> dict[Square, int]:
    """Every square a mover can end on with ``budget`` spaces, and its cheapest cost.

    ``impassable`` squares (enemies) cannot be entered; ``occupied`` ones (anyone standing)
    cannot be ended on. The start square is not listed: moving nowhere is Do Nothing.

    The search itself is remembered per position (:func:`_costs`): legal actions, the Move
    that follows them and every view of the same board ask the same question, and most
    actions (attacks, cards, reactions) move nobody, so it is worked out once per change of
    positions and reused. The result is a new dict each call, free for the caller to change.
    """
    costs = _costs(arena, start, budget, frozenset(impassable))
    return {sq: c for sq, c in costs.items() if sq != start and sq not in occupied}


@lru_cache(maxsize=4096)
def _costs(
    arena: Arena, start: Square, budget: int, impassable: frozenset[Square]
) -> dict[Square, int]:
    """The cheapest cost of every square within ``budget`` of ``start`` (start included).

    Cached: never change the result. A Dijkstra over step costs 1 and 2, written with locals
    (it was the engine's hottest loop before it was cached).
    """
    width, height = arena.width, arena.height
    blocked, difficult = arena.blocked, arena.difficult
    best: dict[Square, int] = {start: 0}
    queue: list[tuple[int, Square]] = [(0, start)]
    push, pop = heapq.heappush, heapq.heappop
    while queue:
        cost, (x, y) = pop(queue)
        if cost > best[(x, y)]:
            continue
        for nxt in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if not (0 <= nxt[0] < width and 0 <= nxt[1] < height):
                continue
            if nxt in blocked or nxt in impassable:
                continue
            new = cost + (DIFFICULT_COST if nxt in difficult else 1)
            if new <= budget and new < best.get(nxt, budget + 1):
                best[nxt] = new
                push(queue, (new, nxt))
    return best


def clear_caches() -> None:
    """Forget the remembered searches (tests comparing against the straightforward search)."""
    _costs.cache_clear()


def knockback_square(attacker: Square, target: Square) -> Square:
    """Where "moved one space in a straight line away from the attacker" lands (ruling: along
    the axis of the larger difference, x on a tie; straight away from an attacker on the same
    square is impossible, so the target stays)."""
    dx, dy = target[0] - attacker[0], target[1] - attacker[1]
    if dx == 0 and dy == 0:
        return target
    if abs(dx) >= abs(dy):
        return (target[0] + (1 if dx > 0 else -1), target[1])
    return (target[0], target[1] + (1 if dy > 0 else -1))
