"""The heuristic bot: the engine's own greedy policy when it has one, else a generic one-ply
lookahead; and the random source every bot draws from.

An engine package may ship ``minigames/engines/<slug>/heuristic.py`` with either or both of

* ``heuristic_action(state, seat, rng) -> action``: a greedy, documented policy of that game
  (``rng`` is a :class:`BotRandom`: a ``random.Random`` that also offers
  :class:`~westernroses.rng.RandomSource`'s ``randbelow`` and ``d6``);
* ``evaluate(state, seat) -> float``: how well ``seat`` stands, from -1 (lost) to +1 (won), used
  by the search bot at the leaves of its tree and by the fallback below.

Both receive a *determinized* state (everything hidden from ``seat`` dealt anew), never the
real one, so a careless heuristic cannot peek at another seat's hand.

The generic fallback (:func:`greedy_action`), for an engine without ``heuristic_action``: try
every legal move in the same few sampled worlds (common random numbers, so moves are compared
on equal luck) and keep the one with the best mean outcome for the seat, where the outcome of a
move is the game's result if it ends the game, else ``evaluate`` if the engine has it, else a
short random playout (its result, or 0 if it has not ended within :data:`PLAYOUT_MOVES`).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from westernroses.protocol import Action, GameEngine, Seat

#: Moves a fallback playout may last before it counts as a draw.
PLAYOUT_MOVES = 60
#: Engine moves the fallback may simulate per decision (bounds its think time).
FALLBACK_WORK = 3000
#: Sampled worlds per legal move at most.
FALLBACK_WORLDS = 8

ActionFn = Callable[[Any, Seat, random.Random], Mapping[str, Any]]
EvaluateFn = Callable[[Any, Seat], float]
#: ``fold_actions(state, seat, actions)``: for each action, the index of the one that plays
#: alike and stands for it in the search (see :class:`Heuristics`).
FoldFn = Callable[[Any, Seat, list[Action]], list[int]]


class BotRandom(random.Random):
    """A seeded ``random.Random`` that also speaks :class:`~westernroses.rng.RandomSource`'s
    ``randbelow``/``d6``, so an engine's heuristic may use either vocabulary."""

    def randbelow(self, n: int) -> int:
        return self.randrange(n)

    def d6(self) -> int:
        return self.randint(1, 6)


@dataclass(frozen=True)
class Heuristics:
    """What an engine's ``heuristic`` module offers (any may be missing).

    Besides ``heuristic_action`` and ``evaluate``, a module may offer, for the search only:
    ``search_action`` (the policy of the guided playouts and of the prior, handed a world the
    search has already dealt, so it may skip what ``heuristic_action`` does not to peek;
    default: ``heuristic_action``), ``search_evaluate`` (scores the search's leaves and cut
    playouts; default: ``evaluate``), ``search_settings`` (a mapping of
    :class:`~minigames.bots.search.SearchSettings` fields that the engine's strongest search
    uses instead of the defaults) and ``fold_actions`` (``fold``: lets the search bot try only
    one of several moves that play alike (Spirit War: any Fire Spirit summoned is as good as
    another); it must be a function of what the seat sees, so the kept move is the same in
    every world dealt). The heuristic bot never uses them.
    """

    action: ActionFn | None = None
    evaluate: EvaluateFn | None = None
    search_action: ActionFn | None = None
    search_evaluate: EvaluateFn | None = None
    search_settings: Mapping[str, Any] | None = None
    fold: FoldFn | None = None

    @classmethod
    def from_module(cls, module: ModuleType | Any | None) -> Heuristics:
        if module is None:
            return cls()
        return cls(
            getattr(module, "heuristic_action", None),
            getattr(module, "evaluate", None),
            getattr(module, "search_action", None),
            getattr(module, "search_evaluate", None),
            getattr(module, "search_settings", None),
            getattr(module, "fold_actions", None),
        )


def heuristics_for(engine: GameEngine[Any]) -> Heuristics:
    """The heuristics in ``minigames.engines.<slug>.heuristic``, or none when that module does
    not exist (an import error inside an existing module is not hidden)."""
    name = f"minigames.engines.{engine.slug}.heuristic"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and name.startswith(exc.name):
            return Heuristics()
        raise
    return Heuristics.from_module(module)


def clamp(value: float) -> float:
    """``value`` within [-1, 1] (an evaluation outside it would distort the search's means)."""
    return max(-1.0, min(1.0, float(value)))


def playout(
    engine: GameEngine[Any],
    state: Any,
    rng: random.Random,
    *,
    max_moves: int | None,
    evaluate: EvaluateFn | None = None,
    policy: ActionFn | None = None,
    epsilon: float = 0.0,
) -> tuple[list[float], int]:
    """Play uniformly random legal moves from ``state`` until the game ends or ``max_moves``
    were played; the per-seat outcome (returns, else ``evaluate``, else zeros) and the number
    of moves played. Of several seats waited on at once, a random one that can move moves.

    With a ``policy`` (an engine's ``heuristic_action``) the moves are the policy's, except a
    uniformly random one with probability ``epsilon`` (so the playouts of one position differ).
    """
    moves = 0
    seats = len(engine.returns(state))
    while not engine.is_terminal(state):
        if max_moves is not None and moves >= max_moves:
            break
        waiting = list(engine.waiting_on(state))
        rng.shuffle(waiting)
        for seat in waiting:
            actions = engine.legal_actions(state, seat)
            if actions:
                if policy is not None and len(actions) > 1 and rng.random() >= epsilon:
                    action = policy(state, seat, rng)
                else:
                    action = actions[rng.randrange(len(actions))]
                state, _ = engine.apply(state, seat, action)
                moves += 1
                break
        else:
            raise RuntimeError(
                f"{engine.title}: seats {waiting} are waited on but none has a legal move."
            )
    if engine.is_terminal(state):
        return [float(r) for r in engine.returns(state)], moves
    if evaluate is None:
        return [0.0] * seats, moves
    return [clamp(evaluate(state, seat)) for seat in range(seats)], moves


def greedy_action(
    engine: GameEngine[Any],
    state: Any,
    seat: Seat,
    rng: random.Random,
    *,
    evaluate: EvaluateFn | None = None,
) -> Action:
    """The generic one-ply greedy move (see the module docstring)."""
    actions = engine.legal_actions(state, seat)
    if len(actions) == 1:
        return actions[0]
    per_world = PLAYOUT_MOVES if evaluate is None else 1
    worlds = max(1, min(FALLBACK_WORLDS, FALLBACK_WORK // (len(actions) * per_world)))
    samples = [engine.determinize(state, seat, rng.randrange(2**53)) for _ in range(worlds)]
    playout_seeds = [rng.randrange(2**32) for _ in range(worlds)]
    best: list[Action] = []
    best_score = float("-inf")
    for action in actions:
        score = 0.0
        for world, playout_seed in zip(samples, playout_seeds, strict=True):
            after, _ = engine.apply(world, seat, action)
            if engine.is_terminal(after):
                score += float(engine.returns(after)[int(seat)])
            elif evaluate is not None:
                score += clamp(evaluate(after, seat))
            else:
                outcome, _ = playout(
                    engine, after, random.Random(playout_seed), max_moves=PLAYOUT_MOVES
                )
                score += outcome[int(seat)]
        if score > best_score + 1e-9:
            best, best_score = [action], score
        elif abs(score - best_score) <= 1e-9:
            best.append(action)
    return best[rng.randrange(len(best))]
