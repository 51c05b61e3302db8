"""Bot-against-bot games checked at every step, for the card games' many-game properties
(tests/engine/rso/test_many_games.py, tests/engine/dbs/test_many_games.py).

A heuristic seat plays the engine's ``heuristic_action`` (the heuristic bot's policy; at a
table it is handed a world ``determinize`` dealt for its seat, here the real state, which it
reads only as the seat may: re-dealing for every move would cost a fifth of the run), a random
seat picks uniformly among the legal moves, as the random bot does. Checked:

* **every step**: the engine's own zone check (every card in exactly one zone); somebody is
  waited on and every seat waited on has a legal move; the bot's move is applied, never
  refused; no event a seat may see names an id hidden from her;
* **probe steps** (every ``probe_every``-th, from an offset drawn from the seed, so thousands
  of games probe every phase): no id hidden from a seat (another's hand, any deck order) is in
  her view or a spectator's, nor the seed; ``determinize`` for each seat keeps who is waited on
  and deals no world in which a seat waited on has no legal move (the search bot plays in
  those worlds); and at every other probe every move offered to the seats waited on applies;
* **at the end**: the game is over with returns for both seats, and replaying the log from the
  first state gives the same final state, byte for byte.

The expensive checks are sampled so that thousands of games fit in about a minute per engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from minigames.bots import Strength, heuristics_for
from minigames.bots.heuristics import BotRandom
from tests.engine.conformance import canonical, written_in
from westernroses.protocol import GameEngine, Seat, event_visible, replay


@dataclass
class Tally:
    """What a run of games went through (so a test can show it probed what it claims)."""

    games: int = 0
    moves: int = 0
    probes: int = 0
    worlds: int = 0
    replays: int = 0
    all_moves_tried: int = 0
    phases: set[str] = field(default_factory=set)
    outcomes: dict[str, int] = field(default_factory=dict)


def _no_hidden_in(text: str, hidden: set[str], who: Seat | None, what: str) -> None:
    """No hidden id, as a JSON string (quoted: ``"c-1"`` is not inside ``"c-12"``), in
    ``text``; in one pass over it (:func:`written_in`): this runs at every step."""
    shown = written_in(text, hidden)
    assert not shown, f"{what} of seat {who!r} shows hidden {shown!r}"


def play_checked_game(
    engine: GameEngine[Any],
    *,
    seed: int,
    strengths: Mapping[int, Strength],
    check_zones: Callable[[Any], None],
    tally: Tally,
    config: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    probe_every: int = 20,
    max_moves: int = 3000,
) -> Any:
    """Play one game between bots of ``strengths``, checking it (see the module); the final
    state."""
    rng = BotRandom(seed)
    heuristic = heuristics_for(engine).action
    assert heuristic is not None, f"{engine.title} has no heuristic bot"
    initial = engine.new_game(seats=2, seed=seed, options=options, config=config)
    state = initial
    log: list[tuple[Seat, dict[str, Any]]] = []
    offset = rng.randrange(probe_every)
    for move in range(max_moves):
        check_zones(state)
        if engine.is_terminal(state):
            break
        tally.phases.add(str(state["phase"]))
        waiting = engine.waiting_on(state)
        assert waiting, "a running game waits on somebody"
        legal = {seat: engine.legal_actions(state, seat) for seat in waiting}
        for seat in waiting:
            assert legal[seat], f"seat {seat} is waited on with no move"
        if move % probe_every == offset:
            tally.probes += 1
            for viewer in (0, 1, None):
                text = canonical(engine.view(state, viewer))
                assert '"seed"' not in text
                _no_hidden_in(text, engine.hidden_from(state, viewer), viewer, "the view")
            if move % (2 * probe_every) == offset:
                # every move offered is accepted, not only the ones the bots happen to pick
                for seat in waiting:
                    for offered in legal[seat]:
                        engine.apply(state, seat, offered)
                        tally.all_moves_tried += 1
            for seat in (0, 1):
                world = engine.determinize(state, seat, rng.randrange(2**53))
                tally.worlds += 1
                assert engine.waiting_on(world) == waiting
                for waited in waiting:
                    assert engine.legal_actions(world, waited), (
                        f"determinize for seat {seat} dealt seat {waited} no legal move"
                    )
        seat = waiting[rng.randrange(len(waiting))]
        if strengths[int(seat)] == "random":  # the random bot, without its API's overhead
            action = legal[seat][rng.randrange(len(legal[seat]))]
        else:  # the engine's heuristic, as the heuristic bot plays it but on the real state
            action = dict(heuristic(state, seat, rng))
        state, events = engine.apply(state, seat, action)  # IllegalAction: a refused legal move
        log.append((seat, action))
        # the events each seat sees, written once for both when they see the same ones (the
        # usual case): the same text is searched for each seat's hidden ids
        written: dict[tuple[int, ...], str] = {}
        for viewer in (0, 1):
            shown = tuple(i for i, ev in enumerate(events) if event_visible(ev, viewer))
            if shown:
                if shown not in written:
                    written[shown] = canonical([events[i] for i in shown])
                text = written[shown]
                _no_hidden_in(text, engine.hidden_from(state, viewer), viewer, "events")
    else:
        raise AssertionError(f"the game did not end within {max_moves} moves")
    assert engine.is_terminal(state) and len(engine.returns(state)) == 2
    replayed = replay(engine, initial, log)
    assert canonical(engine.to_json(replayed)) == canonical(engine.to_json(state))
    tally.replays += 1
    tally.games += 1
    tally.moves += len(log)
    outcome = "draw" if engine.returns(state) == [0.0, 0.0] else "decided"
    tally.outcomes[outcome] = tally.outcomes.get(outcome, 0) + 1
    return state


#: The pairings the many-game runs cycle through: random and heuristic bots on either seat.
PAIRINGS: tuple[tuple[Strength, Strength], ...] = (
    ("random", "random"),
    ("heuristic", "random"),
    ("random", "heuristic"),
    ("heuristic", "heuristic"),
)
