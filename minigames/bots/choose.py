"""What a bot seat plays, and what the practice-table advisor says: the bots' public API.

Three strengths behind one function, :func:`choose_action`:

* ``"random"``: a uniformly random legal move;
* ``"heuristic"``: the engine's ``heuristic_action`` if its package has one, else the generic
  one-ply greedy move (:mod:`minigames.bots.heuristics`);
* ``"search"``: OpenSpiel's ISMCTS (:mod:`minigames.bots.search`) at :data:`STRONG` settings,
  stopped by ``time_limit`` if the simulations take longer.

Every strength is deterministic for a given seed (the search as long as the simulation count,
not the clock, ends it; ``time_limit=None`` makes that certain). No strength looks at what the
seat may not see: the search and the heuristics only ever play in worlds re-dealt by the
engine's ``determinize``.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from minigames.bots.adapter import canonical, load_game
from minigames.bots.heuristics import BotRandom, Heuristics, greedy_action, heuristics_for
from minigames.bots.search import SearchSettings, make_bot, seeds, strong_settings
from westernroses.protocol import Action, GameEngine, Seat

Strength = Literal["random", "heuristic", "search"]
STRENGTHS: tuple[Strength, ...] = ("random", "heuristic", "search")
#: Seconds a bot may think per move (issue 12: at most 2 s at the strongest setting); the
#: search stops a little early so the whole call, set-up included, stays within it.
DEFAULT_TIME_LIMIT = 2.0
_SEARCH_SHARE = 0.9


class Advice(TypedDict):
    """The advisor's word on one legal move."""

    action: Action
    #: The search's estimated chance of winning after this move (a draw counts half).
    win_chance: float
    #: Simulations that went through this move (how much the estimate rests on).
    visits: int


def _legal(engine: GameEngine[Any], state: Any, seat: Seat) -> list[Action]:
    if seat not in engine.waiting_on(state):
        raise ValueError(f"{engine.title}: seat {seat} is not asked to act now.")
    actions = engine.legal_actions(state, seat)
    if not actions:
        raise ValueError(f"{engine.title}: seat {seat} has no legal move.")
    return actions


def choose_action(
    engine: GameEngine[Any],
    state: Any,
    seat: Seat,
    strength: Strength,
    seed: int,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    *,
    settings: SearchSettings | None = None,
    heuristics: Heuristics | None = None,
) -> Action:
    """The move ``seat`` plays at ``strength`` (one of its legal actions, as JSON).

    ``settings`` overrides the search's (tests use fewer simulations); ``heuristics`` overrides
    the lookup of ``minigames.engines.<slug>.heuristic`` (a test game brings its own).
    """
    actions = _legal(engine, state, seat)
    rng = BotRandom(seeds(seed, 1)[0])
    if strength == "random":
        return actions[rng.randrange(len(actions))]
    found = heuristics if heuristics is not None else heuristics_for(engine)
    if strength == "heuristic":
        if len(actions) == 1:
            return actions[0]
        world = engine.determinize(state, seat, rng.randrange(2**53))
        if found.action is None:
            return greedy_action(engine, world, seat, rng, evaluate=found.evaluate)
        chosen = dict(found.action(world, seat, rng))
        if canonical(chosen) not in {canonical(a) for a in actions}:
            raise ValueError(
                f"{engine.title}: the heuristic chose an illegal move ({canonical(chosen)})."
            )
        return chosen
    if strength != "search":
        raise ValueError(f"Unknown bot strength {strength!r}; choose one of {STRENGTHS}.")
    game = load_game(engine, len(engine.returns(state)))
    root = game.state_from_engine(state, leader=seat)
    bot = make_bot(
        game,
        settings=settings or strong_settings(found),
        heuristics=found,
        seed=seed,
        time_limit=None if time_limit is None else time_limit * _SEARCH_SHARE,
    )
    return game.action(int(bot.step(root)))


def advise(
    engine: GameEngine[Any],
    state: Any,
    seat: Seat,
    *,
    seed: int = 0,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    settings: SearchSettings | None = None,
    heuristics: Heuristics | None = None,
) -> list[Advice]:
    """For each of ``seat``'s legal moves (in the engine's order), the search bot's estimated
    chance of winning after it, in [0, 1]: the mean return of the simulations through that
    move, mapped from [-1, 1] (a loss, a draw counting half, a win)."""
    actions = _legal(engine, state, seat)
    game = load_game(engine, len(engine.returns(state)))
    root = game.state_from_engine(state, leader=seat)
    found = heuristics if heuristics is not None else heuristics_for(engine)
    bot = make_bot(
        game,
        settings=settings or strong_settings(found),
        heuristics=found,
        seed=seed,
        time_limit=None if time_limit is None else time_limit * _SEARCH_SHARE,
        advisor=True,
    )
    bot.run_search(root)
    children = bot.root.child_info if bot.root is not None else {}
    advice: list[Advice] = []
    for action, action_id in zip(actions, root.legal_actions(), strict=True):
        child = children.get(action_id)
        visits = 0 if child is None else int(child.visits)
        mean = 0.0 if child is None or not visits else float(child.value())
        win_chance = min(1.0, max(0.0, (mean + 1.0) / 2.0))
        advice.append({"action": action, "win_chance": win_chance, "visits": visits})
    return advice
