"""The search bot: OpenSpiel's information-set MCTS over the adapter, with a time budget.

``ISMCTSBot`` (Cowling, Powley and Whitehouse 2011, as OpenSpiel implements it) samples, for
each simulation, one world consistent with what the acting seat knows
(``resample_from_infostate`` → the engine's ``determinize``), walks the tree of information
sets with UCT, adds one node and scores it with an evaluator; after the simulations it plays the
most visited move. This module only adds three things around it:

* **Evaluators** (OpenSpiel's ``Evaluator`` interface): :class:`RolloutEvaluator` plays random
  moves on the engine itself (faster than through the adapter) to the end of the game, or for a
  bounded number of moves then asks the engine's ``evaluate``; :class:`HeuristicEvaluator`
  scores the leaf with the engine's ``evaluate`` at once. ``"auto"`` picks the heuristic one
  when the engine has ``evaluate``.
* **A time budget**: :class:`BudgetedISMCTSBot` stops starting simulations when the slowest one
  so far would no longer fit in the time left, so a move never takes much longer than
  ``time_limit`` (the advisor first tries every move once). With ``time_limit=None`` only the
  simulation count bounds it and the search is a pure function of its seed.
* **Seeds**: the tree policy, the evaluator and the world sampler each get a NumPy random state
  derived from one integer seed, so a search is reproducible.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from minigames.bots.adapter import EngineGame, EngineState
from minigames.bots.heuristics import ActionFn, EvaluateFn, FoldFn, Heuristics, clamp, playout

EvaluatorKind = Literal["auto", "rollout", "guided", "heuristic"]
FinalPolicy = Literal["max_visit_count", "max_value"]
NodeKey = Literal["mover", "searcher"]
_FINAL_POLICIES = {
    "max_visit_count": ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    "max_value": ismcts.ISMCTSFinalPolicyType.MAX_VALUE,
}


@dataclass(frozen=True)
class SearchSettings:
    """How hard the search bot thinks.

    ``simulations``: ISMCTS simulations per move (the deterministic bound);
    ``uct_c``: UCT's exploration constant (returns lie in [-1, 1]; 1.0 won more games of Prize
    Bids against random than 2.0 at both 100 and 300 simulations: 71% and 69% against 65.5% and
    64%);
    ``evaluator``: ``"rollout"`` (random playouts), ``"heuristic"`` (the engine's ``evaluate``
    at the leaf), ``"guided"`` (playouts by the engine's ``search_action`` or
    ``heuristic_action``, then ``search_evaluate`` or ``evaluate``; PUCT with the policy's move
    favoured) or ``"auto"`` (the richest the engine allows); ``rollouts``: playouts per leaf;
    ``rollout_moves``: a random playout's length cap (None: to the end of the game), after
    which ``evaluate`` (or a draw) scores it; ``guided_moves``: a guided playout's length (8:
    RAIGO won 6 of 6, RSO 9 of 10 games against random at 32 simulations; 0, the leaf alone,
    only 7 of 8 and 7 of 10; longer playouts cost more than they gave; None: to the end of the
    game); ``epsilon``: the chance of a random move in a guided playout; ``prior_weight``: the
    prior's weight on the policy's move; ``final_policy``: the move played, the most visited
    (``"max_visit_count"``) or the one with the best mean return (``"max_value"``);
    ``max_world_samples``: how many worlds are dealt per search, each later simulation
    replaying one of them (-1: a fresh one each simulation); ``fold``: try only one of
    several moves that play alike when the engine's heuristic module says which
    (``fold_actions``; not in the advisor, which owes every move an estimate);
    ``node_key``: what names a node of the tree, the information state of the seat to move
    (``"mover"``, OpenSpiel's own) or of the searching seat (``"searcher"``: single-observer
    ISMCTS; see :meth:`BudgetedISMCTSBot.get_state_key`); ``paired_worlds``: when above 0,
    a guided leaf is scored by that many playouts, each in a world the engine deals anew for
    the searching seat from the leaf, with the same seeds at every leaf of one search, so
    that two moves are compared on the same deals (common random numbers;
    :class:`RolloutEvaluator`). An engine's
    ``search_settings`` may change any of them for its strongest search (:func:`strongest`).
    """

    simulations: int = 1000
    uct_c: float = 1.0
    evaluator: EvaluatorKind = "auto"
    rollouts: int = 1
    rollout_moves: int | None = None
    guided_moves: int | None = 8
    epsilon: float = 0.2
    prior_weight: float = 0.5
    final_policy: FinalPolicy = "max_visit_count"
    max_world_samples: int = -1
    fold: bool = True
    node_key: NodeKey = "mover"
    paired_worlds: int = 0

    def with_simulations(self, simulations: int) -> SearchSettings:
        return replace(self, simulations=simulations)


#: The strongest setting, used by the "search" strength and the advisor (an engine may tune
#: it: :func:`strongest`).
STRONG = SearchSettings()


def strongest(heuristics: Heuristics) -> SearchSettings:
    """:data:`STRONG`, with the fields the engine's heuristic module sets in its
    ``search_settings`` (RAIGO's, for one: docs/bots.md)."""
    return replace(STRONG, **dict(heuristics.search_settings or {}))


class RolloutEvaluator(mcts.Evaluator):  # type: ignore[misc]  # open_spiel ships no type hints
    """Random playouts on the engine from the leaf (:func:`minigames.bots.heuristics.playout`)."""

    def __init__(
        self,
        random_state: np.random.RandomState,
        *,
        rollouts: int = 1,
        max_moves: int | None = None,
        evaluate: EvaluateFn | None = None,
        policy: ActionFn | None = None,
        epsilon: float = 0.0,
        prior_weight: float = 0.0,
        fold: FoldFn | None = None,
        paired_worlds: int = 0,
    ) -> None:
        self._random_state = random_state
        #: The seeds of the paired worlds, drawn once per search (so common to its leaves).
        self._paired = [int(random_state.randint(2**31)) for _ in range(paired_worlds)]
        #: The searching seat, set by the bot before it searches (paired worlds are dealt
        #: from what she sees).
        self.searcher: int | None = None
        #: Paired scores by what the searcher sees at the leaf: a leaf she cannot tell from
        #: one already scored deals the same worlds, so it scores the same.
        self._scored: dict[str, np.ndarray[Any, np.dtype[np.float64]]] = {}
        self._fold = fold
        self._prior_weight = prior_weight
        self._rollouts = rollouts
        self._max_moves = max_moves
        self._evaluate = evaluate
        self._policy = policy
        self._epsilon = epsilon
        self.moves = 0

    def evaluate(self, state: EngineState) -> np.ndarray[Any, np.dtype[np.float64]]:
        if self._paired and self.searcher is not None:
            return self._evaluate_paired(state, self.searcher)
        engine = state.wr_game.engine
        total = np.zeros(state.wr_game.seats)
        for _ in range(self._rollouts):
            seed = int(self._random_state.randint(2**31))
            total += self._playout(engine, state.engine_state, seed)
        result: np.ndarray[Any, np.dtype[np.float64]] = total / self._rollouts
        return result

    def _evaluate_paired(
        self, state: EngineState, searcher: int
    ) -> np.ndarray[Any, np.dtype[np.float64]]:
        """The mean outcome of one playout in each paired world: the hidden cards dealt anew
        for ``searcher`` from the leaf with this search's fixed seeds.

        Why: a single playout's result is mostly the deal still to come, so two moves scored
        in different worlds differ by luck far more than by their worth. Dealt with the same
        seeds from leaves that look alike to the searcher (her own move is all that differs),
        the worlds are the same for every move (the engine's ``determinize`` deals from what
        the seat sees, in a fixed order), and the difference between two moves' scores is
        what the moves did. The playouts' own random sources are seeded alike too."""
        if state.is_terminal():
            return np.array(state.returns())
        engine = state.wr_game.engine
        inner = state.engine_state
        seen = state.information_state_string(searcher)
        known = self._scored.get(seen)
        if known is not None:
            return known
        total = np.zeros(state.wr_game.seats)
        for seed in self._paired:
            total += self._playout(engine, engine.determinize(inner, searcher, seed), seed)
        result: np.ndarray[Any, np.dtype[np.float64]] = total / len(self._paired)
        self._scored[seen] = result
        return result

    def _playout(self, engine: Any, inner: Any, seed: int) -> list[float]:
        """One playout of this evaluator's kind from ``inner``, its random source seeded by
        ``seed``; the per-seat outcome."""
        outcome, moves = playout(
            engine,
            inner,
            random.Random(seed),
            max_moves=self._max_moves,
            evaluate=self._evaluate,
            policy=self._policy,
            epsilon=self._epsilon,
        )
        self.moves += moves
        return outcome

    @property
    def folds(self) -> bool:
        """Whether moves are folded (then a prior of 0 means "never try it")."""
        return self._fold is not None

    def _folded(self, state: EngineState) -> list[int] | None:
        """For each legal action, the index of the one that stands for it (``fold``), or None
        when nothing is folded (no ``fold``, or one legal move)."""
        if self._fold is None or len(state.legal_actions()) == 1:
            return None
        return self._fold(state.engine_state, state.current_player(), state.legal_json())

    def searched(self, state: EngineState) -> list[int]:
        """The legal action ids the search tries: all, or with ``fold`` one of each set of
        moves that play alike."""
        legal = state.legal_actions()
        folded = self._folded(state)
        if folded is None:
            return legal
        kept = set(folded)
        return [action for i, action in enumerate(legal) if i in kept]

    def prior(self, state: EngineState) -> list[tuple[int, float]]:
        """Uniform, or with a policy: ``prior_weight`` on the policy's move and the rest shared
        by all (PUCT then explores the engine's own choice first). With ``fold``, the moves
        folded into another get prior 0 and are never tried (:meth:`BudgetedISMCTSBot.check_expand`)
        and the policy's move counts as the one it is folded into."""
        legal = state.legal_actions()
        folded = self._folded(state)  # asked once: it runs at every node the search adds
        searched = set(legal) if folded is None else {legal[i] for i in folded}
        if self._policy is None or len(searched) == 1:
            return [(a, 1.0 / len(searched) if a in searched else 0.0) for a in legal]
        rng = random.Random(int(self._random_state.randint(2**31)))
        seat = state.current_player()
        favourite = state.wr_game.action_id(self._policy(state.engine_state, seat, rng))
        if folded is not None:
            favourite = legal[folded[legal.index(favourite)]]
        share = (1.0 - self._prior_weight) / len(searched)
        return [
            (a, share + (self._prior_weight if a == favourite else 0.0) if a in searched else 0.0)
            for a in legal
        ]


class HeuristicEvaluator(mcts.Evaluator):  # type: ignore[misc]  # open_spiel ships no type hints
    """The engine's ``evaluate(state, seat)`` for every seat, at the leaf itself."""

    def __init__(self, evaluate: EvaluateFn) -> None:
        self._evaluate = evaluate

    def evaluate(self, state: EngineState) -> np.ndarray[Any, np.dtype[np.float64]]:
        if state.is_terminal():
            return np.array(state.returns())
        inner = state.engine_state
        return np.array([clamp(self._evaluate(inner, seat)) for seat in range(state.wr_game.seats)])

    def prior(self, state: EngineState) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


class BudgetedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]  # open_spiel ships no type hints
    """OpenSpiel's ``ISMCTSBot`` whose search loop also watches the clock.

    ``run_search`` is OpenSpiel's loop (sample a root world, assert it is in the same
    information set, run one simulation) with two changes: it stops early when the slowest
    simulation so far would overrun ``time_limit``, and the advisor's search (``advisor=True``)
    also searches a forced move and tries every root move once before it stops (it owes an
    estimate for each). The bot's own search stops after two simulations at the earliest (the
    first only scores the root; the second gives it a child to play).
    """

    def __init__(
        self,
        game: EngineGame,
        evaluator: mcts.Evaluator,
        *,
        settings: SearchSettings,
        random_state: np.random.RandomState,
        time_limit: float | None,
        advisor: bool = False,
        puct: bool = False,
    ) -> None:
        super().__init__(
            game,
            evaluator,
            settings.uct_c,
            settings.simulations,
            max_world_samples=settings.max_world_samples,
            random_state=random_state,
            final_policy_type=_FINAL_POLICIES[settings.final_policy],
            child_selection_policy=(
                ismcts.ChildSelectionPolicy.PUCT if puct else ismcts.ChildSelectionPolicy.UCT
            ),
            # another seat's node named by what the searcher sees holds, across the worlds
            # dealt, whatever moves her dealt hands allow
            allow_inconsistent_action_sets=settings.node_key == "searcher",
        )
        self._node_key = settings.node_key
        self._searcher: int | None = None
        self._time_limit = time_limit
        self._advisor = advisor
        self.simulations_run = 0
        self.root: ismcts.ISMCTSNode | None = None

    def run_search(self, state: EngineState) -> list[tuple[int, float]]:
        self.reset()
        self.simulations_run = 0
        legal = state.legal_actions()
        searched = getattr(self._evaluator, "searched", None)
        if not self._advisor and searched is not None:
            legal = searched(state)
        if len(legal) == 1 and not self._advisor:
            return [(legal[0], 1.0)]
        mandatory = len(legal) + 1 if self._advisor else 2
        self._searcher = state.current_player()
        if isinstance(self._evaluator, RolloutEvaluator):
            self._evaluator.searcher = self._searcher
        start = time.perf_counter()
        slowest = 0.0
        root = self.root = self._root_node = self.create_new_node(state)
        root_key = self.get_state_key(state)
        # the advisor owes every root move an estimate, even past a small simulation count
        limit = max(self._max_simulations, mandatory) if self._advisor else self._max_simulations
        for done in range(limit):
            if self._time_limit is not None and done >= mandatory:
                elapsed = time.perf_counter() - start
                if elapsed + slowest > self._time_limit:
                    break
            began = time.perf_counter()
            world = self.sample_root_state(state)
            if self.get_state_key(world) != root_key:
                raise RuntimeError("determinize dealt a world the seat can tell apart from hers")
            self.run_simulation(world)
            slowest = max(slowest, time.perf_counter() - began)
            self.simulations_run = done + 1
        policy: list[tuple[int, float]] = self.get_final_policy(state, root)
        return policy

    def get_state_key(self, state: EngineState) -> tuple[int, str]:
        """The name of ``state``'s node: OpenSpiel's, the seat to move and her information
        state, or with ``node_key="searcher"`` the seat to move and what the searching seat
        knows there.

        OpenSpiel's name is right for the searcher's own nodes, but another seat's information
        state holds her hand as the world being searched dealt it: a node of hers is new in
        almost every world, is scored as a leaf on its first visit, and the searcher's own
        later decisions are seldom reached. Named by what the searcher sees (Cowling, Powley
        and Whitehouse's single-observer ISMCTS), the other seat's node is shared by every
        world that looks the same to the searcher, her moves (the greedy policy favoured by
        the prior) are compared across those worlds, and the tree goes on below them."""
        if self._node_key == "searcher" and self._searcher is not None:
            return state.current_player(), state.information_state_string(self._searcher)
        key: tuple[int, str] = super().get_state_key(state)
        return key

    def check_expand(self, node: ismcts.ISMCTSNode, legal_actions: list[int]) -> int:
        """OpenSpiel's, except that a move with prior 0 (folded into another that plays alike)
        is never expanded, so the simulations go to the moves that differ."""
        if getattr(self._evaluator, "folds", False):
            legal_actions = [a for a in legal_actions if node.prior_map.get(a, 1.0) > 0.0]
        found: int = super().check_expand(node, legal_actions)
        return found


