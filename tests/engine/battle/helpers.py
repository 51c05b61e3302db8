"""Shared builders for the battle tests: small arenas, NPCs, and scripted dice.

``Scripted`` is a :class:`RandomSource` that returns the dice a test lists, in order, so a
test can reproduce a rulebook example roll by roll; ``scripted(...)`` makes ``apply`` use it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

from westernroses.battle import actions, apply, new_battle, npc
from westernroses.battle.arena import Arena
from westernroses.battle.state import BattleState, Combatant
from westernroses.house_rules import DEFAULT_HOUSE_RULES, HouseRules
from westernroses.rng import RandomSource

BASE = {"pwr": 12, "cha": 12, "int": 12, "ins": 12}


class Scripted(RandomSource):
    """Draws come from ``values`` (each 1..n, e.g. die faces); then fails loudly, or falls back
    to the seeded source if ``then_random``."""

    def __init__(self, values: Sequence[int], *, then_random: bool = False) -> None:
        super().__init__(7)
        self.values = list(values)
        self.then_random = then_random
        self.used: list[int] = []

    def randbelow(self, n: int) -> int:
        if not self.values:
            if self.then_random:
                return super().randbelow(n)
            raise AssertionError("the test ran out of scripted dice")
        value = self.values.pop(0)
        assert 1 <= value <= n, f"scripted {value} is not in 1..{n}"
        self._sequence += 1
        self.used.append(value)
        return value - 1


@contextlib.contextmanager
def scripted(*values: int, then_random: bool = False) -> Iterator[Scripted]:
    """Within the block, every ``apply`` rolls ``values`` in order (one shared source)."""
    source = Scripted(values, then_random=then_random)

    def from_state(data: Any) -> RandomSource:
        del data
        return source

    saved = actions.dice_from_state
    actions.dice_from_state = from_state
    try:
        yield source
    finally:
        actions.dice_from_state = saved
    assert not source.values, f"unused scripted dice: {source.values}"


def fighter(
    id: str,
    position: tuple[int, int] | None,
    *,
    side: str = "a",
    speed: int = 4,
    controller: str = "gm",
    **changes: Any,
) -> Combatant:
    """An NPC with 12 in every stat, 100 HP, range 4, placed at ``position``."""
    stats = {**BASE, **changes.pop("stats", {})}
    return npc(
        id=id,
        name=id.capitalize(),
        stats=stats,
        hp=changes.pop("hp", 100),
        speed=speed,
        range=changes.pop("range", 4),
        side=side,
        controller=controller,
        position=position,
        **changes,
    )


def battle(
    *combatants: Combatant,
    size: tuple[int, int] = (8, 8),
    seed: int = 1,
    rules: HouseRules = DEFAULT_HOUSE_RULES,
    blocked: Sequence[tuple[int, int]] = (),
    difficult: Sequence[tuple[int, int]] = (),
    start: bool = True,
) -> BattleState:
    """A battle of the given combatants; started (turn order rolled) unless ``start=False``."""
    arena = Arena(size[0], size[1], frozenset(blocked), frozenset(difficult))
    state = new_battle(arena=arena, combatants=list(combatants), seed=seed, rules=rules)
    if start:
        state, _ = apply(state, {"type": "start", "player": "gm", "at": "t0"})
    return state


def act(state: BattleState, type: str, *, player: str = "gm", **fields: Any) -> BattleState:
    new, _ = apply(state, {"type": type, "player": player, **fields})
    return new


def act_events(
    state: BattleState, type: str, *, player: str = "gm", **fields: Any
) -> tuple[BattleState, list[dict[str, Any]]]:
    return apply(state, {"type": type, "player": player, **fields})


def take(state: BattleState) -> tuple[BattleState, list[dict[str, Any]]]:
    """The waiting hit's defender takes it (a hit on someone holding cards waits for her)."""
    hit = state.pending[0]
    return apply(
        state,
        {"type": "react", "player": "gm", "combatant": hit["defender"], "choice": "take"},
    )


def events_of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def rolls(events: list[dict[str, Any]], purpose_part: str) -> list[dict[str, Any]]:
    return [e["result"] for e in events if e["type"] == "roll" and purpose_part in e["purpose"]]
