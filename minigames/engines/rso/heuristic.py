"""A greedy player and a position score for Rumbling Spell Orchestra (for bots and the advisor).

:func:`evaluate` scores a position for one seat from public facts only (HP, SP, the spells on
the field, hand and deck sizes, and the expected result of a battle in progress), so it never
peeks at a hidden hand. :func:`heuristic_action` tries every legal action on a copy of the game
in which everything hidden from the seat has been dealt anew (``determinize``), scores each
result with :func:`evaluate` and takes the best, breaking ties at random. A few choices are
made by rule of thumb instead: the Leader (most HP and EV) and the mulligan (whenever allowed
with no Spell in hand).
"""

from __future__ import annotations

import math
import random
from typing import Any

from minigames.engines.rso.battle import damage_to, judge
from minigames.engines.rso.engine import ENGINE
from minigames.engines.rso.setup import spells_in_hand
from minigames.engines.rso.state import (
    Effects,
    State,
    card_of,
    leader_stats,
    other,
    passive_effects,
    spell_stats,
)

#: Weights of the score's parts, before squashing into [-1, 1].
HP_WEIGHT = 2.0
SP_WEIGHT = 0.04
SPELL_WEIGHT = 0.025
RESERVE_WEIGHT = 0.03
HAND_WEIGHT = 0.02


def _battle_outlook(state: State, seat: int) -> float:
    """Expected HP change (as a share of max HP) for ``seat`` minus her opponent's, if the
    battle in progress were fought now (a tie is escaped when the Border Value is affordable)."""
    if not state.get("battle"):
        return 0.0
    verdicts = judge(state)
    total = 0.0
    for s in (0, 1):
        verdict = verdicts.get(str(s))
        if verdict is None:
            continue
        hit = verdict["result"] == "hit" or (
            verdict["result"] == "tie" and state["players"][s]["sp"] < leader_stats(state, s)["bv"]
        )
        if hit:
            share = damage_to(state, s) / max(1, state["players"][s]["max_hp"])
            total += -share if s == seat else share
    return total


def _side(state: State, seat: int, effects: Effects) -> float:
    """``seat``'s resources; ``effects`` are the position's passive effects (worked out once
    for both sides: they are the same for every spell)."""
    player = state["players"][seat]
    score = SP_WEIGHT * min(player["sp"], 10)
    for spell in player["active"]:
        stats = spell_stats(state, spell, effects)
        score += SPELL_WEIGHT * (stats["av"] + stats["iv"] + stats["hv"])
    score += RESERVE_WEIGHT * len(player["reserve"])
    score += HAND_WEIGHT * min(len(player["hand"]), 7)
    return float(score)


def evaluate(state: State, seat: int) -> float:
    """How good the position is for ``seat``: +1 won, -1 lost, in between otherwise."""
    if ENGINE.is_terminal(state):
        return float(ENGINE.returns(state)[seat])
    me, foe = state["players"][seat], state["players"][other(seat)]
    if not me["max_hp"] or not foe["max_hp"]:
        return 0.0
    hp = me["hp"] / me["max_hp"] - foe["hp"] / foe["max_hp"]
    raw = HP_WEIGHT * (hp + _battle_outlook(state, seat))
    effects = passive_effects(state)
    raw += _side(state, seat, effects) - _side(state, other(seat), effects)
    return max(-1.0, min(1.0, math.tanh(raw)))


def _leader_score(state: State, inst: str) -> int:
    card = card_of(state, inst)
    return int(card["hp"]) + 3 * int(card["ev"]) - int(card["bv"])


def heuristic_action(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    """The greedy choice for ``seat`` (who must be among ``waiting_on``)."""
    actions = ENGINE.legal_actions(state, seat)
    if not actions:
        raise ValueError("This seat has nothing to do now.")
    kinds = {a["type"] for a in actions}
    if "choose_leader" in kinds:
        return max(actions, key=lambda a: (_leader_score(state, a["card"]), rng.random()))
    if "keep" in kinds:
        wants = "mulligan" in kinds and spells_in_hand(state, seat) == 0
        return {"type": "mulligan"} if wants else {"type": "keep"}
    if len(actions) == 1:
        return actions[0]
    world = ENGINE.determinize(state, seat, rng.randrange(2**53))
    best: tuple[float, float] = (-math.inf, 0.0)
    choice = actions[-1]
    for action in actions:
        after, _ = ENGINE.apply(world, seat, action)
        score = (evaluate(after, seat), rng.random())
        if score > best:
            best, choice = score, action
    return choice
