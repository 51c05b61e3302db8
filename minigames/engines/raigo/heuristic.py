"""A greedy RAIGO policy and a position evaluator for the bots.

``evaluate(state, seat)`` scores a position for ``seat``'s side in [-1, 1]: Yang balls banked
plus what the side's towers promise (a tower already holding a hand counts most of its points;
an Unsettled Tower counts as the Yang ball it will cost; a short tower whose first tokens can
still grow into a hand counts a little), minus the same for the best opposing side, with a
penalty for five full spaces (the Forbiddance threat); squashed with ``tanh``. It reads
the whole state it is given, so a search should give it a determinized state.

``heuristic_action(state, seat, rng)`` is the "heuristic" bot: it deals the hidden tokens anew
for ``seat`` (so it never peeks), tries every legal action once on that deal and keeps the one
``evaluate`` likes best (ties broken by ``rng``). Answers to spells are rules of thumb: Shield
whenever possible, Roar a Discharge onto her best tower when that tower holds a hand, otherwise
let the spell happen.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from minigames.engines.raigo import actions, views
from minigames.engines.raigo.board import Json, inner_count, player, sides, team_of
from minigames.engines.raigo.engine import ENGINE
from minigames.engines.raigo.resolution import returns, score_tokens
from minigames.engines.raigo.tokens import weight

#: Differences of about this many Yang balls move the evaluation most of the way to +-1.
SCALE = 4.0


def tower_promise(tokens: Sequence[str]) -> float:
    """What a tower is worth now, in Yang balls, before it is resolved."""
    if not tokens:
        return 0.0
    score = score_tokens(list(tokens))
    if score.unsettled:
        return -1.0
    if len(tokens) >= 3:
        # A settled tower without a hand scores nothing but costs nothing: a place to dump.
        return 0.8 * score.total if score.hand else -0.1
    if len(tokens) == 1:
        return 0.1
    step = weight(tokens[0]) - weight(tokens[1])
    return 0.4 if step in (0, 1, 2) else -0.1


def side_value(state: Json, side: Sequence[int]) -> float:
    value = 0.0
    for seat in side:
        p = player(state, seat)
        value += p["balls"]
        value += sum(tower_promise(t) for t in p["towers"])
        if inner_count(p) >= 5:
            # Forbiddance at her next Select costs a ball, and the last ball loses the game.
            value -= 1.2 if p["balls"] > 1 else 3.0
    return value


def evaluate(state: Json, seat: int) -> float:
    """``seat``'s prospects in [-1, 1] (the game's returns once it is over)."""
    if state["over"]:
        return returns(state)[seat]
    mine = team_of(state, seat)
    others = [s for s in sides(state) if seat not in s]
    diff = side_value(state, mine) - max(side_value(state, s) for s in others)
    return math.tanh(diff / SCALE)


def _answer(state: Json, seat: int, options: list[Json]) -> Json:
    shields = [o for o in options if o["type"] == "shield"]
    if shields:
        return shields[0]
    if state["prompt"]["effect"] == "discharge":
        towers = player(state, seat)["towers"]
        best = None
        best_points = 0
        for option in options:
            if option["type"] == "roar":
                score = score_tokens(towers[option["tower"]])
                if score.hand and score.total > best_points:
                    best, best_points = option, score.total
        if best is not None:
            return best
    return {"type": "decline"}


def heuristic_action(state: Json, seat: int, rng: random.Random) -> Json:
    """The greedy bot's move for ``seat`` (which must be waited on)."""
    options = actions.legal_actions(state, seat)
    if not options:
        raise ValueError("This seat has nothing to do now.")
    if len(options) == 1:
        return options[0]
    if state["prompt"]["kind"] == "react":
        return _answer(state, seat, options)
    deal = views.determinize(ENGINE.to_json(state), seat, rng.randrange(2**53))
    best: list[Json] = []
    best_value = -math.inf
    for option in options:
        after, _ = ENGINE.apply(deal, seat, option)
        value = evaluate(after, seat)
        if value > best_value + 1e-9:
            best, best_value = [option], value
        elif abs(value - best_value) <= 1e-9:
            best.append(option)
    choice: Json = rng.choice(best)
    return choice


def random_action(state: Json, seat: int, rng: random.Random) -> dict[str, Any]:
    """The random bot: a uniformly random legal action."""
    choice: dict[str, Any] = rng.choice(actions.legal_actions(state, seat))
    return choice
