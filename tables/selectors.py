"""Reads on game tables, written once: the per-viewer view, the cheap poll, the paginated log.

Everything a client receives about a game comes from ``engine.view(state, seat)`` for the
asking user's seat (``None``: a spectator) and from log events the protocol lets that seat see
(``visible_to``); nothing here serialises the stored state or the initial snapshot (hands, the
deck order and the seed stay on the server).

The poll reads the version first: an unchanged table costs one small query and the caller
answers 204; a changed one adds the state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from django.http import Http404

from apibase.numbers import object_id
from westernroses.protocol import Seat, event_visible

from .registry import TableGame

if TYPE_CHECKING:
    from .registry import Viewer

#: A log page holds this many entries unless asked for fewer; never more than the maximum.
LOG_PAGE: Final = 50
LOG_PAGE_MAX: Final = 200


def table_pk(game: TableGame, value: Any) -> int:
    """A table id from a URL or a query (404 for anything that cannot be one)."""
    pk = object_id(value) if isinstance(value, int | str) else None
    if pk is None:
        raise Http404(f"No such {game.name}.")
    return pk


def table_for(
    game: TableGame, user: Viewer, table_id: Any, *, reading: bool = False
) -> tuple[Any, Seat | None]:
    """The table (without its state) and ``user``'s seat at it (``reading``: the seat whose
    view she reads, the game's ``reader_seat_of``); 404 if she may not see it."""
    table = (
        game.table_model._default_manager.defer("state", "initial")
        .filter(pk=table_pk(game, table_id))
        .first()
    )
    if table is None:
        raise Http404(f"No such {game.name}.")
    seat_of = game.reader_seat_of if reading and game.reader_seat_of else game.seat_of
    return table, seat_of(user, table)


@dataclass(frozen=True, slots=True)
class TableView:
    """What one viewer receives: the version, her seat and the engine's view for that seat
    (``data`` None when the table has not changed since the caller's version)."""

    version: int
    seat: Seat | None
    data: dict[str, Any] | None


def table_view(
    game: TableGame, *, table_id: Any, user: Viewer, since: int | None = None
) -> TableView:
    """The table as ``user`` may see it, or ``data`` None when it is still at version ``since``
    (the cheap poll: the version is read first and the state only when needed)."""
    pk = table_pk(game, table_id)
    table = game.table_model._default_manager.defer("state", "initial").filter(pk=pk).first()
    if table is None:
        raise Http404(f"No such {game.name}.")
    seat = game.seat_of(user, table)
    # Unchanged only when the caller holds exactly this version: a ``since`` ahead of the
    # table names a version the server no longer has (moves lost in a crash of PostgreSQL),
    # and is answered in full, as a first load.
    if since is not None and since == table.version:
        return TableView(version=table.version, seat=seat, data=None)
    row = game.table_model._default_manager.filter(pk=pk).values_list("state", "version").first()
    if row is None:  # deleted in between
        raise Http404(f"No such {game.name}.")
    state = game.engine.from_json(row[0])
    data = {
        "view": game.engine.view(state, seat),
        "waiting_on": list(game.engine.waiting_on(state)),
        "legal_actions": [] if seat is None else game.engine.legal_actions(state, seat),
        "summary": game.engine.summary(state),
        "finished": game.engine.is_terminal(state),
        "result": game.engine.result(state) if game.engine.is_terminal(state) else None,
    }
    return TableView(version=row[1], seat=seat, data=data)


def table_log(
    game: TableGame, *, table_id: Any, user: Viewer, after: int = 0, limit: int = LOG_PAGE
) -> dict[str, Any]:
    """Log entries after version ``after`` (at most ``limit``, oldest first), each with only
    the events ``user``'s seat may see; ``next_after`` pages on (None at the end)."""
    table, seat = table_for(game, user, table_id, reading=True)
    limit = max(1, min(int(limit), LOG_PAGE_MAX))
    after = max(int(after), 0)
    rows = list(
        game.action_model._default_manager.filter(
            **{game.table_model.log_table_field: table}, seq__gt=after
        ).order_by("seq")[: limit + 1]
    )
    more = len(rows) > limit
    rows = rows[:limit]
    if game.visible_events is not None:
        state = game.engine.from_json(
            game.table_model._default_manager.filter(pk=table.pk)
            .values_list("state", flat=True)
            .get()
        )
        hook = game.visible_events

        def shown(events: list[Any]) -> list[Any]:
            return hook(state, seat, events)
    else:

        def shown(events: list[Any]) -> list[Any]:
            return [e for e in events if event_visible(e, seat)]

    entries = [
        {"n": r.seq, "seat": r.seat, "events": shown(r.events), "at": r.created_at.isoformat()}
        for r in rows
    ]
    return {
        "version": table.version,
        "results": entries,
        "next_after": rows[-1].seq if more and rows else None,
    }
