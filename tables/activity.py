"""When a player last moved at a table, for the notification service's "still waiting".

A turn (``TurnWait``) lasts while a table waits on a player, through every step she takes
(a RAIGO turn is several moves; so is a battle turn of a move and an attack). The service
reminds once the turn has waited longer than the campaign's delay; counted from the turn's
start, a long turn got its reminder while she was playing it. The action log already holds
when she moved, so the service asks here when a reminder is due (a read on a beat task),
rather than every move writing when she last acted (the move is the hot path, issue 15).
"""

from __future__ import annotations

from datetime import datetime

from .registry import wait_table


def last_move_at(key: str, user_id: int) -> datetime | None:
    """When ``user_id`` last moved at the table the turn ``key`` names, or None (a key of no
    table game, or no move of hers)."""
    found = wait_table(key)
    if found is None:
        return None
    game, table_id = found
    log = game.action_model._default_manager.filter(
        **{f"{game.table_model.log_table_field}_id": table_id, "actor_id": user_id}
    )
    moved: datetime | None = log.order_by("-seq").values_list("created_at", flat=True).first()
    return moved
