"""The engine's fast paths give exactly what the straightforward engine gives (issue 15).

Hundreds of random battles (thousands in ``make soak``; the sample characters, random arenas,
GM overrides now and then): at every step the fast engine's new state and events, every seat's
legal actions and a view are compared with the oracle's (``tests/engine/battle/oracle.py``: a
fresh state read back from JSON, every cache forgotten, a heap Dijkstra), the input state is
checked unchanged (copy on write must never write through), and every combatant's reachable
squares and areas are compared with the oracle's own search. Battles start at a random point of
a random game, so late positions (statuses, dolls, fallen pieces, the end) are checked as well
as openings.
"""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.battle import oracle
from tests.engine.battle.random_play import apply_random, random_action
from tests.engine.battle.samples import CHARACTERS, demo_battle
from tests.engine.battle.test_properties import gm_override
from tests.soak import size
from westernroses.battle import BattleState, IllegalAction, apply, dumps, legal_actions, view
from westernroses.battle.actions import read_context
from westernroses.battle.arena import reachable
from westernroses.battle.state import copy_json
from westernroses.battle.stats import can_act, speed

#: Steps compared per battle, after a random number of unchecked ones.
CHECKED_STEPS = 2
#: Random battles per run (each one checked at a random point of its game): 300 in the suite,
#: ten times as many in ``make soak``.
BATTLES = size(300)


def _seats(state: BattleState) -> list[str]:
    return sorted({c.controller for c in state.combatants.values()} | {"gm", "onlooker"})


def _check_geometry(state: BattleState, rng: random.Random) -> None:
    arena = state.arena
    for c in state.combatants.values():
        if c.position is None:
            continue
        others = [o for o in state.combatants.values() if o.id != c.id and o.position]
        enemies = {o.position for o in others if o.conscious and o.side != c.side}
        standing = {o.position for o in others if o.conscious}
        budget = rng.choice([speed(c), rng.randint(0, 12)])
        found = reachable(arena, c.position, budget, impassable=enemies, occupied=standing)
        assert found == oracle.reachable(arena, c.position, budget, enemies, standing), c.id
        found.clear()  # the caller owns the answer: the remembered one is untouched
        assert reachable(arena, c.position, budget, impassable=enemies, occupied=standing) == (
            oracle.reachable(arena, c.position, budget, enemies, standing)
        )
        radius = rng.randint(0, 6)
        assert arena.area(c.position, radius) == oracle.area(arena, c.position, radius)
        assert arena.open_area(c.position, radius) == [
            sq for sq in oracle.area(arena, c.position, radius) if arena.open(sq)
        ]
        twin = c.clone()
        assert twin == c and twin.to_dict() == c.to_dict()
        for name in ("effects", "ammo", "thrown_used", "turn_used", "battle_used"):
            assert getattr(twin, name) is not getattr(c, name), name


def _fast_step(state: BattleState, action: dict, rng: random.Random) -> dict | None:
    """One step through the fast engine (its caches warm from every battle before), with
    everything the oracle will be asked for afterwards."""
    before = dumps(state)
    try:
        new, events, applied = apply_random(state, action)
    except IllegalAction:
        assert action["type"].startswith("gm_"), action  # only overrides may be refused
        return None
    assert dumps(state) == before  # the input is never written through
    legal = {seat: legal_actions(new, seat) for seat in _seats(new)}
    if new.memo is not None:  # sealed by apply (an undo to the opening snapshot is not)
        for seat, found in legal.items():
            assert legal_actions(new, seat) is found  # worked out once per version
    seat = rng.choice(_seats(new))
    since = rng.choice([0, max(new.version - 2, 0)])
    return {
        "state": state,
        "action": applied,
        "new": new,
        "json": dumps(new),
        "events": copy.deepcopy(events),
        "legal": copy.deepcopy(legal),
        "view": (seat, since, view(new, seat, since=since)),
    }


def _check_step(step: dict) -> None:
    """The oracle's answers for the same step, every cache forgotten before each question."""
    new, events = oracle.apply_fresh(step["state"], step["action"])
    assert dumps(new) == step["json"] == dumps(step["new"])  # and nothing changed it since
    assert events == step["events"]
    assert copy_json(events) == copy.deepcopy(events)
    base = oracle.fresh(step["new"])
    for seat, found in step["legal"].items():
        assert oracle.legal(base, seat) == found, seat
        for option in found:
            if option["type"] == "attack":
                near = oracle.in_range(base, option["combatant"], option["range"])
                assert set(option["targets"]) <= near, option
                if not base.arena.fog and option["targets"] and len(option["targets"]) < len(near):
                    # fewer than in range: only a forced target (taunt, berserk) narrows them
                    assert len(option["targets"]) == 1, option
    seat, since, shown = step["view"]
    assert oracle.seen(base, seat, since=since) == shown, seat


