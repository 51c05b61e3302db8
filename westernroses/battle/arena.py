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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
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
    #: Squares the GM hides from the players (fog of war, ``fog.py``): public as squares, but
    #: whoever stands on one is out of the players' views. Not terrain: nothing costs more.
    fog: frozenset[Square] = frozenset()
    #: The hash, worked out once: arenas key the remembered searches and areas, asked several
    #: times per legal-action list (a dataclass hashes every field again on each call).
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[Arena], tuple[Any, ...]]:
        # Rebuilt through __init__, never from a stored hash: string hashes differ between
        # processes, so a pickled one would be wrong where it is unpickled.
        return (Arena, (self.width, self.height, self.blocked, self.difficult, self.fog))

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "_hash", hash((self.width, self.height, self.blocked, self.difficult, self.fog))
        )
        for name, value in (("width", self.width), ("height", self.height)):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_SIDE:
                raise ValueError(f"arena {name} must be a whole number from 1 to {MAX_SIDE}")
        for sq in self.blocked | self.difficult | self.fog:
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
        return list(_area(self, centre, radius, False))

    def open_area(self, centre: Square, radius: int) -> list[Square]:
        """The open squares of :meth:`area` (where a combatant may stand or be aimed at)."""
        return list(_area(self, centre, radius, True))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "width": self.width,
            "height": self.height,
            "blocked": squares_json(self.blocked),
            "difficult": squares_json(self.difficult),
        }
        if self.fog:  # absent when clear, so battles without fog keep their exact bytes
            out["fog"] = squares_json(self.fog)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Arena:
        return cls(
            width=data["width"],
            height=data["height"],
            blocked=frozenset(square(s) for s in data.get("blocked", [])),
            difficult=frozenset(square(s) for s in data.get("difficult", [])),
            fog=frozenset(square(s) for s in data.get("fog", [])),
        )


@lru_cache(maxsize=4096)
def _area(arena: Arena, centre: Square, radius: int, only_open: bool) -> tuple[Square, ...]:
    """:meth:`Arena.area`, remembered: every card option and AOE preview asks it again."""
    out = []
    for dx in range(-radius, radius + 1):
        rest = radius - abs(dx)
        for dy in range(-rest, rest + 1):
            sq = (centre[0] + dx, centre[1] + dy)
            if arena.inside(sq) and not (only_open and sq in arena.blocked):
                out.append(sq)
    return tuple(sorted(out))


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
    return dict(ends(arena, start, budget, impassable, occupied)[0])


Reach = tuple[dict[Square, int], list[dict[str, Any]]]


def ends(
    arena: Arena,
    start: Square,
    budget: int,
    impassable: Iterable[Square],
    occupied: Iterable[Square],
) -> Reach:
    """:func:`reachable` and the same squares as the Move option lists them (``[{square,
    cost}]``, sorted), remembered per board position. Shared between calls: read, never
    change, either of them (legal actions are values, like states).

    Only the pieces within ``budget`` steps of ``start`` can change the answer (a square
    farther away costs more than the budget to enter, or to end on), so only they are part
    of the position remembered: a piece moving on the far side of the board does not make
    the search run again. (Squares outside the arena can never be entered: left out too.)"""
    x, y = start
    width, height = arena.width, arena.height
    blocking = standing = 0
    for sx, sy in impassable:
        if 0 <= sx < width and 0 <= sy < height and abs(sx - x) + abs(sy - y) <= budget:
            blocking |= 1 << (sy * width + sx)
    for sx, sy in occupied:
        if 0 <= sx < width and 0 <= sy < height and abs(sx - x) + abs(sy - y) <= budget:
            standing |= 1 << (sy * width + sx)
    return ends_near(arena, start, budget, blocking, standing)


def square_bits(arena: Arena, squares: Iterable[Square]) -> int:
    """Squares of the arena as the bits :func:`ends_near` takes: (x, y) is bit y × width + x.

    Why bits: the position is the key of a remembered search, hashed and compared on every
    call, and a number is far cheaper to hash and compare than a set of pairs."""
    bits = 0
    for x, y in squares:
        bits |= 1 << (y * arena.width + x)
    return bits


def _bit_squares(arena: Arena, bits: int) -> frozenset[Square]:
    width = arena.width
    found = []
    while bits:
        low = bits & -bits  # the lowest square left
        index = low.bit_length() - 1
        found.append((index % width, index // width))
        bits ^= low
    return frozenset(found)


@lru_cache(maxsize=4096)
def ends_near(arena: Arena, start: Square, budget: int, impassable: int, occupied: int) -> Reach:
    """:func:`ends` for a caller that passes only the pieces within ``budget`` steps of
    ``start`` (``movement.reach_listed`` picks them while it looks at everyone), as
    :func:`square_bits`."""
    costs = _costs(arena, start, budget, _bit_squares(arena, impassable))
    taken = _bit_squares(arena, occupied)
    found = {sq: c for sq, c in costs.items() if sq != start and sq not in taken}
    listed = [{"square": [x, y], "cost": cost} for (x, y), cost in sorted(found.items())]
    return found, listed


@lru_cache(maxsize=4096)
def _costs(
    arena: Arena, start: Square, budget: int, impassable: frozenset[Square]
) -> dict[Square, int]:
    """The cheapest cost of every square within ``budget`` of ``start`` (start included).

    Cached: never change the result. Dijkstra with a bucket per cost (steps cost 1 or 2, so
    the buckets replace the heap) over the arena's step table (:func:`_steps`).
    """
    steps = _steps(arena)
    best: dict[Square, int] = {start: 0}
    buckets: list[list[Square]] = [[] for _ in range(budget + 1)]
    buckets[0].append(start)
    never = budget + 1
    for cost in range(budget + 1):
        bucket = buckets[cost]
        if not bucket:
            continue
        for here in bucket:
            if best[here] != cost:
                continue
            for nxt, step in steps.get(here, ()):
                new = cost + step
                if new < best.get(nxt, never) and nxt not in impassable:
                    best[nxt] = new
                    buckets[new].append(nxt)
    return best


@lru_cache(maxsize=64)
def _steps(arena: Arena) -> dict[Square, tuple[tuple[Square, int], ...]]:
    """For every open square, its open neighbours and the cost of stepping onto each."""
    return {
        sq: tuple((n, arena.step_cost(n)) for n in arena.neighbours(sq))
        for sq in (
            (x, y) for x in range(arena.width) for y in range(arena.height) if arena.open((x, y))
        )
    }


def clear_caches() -> None:
    """Forget the remembered searches (tests comparing against the straightforward search)."""
    _costs.cache_clear()
    ends_near.cache_clear()
    _area.cache_clear()
    _steps.cache_clear()


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
