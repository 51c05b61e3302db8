"""Replaying a battle from its initial state and action log, and undo built on it.

A battle is a pure function of its initial state (which holds the seed) and the actions
applied to it, so ``replay(initial, actions)`` rebuilds the final state byte for byte
(:func:`dumps`). The GM's undo replays the log without the last action it undoes: the undo
itself is logged, so the log stays append-only and replaying it (undos included) still gives
the same state. Undone dice are not re-rolled differently: the random source rewinds with the
state, so re-doing the same action rolls the same dice.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from westernroses.battle.state import BattleState, Json


def dumps(state: BattleState) -> str:
    """Canonical JSON of a state (sorted keys, no spaces): equal battles, equal bytes."""
    return json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def effective_actions(actions: Iterable[Mapping[str, Any]]) -> list[Json]:
    """The actions that count after undos: each ``gm_undo`` removes the last one left."""
    out: list[Json] = []
    for action in actions:
        if action.get("type") == "gm_undo":
            if out:
                out.pop()
        else:
            out.append(dict(action))
    return out


def from_snapshot(snapshot: Mapping[str, Any]) -> BattleState:
    state = BattleState.from_dict(snapshot)
    state.log = ()
    state.initial = dict(snapshot)
    return state


def replay(
    initial: BattleState, actions: Iterable[Mapping[str, Any]], *, check_versions: bool = True
) -> BattleState:
    """Apply ``actions`` in order to ``initial`` (left unchanged) and return the result."""
    from westernroses.battle.actions import apply

    state = initial
    for action in actions:
        if not check_versions:
            action = {k: v for k, v in action.items() if k != "expected_version"}
        state, _ = apply(state, action)
    return state


def replay_log(state: BattleState) -> BattleState:
    """Rebuild ``state`` from its own initial snapshot and log (an audit: it must match)."""
    if state.initial is None:
        raise ValueError("this state has no initial snapshot")
    return replay(from_snapshot(state.initial), [entry["action"] for entry in state.log])