@settings(max_examples=BATTLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    heroes=st.lists(st.sampled_from(sorted(CHARACTERS)), min_size=1, max_size=4, unique=True),
    monsters=st.integers(1, 4),
    width=st.integers(5, 10),
    height=st.integers(4, 8),
    skip=st.integers(0, 60),
)
def test_fast_paths_equal_the_straightforward_engine(seed, heroes, monsters, width, height, skip):
    """Issue 15: reachability remembered per position, legal actions per version, copy on
    write and shared log events change no result: states, events, legal actions and views
    equal a fresh engine's, step by step."""
    rng = random.Random(seed)
    state = demo_battle(seed % 2**53, heroes=heroes, monsters=monsters, size=(width, height))
    for _ in range(skip):  # a random point of a random battle
        action = random_action(state, rng)
        if action is None:
            break
        state, _, _ = apply_random(state, action)
    _check_geometry(state, rng)
    steps = []
    while len(steps) < CHECKED_STEPS:
        # GM overrides once the battle runs (removing pieces in setup can leave one side).
        override = state.phase != "setup" and rng.random() < 0.1
        action = gm_override(state, rng) if override else random_action(state, rng)
        if action is None:
            if state.phase == "ended" or random_action(state, rng) is None:
                break
            continue
        step = _fast_step(state, action, rng)
        if step is not None:
            steps.append(step)
            state = step["new"]
    _check_geometry(state, rng)
    for step in steps:
        _check_step(step)


def test_house_rules_are_remembered_per_battle_not_per_slot() -> None:
    """``actions.house_rules`` remembers the parsed rules by the settings dict's identity: two
    battles with different house rules (and a state read back from JSON, with a new dict of
    the same settings) each get their own, in any order of asking."""
    import dataclasses

    from westernroses.battle import caches
    from westernroses.battle.actions import context
    from westernroses.house_rules import DEFAULT_HOUSE_RULES, HouseRules

    changed = dataclasses.replace(DEFAULT_HOUSE_RULES, option_max_bonus=1, min_dice=2)
    plain, house = demo_battle(1), demo_battle(1, rules=changed)
    caches.clear()
    for state in (plain, house, plain, BattleState.from_dict(house.to_dict()), house):
        assert context(state).rules == HouseRules.from_dict(state.house_rules)
    assert context(house).rules == changed
    assert context(plain).rules == DEFAULT_HOUSE_RULES
    assert context(plain).rules != context(house).rules


def test_working_combatants_copy_on_first_touch() -> None:
    """Issue 15: ``apply`` copies a combatant only when rule code takes her out of the working
    dict. Whatever it takes is a private copy (nothing written to it reaches the sealed
    state), reading loops (``scan``) copy nobody, and the sealed result shares every
    combatant nobody touched with the state before."""
    from westernroses.battle.state import WorkingCombatants, scan

    sealed = demo_battle(3, heroes=["reimu", "marisa"], monsters=2).combatants
    before = {cid: c.to_dict() for cid, c in sealed.items()}
    work = WorkingCombatants(sealed)
    first, second, *_ = list(sealed)
    assert list(scan(work)) == list(sealed.values())
    assert all(a is b for a, b in zip(scan(work), sealed.values(), strict=True))
    mine = work[first]
    assert mine is not sealed[first] and mine == sealed[first]
    mine.hp -= 5
    mine.turn_used["over"] = 1
    assert work[first] is mine and work.get(first) is mine  # copied once
    other = work.get(second)
    assert other is not None and other is not sealed[second]
    for c in work.values():  # taking them all copies the rest
        c.hp -= 1
        c.battle_used["lucky"] = 1
    assert {cid: c.to_dict() for cid, c in sealed.items()} == before
    out = work.sealed()
    assert type(out) is dict and out[first] is mine and list(out) == list(sealed)


def test_apply_shares_the_combatants_it_did_not_touch() -> None:
    """Copy on write through ``apply``: a Do Nothing changes only the current combatant, so
    the new state holds a copy of her and the very same objects for everyone else; the
    state before is unchanged."""
    state = demo_battle(5, heroes=["reimu", "marisa"], monsters=2)
    state, _ = apply(state, {"type": "start", "player": "gm"})
    for _ in range(40):
        if not state.pending and state.current and state.phase == "active":
            c = state.combatants[state.current]
            if c.actions_left > 0 and can_act(c) and not c.effects:
                break
        state, _, _ = apply_random(state, random_action(state, random.Random(7)))
    else:
        raise AssertionError("no plain turn to test on")
    before = dumps(state)
    current = state.current
    new, _ = apply(state, {"type": "do_nothing", "player": c.controller, "combatant": current})
    assert dumps(state) == before
    assert new.combatants[current] is not state.combatants[current]
    assert new.combatants[current].actions_left == state.combatants[current].actions_left - 1
    untouched = [cid for cid in state.combatants if cid != current]
    assert untouched and all(new.combatants[cid] is state.combatants[cid] for cid in untouched)


def test_a_read_only_context_never_rolls() -> None:
    """Legal actions and views work from ``read_context``, whose dice refuse to roll: a rule
    that rolled while only asked what is possible would be a bug, and this makes it loud."""
    state = demo_battle(3, heroes=["reimu", "marisa"], monsters=2)
    ctx = read_context(state, "gm")
    with pytest.raises(RuntimeError, match="never rolls"):
        ctx.rng.d6()
    with pytest.raises(RuntimeError, match="never rolls"):
        ctx.rng.randbelow(6)
    assert legal_actions(state, "gm")  # worked out through such a context, without a roll
