"""A greedy DBS player and a position evaluation, for the "easy" bot and ISMCTS rollouts.

:func:`heuristic_action` scores every legal action with a few rules of thumb and plays the
best (ties broken by ``rng``); it reads only what the seat may know (her own cards and deck
list, public zones). The rules of thumb:

* Opening: start with the character who has the most Battle Spellcards in the deck; retrieve
  the strongest Spellcard of an in-play character that she can declare without a status limit.
* Change: make a character Center (or Hyper) when the hand holds a Spellcard that needs it,
  otherwise call a new character from hand, otherwise change nothing.
* Set: set Traps while the Item Area has room; put cards she cannot use (Spellcards of absent
  characters, extra copies of characters) into Extra SP; then battle.
* Battle: set Constants while there is room, heal when low, draw when the hand is small; declare
  the hardest-hitting Spellcard that does not raise the Spell Chain's Level needlessly; end the
  turn when nothing is worth doing.
* Defence: counter with the cheapest Spellcard that at least ties the attack; else spring a
  Trap or Instant that cuts a big attack; else let it through.
* End: discard the least useful card.

:func:`evaluate` maps a position to [-1, 1] for ``seat``: LP difference, Spell Chain Levels
(Smack Down), cards in hand and SP, from public information only.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from westernroses.protocol import Action

from .battle import top_level
from .engine import ENGINE
from .rules import State, attack_of, available_sp, card, chain_level, in_play, other, player


def _iid_kind(state: State, action: Mapping[str, Any]) -> Mapping[str, Any]:
    return card(state, action["card"])


def _usable(state: State, seat: int, iid: str) -> bool:
    """Could ``seat`` ever use ``iid`` with what is in play or in hand?"""
    definition = card(state, iid)
    owner = definition.get("character")
    if definition["kind"] == "character":
        return in_play(state, seat, definition["number"]) is None
    if not owner:
        return True
    if in_play(state, seat, owner) is not None:
        return True
    return any(state["instances"][h] == owner for h in player(state, seat)["hand"])


def _value(state: State, seat: int, iid: str) -> float:
    """How much a card in hand is worth keeping."""
    definition = card(state, iid)
    if not _usable(state, seat, iid):
        return 0.0
    if definition["kind"] == "battle":
        return 1.0 + float(definition["attack"]) / 1000
    if definition["kind"] == "character":
        return 3.0
    return 2.0


def _score(state: State, seat: int, action: Action) -> float:
    kind = action["type"]
    me = player(state, seat)
    if kind == "choose_character":
        number = action["card"]
        return sum(
            1
            for iid in me["deck"]
            if state["cards"][state["instances"][iid]].get("character") == number
        )
    if kind == "retrieve":
        definition = state["cards"][action["card"]]
        if definition["kind"] != "battle" or in_play(state, seat, definition["character"]) is None:
            return 0.0
        return definition["attack"] / 1000 if definition.get("limit", "none") == "none" else 0.5
    if kind in ("center", "hyper"):
        number = state["instances"][action["card"]]
        need = "center" if kind == "center" else "hyper"
        wanted = any(
            card(state, h).get("character") == number and card(state, h).get("limit") == need
            for h in me["hand"]
        )
        return 5.0 if wanted else -1.0
    if kind == "call_character":
        return 3.0
    if kind in ("skip_change", "end_set"):
        return 0.0
    if kind == "set_trap":
        return 2.0 if "replace" not in action else -1.0
    if kind == "extra_sp":
        iid = action["card"]
        spare = len(me["hand"]) > 5 or not _usable(state, seat, iid)
        return 1.0 - _value(state, seat, iid) / 10 if spare else -1.0
    if kind == "end_turn":
        return 0.0
    if kind == "discard":
        return 10.0 - _value(state, seat, action["card"])
    definition = _iid_kind(state, action) if "card" in action else {}
    if kind == "declare":
        value = attack_of(state, seat, action["card"], "attacking", 0)
        climb = float(definition["level"]) - top_level(state, seat)
        return 1.0 + value / 1000 - 0.6 * climb
    if kind == "constant":
        return 2.5 if "replace" not in action else -1.0
    if kind in ("buff", "instant", "trap"):
        return _effect_score(state, seat, definition)
    if kind == "counter":
        clash = state["clash"]
        incoming = attack_of(
            state, other(seat), clash["attack"], "attacking", clash["boost"]["attack"]
        )
        mine = attack_of(state, seat, action["card"], "defending", 0)
        if mine >= incoming:
            return 4.0 - float(definition["cost"]) * 0.3 - float(definition["level"]) * 0.1
        return (mine / max(incoming, 1)) * 2 - 0.5
    if kind == "no_counter":
        return 0.5
    return 0.0


def _effect_score(state: State, seat: int, definition: Mapping[str, Any]) -> float:
    me = player(state, seat)
    score = 0.0
    for eff in definition.get("effects", []):
        verb = eff["do"]
        amount = eff.get("amount", 0)
        if verb == "heal":
            score += 2.0 if me["lp"] < 5000 else -0.5
        elif verb == "draw":
            score += 1.5 if len(me["hand"]) < 4 else -0.5
        elif verb in ("damage",):
            score += amount / 500 if eff.get("target", "opponent") == "opponent" else -amount / 1000
        elif verb == "boost":
            clash = state["clash"]
            big = (
                clash is not None
                and attack_of(
                    state, clash["attacker"], clash["attack"], "attacking", clash["boost"]["attack"]
                )
                >= 2000
            )
            score += 2.0 if big else -0.5
        elif verb == "negate":
            score += 3.0
        elif verb in (
            "recover_beads",
            "break_beads",
            "discard_random",
            "destroy_item",
            "chain_pop",
        ):
            score += 1.0
        elif verb == "win":
            score += 10.0
    return score


def heuristic_action(state: State, seat: int, rng: random.Random) -> Action:
    """The greedy choice among ``seat``'s legal actions (see the module doc)."""
    actions = ENGINE.legal_actions(state, seat)
    if not actions:
        raise ValueError("This seat has nothing to do now.")
    scored = [(_score(state, seat, a), i) for i, a in enumerate(actions)]
    best = max(score for score, _ in scored)
    choices = [i for score, i in scored if score == best]
    return actions[choices[rng.randrange(len(choices))]]


def evaluate(state: State, seat: int) -> float:
    """How good the position is for ``seat``, from -1 (lost) to 1 (won)."""
    if ENGINE.is_terminal(state):
        return ENGINE.returns(state)[seat]
    foe = other(seat)
    me_p, foe_p = player(state, seat), player(state, foe)
    lp = (max(me_p["lp"], -1) - max(foe_p["lp"], -1)) / 10000
    chain = (chain_level(state, seat) - chain_level(state, foe)) / 20
    cards = (len(me_p["hand"]) - len(foe_p["hand"])) / 10
    sp = (available_sp(state, seat) - available_sp(state, foe)) / 20
    raw = 1.5 * lp + 0.6 * chain + 0.3 * cards + 0.2 * sp
    return max(-1.0, min(1.0, math.tanh(raw)))
