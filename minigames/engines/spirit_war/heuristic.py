"""A greedy Spirit War policy (the tavern's "heuristic" bot) and a position evaluator for search.

:func:`heuristic_action` looks one decision ahead with what the seat can see (her hand, the
revealed Spirits, public cards) and never peeks at hidden cards:

* **Attack**: the target holding the fewest cards (fewer cards, fewer Spirits to defend with);
  a tie is broken at random.
* **Summon**: the Spirit whose element scores best: +2 if another Spirit of that element stays in
  hand (so an Element buff is possible later), +1 for each Spirit the opponent is known to hold
  that it beats, -1 for each that beats it.
* **Support**: when already winning, nothing, unless the opponent has put a card down: then a
  Disintegrate, else a Safeguard, if held. When not winning, the cheapest card that turns the
  battle into a win (Spells before Spirits), else one that makes it a draw, else a Safeguard
  when losing, else nothing. Outcomes come from the engine's own :func:`battles.resolve`.
* **Discard**: Spells before Spirits, the least useful first (Swap, Imbue, Safeguard,
  Disintegrate); among Spirits, one of the element held most.
* **The rare outcome**: vote to share (a Mini Spirit War is a lottery worth no more on average).

:func:`evaluate` scores a state for ``seat`` in [-1, 1]: the result once the game is over;
otherwise from her share of the strength still in play (Spirits count 1, Spells 0.4).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Final

from minigames.engines.spirit_war.battles import resolve, side_of
from minigames.engines.spirit_war.elements import DRAW, LOSS, WIN, chart
from minigames.engines.spirit_war.engine import ENGINE
from minigames.engines.spirit_war.piles import State, card, is_spirit, survivors
from westernroses.protocol import Action

#: Which Spell to let go of first when discarding (lower goes first).
SPELL_KEEP: Final = {"swap": 0, "imbue": 1, "safeguard": 2, "disintegrate": 3}

SPIRIT_WEIGHT: Final = 1.0
SPELL_WEIGHT: Final = 0.4


def heuristic_action(state: State, seat: int, rng: random.Random) -> Action:
    """The greedy policy's move for ``seat`` (who must be waited on)."""
    actions = ENGINE.legal_actions(state, seat)
    if not actions:
        raise ValueError("This seat has nothing to do now.")
    if len(actions) == 1:
        return actions[0]
    phase = state["phase"]
    if phase == "attack":
        fewest = min(len(state["hands"][a["target"]]) for a in actions)
        return rng.choice([a for a in actions if len(state["hands"][a["target"]]) == fewest])
    if phase == "summon":
        return _summon(state, seat, actions, rng)
    if phase == "support":
        return _support(state, seat, actions)
    if phase == "discard":
        return min(actions, key=lambda a: _keep_value(state, seat, a["card"]))
    if phase == "rare_outcome":
        return {"type": "vote", "choice": "share"}
    return actions[0]


def _opponent(state: State, seat: int) -> int:
    sides = state["battle"]["sides"]
    return int(sides[1] if sides[0] == seat else sides[0])


def _known_spirit_elements(state: State, seat: int) -> list[str]:
    known = set(state["known"])
    return [
        card(state, c)["element"]
        for c in state["hands"][seat]
        if c in known and is_spirit(state, c)
    ]


def _summon(state: State, seat: int, actions: list[Action], rng: random.Random) -> Action:
    mine = Counter(card(state, a["card"])["element"] for a in actions)
    theirs = _known_spirit_elements(state, _opponent(state, seat))

    def score(action: Action) -> float:
        elem = card(state, action["card"])["element"]
        value = 2.0 if mine[elem] >= 2 else 0.0
        value += sum(1 for t in theirs if chart(elem, t) == WIN)
        value -= sum(1 for t in theirs if chart(elem, t) == LOSS)
        return value + rng.random() * 0.01

    return max(actions, key=score)


def _support(state: State, seat: int, actions: list[Action]) -> Action:
    battle = state["battle"]
    side = side_of(state, seat)
    other = 1 - side
    main = (
        card(state, battle["summon"][0])["element"],
        card(state, battle["summon"][1])["element"],
    )
    names = ("attacker", "defender")
    opponent_placed = battle["supported"][other] and battle["support"][other] is not None
    # Whether a face-down card is down is public (view: supports[i] == {"face_down": True}).

    def result(action: Action) -> tuple[int, bool]:
        supports: list[dict[str, Any] | None] = [None, None]
        if action["type"] == "support":
            supports[side] = card(state, action["card"])
        res = resolve(main, (supports[0], supports[1]), names)
        mine = res.result if side == 0 else -res.result
        return mine, res.safeguards[side]

    current, _ = result({"type": "pass_support"})
    plays = [a for a in actions if a["type"] == "support"]
    if current == WIN:
        for wanted in ("disintegrate", "safeguard"):
            if opponent_placed:
                for a in plays:
                    c = card(state, a["card"])
                    if c["kind"] == "spell" and c["support"] == wanted:
                        return a
        return {"type": "pass_support"}
    for goal in (WIN, DRAW):
        fixes = [a for a in plays if result(a)[0] == goal and (goal > current)]
        if fixes:
            return min(fixes, key=lambda a: (is_spirit(state, a["card"]), a["card"]))
    if current == LOSS:
        for a in plays:
            if result(a)[1]:
                return a
    return {"type": "pass_support"}


def _keep_value(state: State, seat: int, cid: str) -> tuple[int, int, str]:
    c = card(state, cid)
    if c["kind"] == "spell":
        return (0, SPELL_KEEP[c["support"]], cid)
    counts = Counter(card(state, h)["element"] for h in state["hands"][seat] if is_spirit(state, h))
    return (1, -counts[c["element"]], cid)


def _strength(state: State, seat: int) -> float:
    value = 0.0
    for cid in state["hands"][seat]:
        value += SPIRIT_WEIGHT if is_spirit(state, cid) else SPELL_WEIGHT
    battle = state["battle"]
    if (
        battle is not None
        and seat in battle["sides"]
        and battle["summon"][battle["sides"].index(seat)] is not None
    ):
        value += SPIRIT_WEIGHT
    return value


def evaluate(state: State, seat: int) -> float:
    """How good ``state`` is for ``seat``, in [-1, 1] (+1 a won war, -1 a lost one).

    Meant for determinized states of the search bot: it reads every hand as dealt there."""
    if ENGINE.is_terminal(state):
        return float(ENGINE.returns(state)[seat])
    if state["out"][seat]:
        return -1.0
    mine = _strength(state, seat)
    others = sum(_strength(state, s) for s in survivors(state) if s != seat)
    total = mine + others
    if total <= 0:
        return 0.0
    share = mine / total
    return max(-0.95, min(0.95, 2.0 * share - 1.0))
