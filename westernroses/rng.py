"""A seeded, replayable random source for dice and shuffles.

Why not :mod:`random`: a game state keeps its random source (seed and position) in the database
and a logged roll must be re-checkable years later. ``random.Random``'s generator and its
``randrange`` / ``shuffle`` algorithms are CPython internals that have changed between versions,
so a persisted replay could silently diverge. Here every draw is a pure function of
``(seed, index)``: draw *i* hashes ``f"{seed}:{i}"`` with SHA-256 (a standard that will not
change) and maps it to a number below ``n`` by rejection sampling, so it is unbiased. Because
draws are independent of each other, a roll can be re-verified from its seed and the index of
its first die alone, without replaying everything that came before.

Security note: anyone who knows the seed can predict every future draw. Keep seeds of live
games server-side and reveal a seed (for :func:`westernroses.dice.verify`) only once nothing
more will be drawn from it.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping, MutableSequence
from typing import Any, Final, Protocol

#: Name stored with a serialised source; a future algorithm gets a new name, never this one.
ALGORITHM: Final = "sha256-v1"
#: Seeds and positions stay within JavaScript's safe integers so JSON clients keep them exact.
MAX_SEED: Final = 2**53 - 1
MAX_SEQUENCE: Final = 2**53 - 1
#: :meth:`RandomSource.randbelow` accepts ``1 <= n <= MAX_RANGE`` (a 256-bit hash keeps the
#: rejection rate below 2**-192 for any such ``n``).
MAX_RANGE: Final = 2**64

_HASH_SPACE: Final = 2**256


class DiceSource(Protocol):
    """What the dice roller needs: a d6 and the position to log. :class:`RandomSource` is one;
    tests and a GM's "enter the physical dice" screen can supply another."""

    @property
    def seed(self) -> int: ...

    @property
    def sequence(self) -> int: ...

    def d6(self) -> int: ...


def _check_int(name: str, value: object, maximum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if not 0 <= value <= maximum:
        raise ValueError(f"{name} must be between 0 and {maximum}, got {value}")
    return value


def draw(seed: int, index: int, n: int) -> int:
    """The ``index``-th draw of ``seed``: a uniform integer in ``range(n)``.

    Rejection sampling: hash values at or above the largest multiple of ``n`` are discarded and
    the draw re-hashes with an attempt counter, so every result is exactly equally likely.
    """
    limit = (_HASH_SPACE // n) * n
    attempt = 0
    while True:
        key = f"{seed}:{index}" if attempt == 0 else f"{seed}:{index}:{attempt}"
        value = int.from_bytes(hashlib.sha256(key.encode("ascii")).digest(), "big")
        if value < limit:
            return value % n
        attempt += 1  # pragma: no cover - probability below 2**-192 per draw


class RandomSource:
    """Deterministic draws from ``(seed, sequence)``; ``sequence`` counts the draws made so far.

    Every draw (a die, a :meth:`randbelow`, each step of a :meth:`shuffle`) uses exactly one
    index, so ``sequence`` is also the index of the next draw.
    """

    __slots__ = ("_seed", "_sequence")

    def __init__(self, seed: int, sequence: int = 0) -> None:
        self._seed = _check_int("seed", seed, MAX_SEED)
        self._sequence = _check_int("sequence", sequence, MAX_SEQUENCE)

    @classmethod
    def from_entropy(cls) -> RandomSource:
        """A fresh source for live play, seeded from the operating system's CSPRNG."""
        return cls(secrets.randbits(53))

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def sequence(self) -> int:
        """Number of draws made so far (the index of the next draw)."""
        return self._sequence

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``range(n)``, unbiased; uses one draw."""
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"n must be an int, not {type(n).__name__}")
        if not 1 <= n <= MAX_RANGE:
            raise ValueError(f"n must be between 1 and {MAX_RANGE}, got {n}")
        return self._next(n)

    def _next(self, n: int) -> int:
        """The next draw below ``n`` (already checked), moving the sequence on by one."""
        if self._sequence >= MAX_SEQUENCE:
            raise OverflowError("this random source is exhausted; start a new seed")
        index = self._sequence
        self._sequence += 1
        return draw(self._seed, index, n)

    def d6(self) -> int:
        """One six-sided die, 1 to 6: :meth:`randbelow` (6) without re-checking its argument
        (every die of every roll comes through here). A subclass that draws otherwise (a
        test's scripted dice) overrides :meth:`randbelow` only, so it is asked as before."""
        if type(self) is not RandomSource:
            return 1 + self.randbelow(6)
        return 1 + self._next(6)

    def roll_d6(self, count: int) -> tuple[int, ...]:
        """``count`` six-sided dice, in the order they were drawn."""
        if count < 0:
            raise ValueError(f"count must not be negative, got {count}")
        return tuple(self.d6() for _ in range(count))

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Shuffle ``items`` in place (Fisher–Yates); uses ``len(items) - 1`` draws.

        The draws are :func:`draw`'s, but the hash of the seed's part of the key
        (``f"{seed}:"``) is taken once and copied for each draw: shuffles are most of the
        draws the card games make (every deal and every re-dealt world of the search), and
        this cuts their cost by about two fifths. A subclass that draws otherwise is asked
        through :meth:`randbelow` as before, and so is a shuffle that would run the source out.
        """
        last = len(items) - 1
        if type(self) is not RandomSource or self._sequence + last > MAX_SEQUENCE:
            for i in range(last, 0, -1):
                j = self.randbelow(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        seed = self._seed
        prefix = hashlib.sha256(f"{seed}:".encode("ascii"))
        index = self._sequence
        for i in range(last, 0, -1):
            n = i + 1
            hasher = prefix.copy()
            hasher.update(b"%d" % index)  # the same text as f"{index}" for an int
            value = int.from_bytes(hasher.digest(), "big")
            # draw()'s rejection sampling, slow path included
            j = value % n if value < (_HASH_SPACE // n) * n else draw(seed, index, n)
            index += 1
            items[i], items[j] = items[j], items[i]
        self._sequence = index

    def at(self, sequence: int) -> RandomSource:
        """A copy of this source positioned at ``sequence`` (to replay from a logged roll)."""
        return RandomSource(self._seed, sequence)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able state: enough to continue exactly where this source stands."""
        return {"algorithm": ALGORITHM, "seed": self._seed, "sequence": self._sequence}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RandomSource:
        """Rebuild from :meth:`to_dict`; raises ValueError/TypeError on anything else."""
        algorithm = data.get("algorithm", ALGORITHM)
        if algorithm != ALGORITHM:
            raise ValueError(f"unknown random source algorithm {algorithm!r}")
        if "seed" not in data:
            raise ValueError("random source state has no seed")
        return cls(data["seed"], data.get("sequence", 0))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RandomSource):
            return NotImplemented
        return (self._seed, self._sequence) == (other._seed, other._sequence)

    # Mutable (the position moves), so unhashable: defining __eq__ alone sets __hash__ = None.

    def __repr__(self) -> str:
        return f"RandomSource(seed={self._seed}, sequence={self._sequence})"


class NoDice(RandomSource):
    """A source for code that only reads (a battle's legal actions and views): asking it for a
    die is a bug. It lives here, not in the battle engine, because a compiled module
    (``westernroses.native``) cannot subclass this interpreted class."""

    __slots__ = ()

    def randbelow(self, n: int) -> int:
        raise RuntimeError("a read-only battle context never rolls dice")
