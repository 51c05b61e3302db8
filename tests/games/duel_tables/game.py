"""Secret Duel registered with the table core: the whole of the glue a new game needs."""

from __future__ import annotations

from typing import Any

from django.http import Http404

from campaign.table_access import campaign_notice
from tables.registry import TableAccess, TableGame, TableHooks, register
from tests.games.duel import ENGINE

from .models import DuelAction, DuelTable


def duel_seat(user: Any, table: DuelTable) -> int | None:
    """Seat 0 or 1 for the two players; any other signed-in user watches; others 404."""
    if not user.is_authenticated:
        raise Http404("No such duel.")
    if user.pk == table.seat0_id:
        return 0
    if user.pk == table.seat1_id:
        return 1
    return None


def duel_players(table: DuelTable, seat: Any) -> list[int]:
    return [table.seat0_id if int(seat) == 0 else table.seat1_id]


def register_duel() -> TableGame:
    return register(
        TableGame(
            slug="duel",
            name="duel",
            engine=ENGINE,
            table_model=DuelTable,
            action_model=DuelAction,
            access=TableAccess(seat_of=duel_seat, players_of=duel_players),
            hooks=TableHooks(
                url=lambda table: f"/duels/{table.pk}/",
                notice=campaign_notice(lambda table: table.campaign),
                seat_from_text=int,
            ),
        )
    )
