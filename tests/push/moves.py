"""Whose move it is at a two-player tavern table, and a legal move for her, read from the
engine (the tests' and the push benchmark's own bookkeeping; the move itself goes through the
services or the API)."""

from __future__ import annotations

from typing import Any

from minigames.engines.registry import get_engine


def next_move(table: Any, seated: tuple[Any, Any]) -> tuple[Any, Any, dict[str, Any], int]:
    """(mover, the other player, a legal action of hers, the table's version) for a table
    whose seat 0 is ``seated[0]`` and seat 1 ``seated[1]``."""
    table.refresh_from_db()
    engine = get_engine(table.game)
    state = engine.from_json(table.state)
    seat = sorted(engine.waiting_on(state))[0]
    mover, other = (seated[0], seated[1]) if seat == 0 else (seated[1], seated[0])
    return mover, other, engine.legal_actions(state, seat)[0], int(table.version)
