"""Playing a started tavern table through the move service, for tests that need a game some
moves in: one loop, each test choosing the moves and when to stop."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from minigames import services
from minigames.engines.registry import get_engine
from minigames.models import TavernTable

#: A seat's move: ``choose(state, seat, legal moves)``.
Choose = Callable[[Any, int, list[Any]], Any]


def first_legal(state: Any, seat: int, legal: list[Any]) -> Any:
    """The first legal move: the engine's order, so a game goes the same way each run."""
    return legal[0]


def play(
    table: TavernTable,
    users: Mapping[int, Any],
    moves: int,
    choose: Choose = first_legal,
    until: Callable[[Any, list[Any]], bool] | None = None,
) -> TavernTable:
    """``table`` after up to ``moves`` moves, each the waited-on seat's ``choose``, made by her
    user through ``services.tavern_action_apply``; fewer when the game ends or
    ``until(state, legal moves)`` holds before a move. ``table`` comes back refreshed."""
    engine = get_engine(table.game)
    for _ in range(moves):
        table.refresh_from_db()
        state = engine.from_json(table.state)
        if engine.is_terminal(state):
            break
        seat = engine.waiting_on(state)[0]
        legal = engine.legal_actions(state, seat)
        if until is not None and until(state, legal):
            break
        services.tavern_action_apply(
            table_id=table.pk,
            by=users[seat],
            action=choose(state, seat, legal),
            expected_version=table.version,
        )
    table.refresh_from_db()
    return table