def seeds(seed: int, count: int) -> list[int]:
    """``count`` independent 32-bit seeds derived from one integer seed."""
    return [int(s) for s in np.random.SeedSequence(abs(int(seed))).generate_state(count)]


def make_bot(
    game: EngineGame,
    *,
    settings: SearchSettings,
    heuristics: Heuristics,
    seed: int,
    time_limit: float | None,
    advisor: bool = False,
    sees_all: bool = False,
) -> BudgetedISMCTSBot:
    """An ISMCTS bot over ``game`` with the evaluator ``settings`` ask for, fully seeded.

    ``sees_all``: an upper bound for measurements: this bot cheats. Every simulation searches
    the true state (every hand, the deck order, the engine's random source) instead of a world
    dealt by ``determinize``. Only ``python -m minigames.bots.measure --sees-all`` sets it, to
    bound what any fair search at the same settings could win; :func:`choose_action` and the
    advisor never pass it, so no table's bot can cheat.
    """
    tree_seed, eval_seed, world_seed = seeds(seed, 3)
    kind = settings.evaluator
    if kind == "auto":
        if heuristics.evaluate is None:
            kind = "rollout"
        else:
            kind = "heuristic" if heuristics.action is None else "guided"
    evaluator: mcts.Evaluator
    if kind == "guided":
        if heuristics.action is None or heuristics.evaluate is None:
            raise ValueError(f"{game.engine.title} has no heuristic to guide playouts with.")
        evaluator = RolloutEvaluator(
            np.random.RandomState(eval_seed),
            rollouts=settings.rollouts,
            max_moves=settings.guided_moves,
            evaluate=heuristics.search_evaluate or heuristics.evaluate,
            policy=heuristics.search_action or heuristics.action,
            epsilon=settings.epsilon,
            prior_weight=settings.prior_weight,
            fold=heuristics.fold if settings.fold and not advisor else None,
            paired_worlds=settings.paired_worlds,
        )
    elif kind == "heuristic":
        if heuristics.evaluate is None:
            raise ValueError(f"{game.engine.title} has no heuristic evaluation to search with.")
        evaluator = HeuristicEvaluator(heuristics.evaluate)
    else:
        evaluator = RolloutEvaluator(
            np.random.RandomState(eval_seed),
            rollouts=settings.rollouts,
            max_moves=settings.rollout_moves,
            evaluate=heuristics.evaluate,
        )
    bot = BudgetedISMCTSBot(
        game,
        evaluator,
        settings=settings,
        random_state=np.random.RandomState(tree_seed),
        time_limit=time_limit,
        advisor=advisor,
        puct=kind == "guided" and settings.prior_weight > 0,
    )
    if sees_all:
        bot.set_resampler(lambda state, player: state.clone())
        return bot
    worlds = np.random.RandomState(world_seed)
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, worlds.uniform))
    return bot
