"""Real game states for the card games' renderer tests: openings, states reached by seeded
random legal play (one per phase and step, battles and defender answers included) and finished
games, each turned into the payload a seat (or a spectator) receives."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from minigames.engines.dbs import ENGINE as DBS
from minigames.engines.rso import ENGINE as RSO
from minigames.payload import table_payload
from westernroses.protocol import GameEngine

NAMES = ["Reimu", "Marisa"]


def rso_key(state: dict[str, Any]) -> str:
    battle = state["battle"]
    if state["phase"] == "battle" and battle:
        return f"battle {state['step']} {'intercepted' if battle['intercept'] else 'alone'}"
    return f"{state['phase']} {state['step']}"


def dbs_key(state: dict[str, Any]) -> str:
    clash = state["clash"]
    if state["phase"] == "over":
        return f"over {state['result']['victory']}"
    if clash is not None:
        return f"{state['phase']} clash {'countered' if clash['counter'] else 'open'}"
    return str(state["phase"])


def walk(engine: GameEngine[Any], seed: int, max_moves: int = 3000) -> Iterator[Any]:
    """Every state of one seeded random game, the first included."""
    rng = random.Random(seed)
    state = engine.new_game(seats=2, seed=seed, config={"names": NAMES})
    yield state
    for _ in range(max_moves):
        if engine.is_terminal(state):
            return
        waiting = engine.waiting_on(state)
        seat = waiting[rng.randrange(len(waiting))]
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        yield state


#: Sights worth drawing that the phase alone does not bring: cards under other cards, face-down
#: cards, the Scene, a Spell Chain.
RSO_SIGHTS: dict[str, Callable[[Any], bool]] = {
    "a Scene on the Boundary": lambda s: s["scene"] is not None,
    "a Spell Support": lambda s: bool(s["attached"]),
    "a Leader Support": lambda s: any(p["supports"] for p in s["players"]),
    "a modifier this turn": lambda s: bool(s["mods"]),
}
DBS_SIGHTS: dict[str, Callable[[Any], bool]] = {
    "a face-down Trap": lambda s: any(i["face_down"] for p in s["players"] for i in p["items"]),
    "a Constant": lambda s: any(not i["face_down"] for p in s["players"] for i in p["items"]),
    "a Hyper character": lambda s: any(
        c["status"] == "hyper" for p in s["players"] for c in p["characters"]
    ),
    "a broken bead": lambda s: any("broken" in p["beads"] for p in s["players"]),
    "a long Spell Chain": lambda s: any(len(p["chain"]) >= 3 for p in s["players"]),
}


def sample(
    engine: GameEngine[Any],
    key: Callable[[Any], str],
    seeds: range,
    sights: dict[str, Callable[[Any], bool]] | None = None,
) -> dict[str, Any]:
    """The first state of each kind (by ``key``) and of each sight met over the seeded games."""
    found: dict[str, Any] = {}
    for seed in seeds:
        for state in walk(engine, seed):
            if engine.is_terminal(state):
                found.setdefault(key(state), state)
                continue
            found.setdefault(key(state), state)
            for name, seen in (sights or {}).items():
                if name not in found and seen(state):
                    found[name] = state
    return found


def payloads(engine: GameEngine[Any], state: Any) -> list[dict[str, Any]]:
    """What both seats and a spectator receive for ``state``."""
    return [table_payload(engine, state, seat, version=7, names=NAMES) for seat in (0, 1, None)]


GAMES = {"rso": (RSO, rso_key, RSO_SIGHTS), "dbs": (DBS, dbs_key, DBS_SIGHTS)}
