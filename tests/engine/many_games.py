"""Bot-against-bot games checked as they are played: the one driver of every engine's
many-game property (tests/engine/<game>/test_many_games.py).

:func:`play_checked_game` plays one game between cheap bots (the random bot, and the engine's
greedy ``heuristic_action`` on the true state: the policy the heuristic bot plays, which reads
only what its seat may see; re-dealing a world for every move would cost a fifth of the run) and
checks, as the game goes:

* **every step**: every card or token in exactly one place (``check_places``); somebody is
  waited on and every seat waited on has a legal move; the bot's move applies (a legal move is
  never refused); no event a seat (or a spectator) may see names an id hidden from her;
* **probe steps** (every ``probe_every``-th, from an offset drawn from the seed, so many games
  probe every kind of step): no id hidden from a seat or a spectator is in her view, nor the
  seed; every move offered to every seat waited on applies; a move with a field it does not
  have, and the mover's move sent by a seat not waited on, are refused with a reason and leave
  the state as it was; ``determinize`` for each seat keeps who is waited on and deals no world
  in which a seat waited on has no legal move (the search bot plays in those worlds);
* **at the end**: the game is over with returns for every seat, and replaying the log from the
  first state gives the final state byte for byte.

:func:`size` is how many games a test plays: a few hundred per engine in ``make test`` (enough
for every rule: each test asserts from its :class:`Tally` that the probes reached every part of
the game), ten times as many in ``make soak`` (``HYPOTHESIS_PROFILE=soak``, the same checks;
docs/test-suite.md). The hypothesis strategies are fixed, so every xdist worker draws the same
games, and CI draws the same games every run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from minigames.bots import Strength, heuristics_for
from minigames.bots.heuristics import BotRandom
from tests.engine.conformance import canonical, written_in
from tests.soak import size
from westernroses.protocol import GameEngine, IllegalAction, Seat, event_visible, replay

#: The pairings two-seat games cycle through: random and heuristic bots on either seat.
PAIRINGS: tuple[tuple[Strength, Strength], ...] = (
    ("random", "random"),
    ("heuristic", "random"),
    ("random", "heuristic"),
    ("heuristic", "heuristic"),
)


@dataclass
class Tally:
    """What a run of games went through (so a test can show it probed what it claims)."""

    games: int = 0
    moves: int = 0
    probes: int = 0
    worlds: int = 0
    refusals: int = 0
    all_moves_tried: int = 0
    phases: set[str] = field(default_factory=set)
    outcomes: dict[str, int] = field(default_factory=dict)


def _no_hidden_in(text: str, hidden: set[str], who: Seat | None, what: str) -> None:
    """No hidden id, as a JSON string (quoted: ``"c-1"`` is not inside ``"c-12"``), in
    ``text``; in one pass over it (:func:`written_in`): this runs at every step."""
    shown = written_in(text, hidden)
    assert not shown, f"{what} of seat {who!r} shows hidden {shown!r}"


def _refused(
    engine: GameEngine[Any], state: Any, seat: Seat, action: Mapping[str, Any], before: str
) -> None:
    """``action`` is refused with a reason and ``state`` is still ``before`` (its JSON, taken
    once per probe: every move tried there is applied to the same state)."""
    try:
        engine.apply(state, seat, action)
    except IllegalAction as refusal:
        assert str(refusal), "a refusal says why"
    else:
        raise AssertionError(f"seat {seat!r} was allowed an illegal move {action!r}")
    assert canonical(engine.to_json(state)) == before, "a refused move changed the state"


def _probe(
    engine: GameEngine[Any],
    state: Any,
    seats: int,
    legal: Mapping[Seat, list[dict[str, Any]]],
    rng: BotRandom,
    tally: Tally,
) -> None:
    """The dear checks of one probe step (see the module)."""
    tally.probes += 1
    for viewer in [*range(seats), None]:
        text = canonical(engine.view(state, viewer))
        assert '"seed"' not in text, f"seat {viewer!r} can see the random seed"
        _no_hidden_in(text, engine.hidden_from(state, viewer), viewer, "the view")
    before = canonical(engine.to_json(state))
    for seat, offered in legal.items():
        for action in offered:
            engine.apply(state, seat, action)  # raises if a legal move is refused
            tally.all_moves_tried += 1
        _refused(engine, state, seat, {**offered[0], "__unknown_field__": 1}, before)
        tally.refusals += 1
        for other in range(seats):
            if other not in legal:
                _refused(engine, state, other, offered[0], before)
                tally.refusals += 1
    for seat in range(seats):
        world = engine.determinize(state, seat, rng.randrange(2**53))
        tally.worlds += 1
        assert engine.waiting_on(world) == tuple(legal), "determinize changed who is waited on"
        for waited in legal:
            assert engine.legal_actions(world, waited), (
                f"determinize for seat {seat} dealt seat {waited!r} no legal move"
            )


def play_checked_game(
    engine: GameEngine[Any],
    *,
    seed: int,
    bots: Sequence[Strength],
    check_places: Callable[[Any], None],
    tally: Tally,
    config: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    phase: Callable[[Any], str] = lambda state: str(state["phase"]),
    probe_every: int = 8,
    max_moves: int = 5000,
) -> Any:
    """Play one game, seat ``i`` played by ``bots[i]`` (``"random"`` or ``"heuristic"``),
    checking it (see the module); ``phase`` names the part of the game a state is in, for the
    tally. Returns the final state."""
    seats = len(bots)
    rng = BotRandom(seed)
    heuristic = heuristics_for(engine).action
    assert heuristic is not None, f"{engine.title} has no heuristic bot"
    initial = state = engine.new_game(seats=seats, seed=seed, options=options, config=config)
    log: list[tuple[Seat, dict[str, Any]]] = []
    offset = rng.randrange(probe_every)
    for move in range(max_moves):
        check_places(state)
        if engine.is_terminal(state):
            break
        tally.phases.add(phase(state))
        waiting = engine.waiting_on(state)
        assert waiting, "a running game waits on somebody"
        legal = {seat: engine.legal_actions(state, seat) for seat in waiting}
        for seat in waiting:
            assert legal[seat], f"seat {seat!r} is waited on with no move"
        if move % probe_every == offset:
            _probe(engine, state, seats, legal, rng, tally)
        seat = waiting[rng.randrange(len(waiting))]
        if bots[int(seat)] == "random" or len(legal[seat]) == 1:
            action = legal[seat][rng.randrange(len(legal[seat]))]
        else:
            action = dict(heuristic(state, seat, rng))
        state, events = engine.apply(state, seat, action)  # IllegalAction: a refused legal move
        log.append((seat, action))
        # the events each viewer sees, written once for all who see the same ones
        written: dict[tuple[int, ...], str] = {}
        for viewer in [*range(seats), None]:
            shown = tuple(i for i, ev in enumerate(events) if event_visible(ev, viewer))
            if shown:
                if shown not in written:
                    written[shown] = canonical([events[i] for i in shown])
                hidden = engine.hidden_from(state, viewer)
                _no_hidden_in(written[shown], hidden, viewer, "the events")
    else:
        raise AssertionError(f"the game did not end within {max_moves} moves")
    assert engine.waiting_on(state) == ()
    assert len(engine.returns(state)) == seats
    replayed = replay(engine, initial, log)
    assert canonical(engine.to_json(replayed)) == canonical(engine.to_json(state))
    tally.games += 1
    tally.moves += len(log)
    outcome = "draw" if set(engine.returns(state)) == {0.0} else "decided"
    tally.outcomes[outcome] = tally.outcomes.get(outcome, 0) + 1
    return state


def house_rules(engine: GameEngine[Any], *, numbers: bool = True) -> SearchStrategy[dict[str, Any]]:
    """Every house rule of ``engine`` drawn: a choice at each of its values, a number at its
    lowest, its default or its highest (``numbers=False``: at its default, for a game whose
    numbers are deck sizes that only lengthen the games)."""
    drawn: dict[str, SearchStrategy[Any]] = {}
    for rule in engine.house_rules():
        if rule.choices:
            drawn[rule.key] = st.sampled_from([value for value, _ in rule.choices])
        elif numbers:
            ends = {rule.minimum, rule.default, rule.maximum} - {None}
            drawn[rule.key] = st.sampled_from(sorted(ends))
        else:
            drawn[rule.key] = st.just(rule.default)
    return st.fixed_dictionaries(drawn)


def play_many(games: int, body: Callable[..., None], **strategies: SearchStrategy[Any]) -> int:
    """Run ``body`` once per game, hypothesis drawing its arguments from ``strategies``;
    :func:`size` of ``games`` examples. Returns that number, for the test's tally bars."""
    count = size(games)
    settings(
        max_examples=count,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )(given(**strategies)(body))()
    return count
