"""Play the middle of a tavern game on the server while its pages watch.

A browser test of a whole game checks what a browser adds: the table drawn by the game's
renderer, moves made by taps on it, the other page following live, the start and the end on
both pages. The middle of a long game adds nothing the first moves did not, and each tapped move
costs a second or two; every move of every state is offered by the drawing in
``tests/minigames/renderers*/`` (no browser needed), and the rules in the engines' tests. So the
test taps the opening, then :func:`play_on_the_server` plays on through the table core's own
service (as each seat's player: the same path as a tap's request) until a few moves are left,
and the pages, which only poll, must catch up and draw those moves; the test taps the end.
"""

from __future__ import annotations

import random
from typing import Any

from minigames.engines.registry import get_engine
from minigames.models import TavernTable
from minigames.services import tavern_action_apply


def play_on_the_server(table_id: int, players: dict[int, Any], *, leave: int, seed: int) -> int:
    """Play table ``table_id`` on with random legal moves, each sent as its seat's player
    (``players``: seat → user), until ``leave`` moves are left of the line of play drawn for it
    (the whole rest of the game is drawn first on a copy, the engine being a pure function of
    state and move). Returns how many moves were played; none if the game is that near its end.
    """
    rng = random.Random(seed)
    table = TavernTable.objects.get(pk=table_id)
    engine = get_engine(table.game)
    state = engine.from_json(table.state)
    line: list[tuple[int, dict[str, Any]]] = []
    while not engine.is_terminal(state):
        seat = rng.choice(list(engine.waiting_on(state)))
        action = rng.choice(engine.legal_actions(state, seat))
        line.append((int(seat), action))
        state, _ = engine.apply(state, seat, action)
    version = table.version
    played = line[: max(0, len(line) - leave)]
    for seat, action in played:
        tavern_action_apply(
            table_id=table_id, by=players[seat], action=action, expected_version=version
        )
        version += 1
    return len(played)
