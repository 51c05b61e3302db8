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

from apibase.engine_words import events_in_language, in_language, json_in_language
from apibase.numbers import object_id
from westernroses.protocol import Seat, event_visible

from . import store
from .clocks.columns import clock_columns
from .clocks.services import clock_payload
from .registry import TableGame, game_of

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


def _row(game: TableGame, pk: int, user: Viewer, *, state: bool) -> Any:
    """The table row a read starts from, with the game's seat columns for ``user`` (her
    seat without a query of its own) and, with ``state``, the state; the initial snapshot
    is never read. Through the store: compiled once per game and user."""
    annotate = game.access.seat_columns is not None and bool(
        getattr(user, "is_authenticated", False)
    )

    def rows(table: int) -> Any:
        deferred = ("initial",) if state else ("state", "initial")
        found = game.table_model._default_manager.defer(*deferred)
        if annotate and game.access.seat_columns is not None:
            found = found.annotate(**game.access.seat_columns(user))
        if state:  # the payload shows the clock (tables/clocks)
            found = found.annotate(**clock_columns(game.table_model._meta.label_lower))
        return found.filter(pk=table).order_by("pk")[:1]

    key = (game.slug, "read" if state else "head", user.pk if annotate else None)
    table = store.load_row(key, rows, pk)
    if table is None:
        raise Http404(f"No such {game.name}.")
    return table


def table_for(
    game: TableGame, user: Viewer, table_id: Any, *, reading: bool = False
) -> tuple[Any, Seat | None]:
    """The table (without its state) and ``user``'s seat at it (``reading``: the seat whose
    view she reads, the game's ``reader_seat_of``); 404 if she may not see it. ``game`` may
    be any game of the table's model: the row names its own (:func:`tables.registry.game_of`)."""
    table = _row(game, table_pk(game, table_id), user, state=False)
    game = game_of(table)
    seat_of = (
        game.access.reader_seat_of
        if reading and game.access.reader_seat_of
        else game.access.seat_of
    )
    return table, seat_of(user, table)


@dataclass(frozen=True, slots=True)
class TableView:
    """What one viewer receives: the version, her seat and the game's payload for her
    (``data`` None when the table has not changed since the caller's version)."""

    version: int
    seat: Seat | None
    #: the game's payload (a dict, or JSON already encoded: ``apibase.renderers.RenderedJSON``)
    data: Any


def view_data(game: TableGame, state: Any, seat: Seat | None) -> dict[str, Any]:
    """The engine's answer for ``seat`` (None: a spectator): her view, whom the table waits
    on, her legal actions, the summary and, once finished, the result."""
    finished = game.engine.is_terminal(state)
    return {
        "view": json_in_language(game.engine.view(state, seat)),
        "waiting_on": list(game.engine.waiting_on(state)),
        "legal_actions": [] if seat is None else game.engine.legal_actions(state, seat),
        "summary": in_language(game.engine.summary(state)),
        "finished": finished,
        "result": json_in_language(game.engine.result(state)) if finished else None,
    }


def table_state(table: Any) -> Any:
    """The stored state of ``table`` (its JSON), read with its version when the row was read
    without it (a poll's row: the version it carries may have moved on since, and an answer
    names the version of the state it shows)."""
    if "state" in table.get_deferred_fields():
        found = (
            type(table)._default_manager.filter(pk=table.pk).values_list("state", "version").first()
        )
        if found is None:  # deleted in between
            raise Http404("No such table.")
        table.state, table.version = found
    return table.state


def view_payload(
    game: TableGame,
    table: Any,
    user: Viewer,
    seat: Seat | None,
    state: Any = None,
    since: int | None = None,
) -> Any:
    """What the API answers ``user`` about ``table``: the game's ``payload``, else the
    version, her seat and :func:`view_data`. ``state``: the engine state when the caller has
    it (a move's answer, built from memory), else the row's is decoded; ``since``: the version
    the caller had (None: a first load). The default payload carries the table's clock
    (tables/clocks); a game's own payload shows it where the game does (the tavern's)."""
    if game.hooks.payload is not None:
        return game.hooks.payload(table, user, seat, state, since)
    if state is None:
        state = game.engine.from_json(table_state(table))
    data = {"version": table.version, "seat": seat, **view_data(game, state, seat)}
    data["clock"] = clock_payload(table)
    return data


def table_view(
    game: TableGame,
    *,
    table_id: Any,
    user: Viewer,
    since: int | None = None,
    head: store.Head | None = None,
) -> TableView:
    """The table as ``user`` may see it, or ``data`` None when it is still at version ``since``
    (the cheap poll: the row is read without its state, which comes only when needed). One
    read of the row for a first load; ``game`` may be any game of the table's model.

    The fast poll: a game with an ``audience`` (its permission hook) answers an unchanged poll
    from the table's cached head (``head``: read with the token by :mod:`tables.poll_auth`,
    else from the store), with no query, when the head is exactly at ``since`` (a head is at
    least the newest committed version) and the hook says the user may see the table;
    anything else asks the database, whose read moves the head (and lets the hook keep what
    it needs) for the next poll."""
    pk = table_pk(game, table_id)
    label = game.table_model._meta.label_lower
    polling = since is not None and bool(getattr(user, "is_authenticated", False))
    if polling and game.access.audience is not None:
        if head is None:
            head = store.head(label, pk, int(getattr(user, "pk", 0)))
        if head is not None and since == head.version:
            sees = game.access.audience.sees(user, head)
            if sees is False:
                raise Http404(f"No such {game.name}.")
            if sees:
                return TableView(version=head.version, seat=None, data=None)
    table = _row(game, pk, user, state=since is None)
    game = game_of(table)
    if polling and game.access.audience is not None and store.fast():
        # before her seat: an outsider's next poll is refused from Redis too
        store.remember_head(label, pk, table.version, game.access.audience.scope(table))
        game.access.audience.remember(user, table)
    seat = game.access.seat_of(user, table)
    # Unchanged only when the caller holds exactly this version: a ``since`` ahead of the
    # table names a version the server no longer has (moves lost in a crash of PostgreSQL),
    # and is answered in full, as a first load.
    if since is not None and since == table.version:
        return TableView(version=table.version, seat=seat, data=None)
    behind = since if since is not None and since < table.version else None
    data = view_payload(game, table, user, seat, since=behind)
    return TableView(version=table.version, seat=seat, data=data)


def table_log(
    game: TableGame, *, table_id: Any, user: Viewer, after: int = 0, limit: int = LOG_PAGE
) -> dict[str, Any]:
    """Log entries after version ``after`` (at most ``limit``, oldest first), each with only
    the events ``user``'s seat may see; ``next_after`` pages on (None at the end)."""
    table, seat = table_for(game, user, table_id, reading=True)
    game = game_of(table)
    limit = max(1, min(int(limit), LOG_PAGE_MAX))
    after = max(int(after), 0)
    rows = list(
        game.action_model._default_manager.filter(
            **{game.table_model.log_table_field: table}, seq__gt=after
        ).order_by("seq")[: limit + 1]
    )
    more = len(rows) > limit
    rows = rows[:limit]
    if game.hooks.log_view is not None:
        state = game.engine.from_json(
            game.table_model._default_manager.filter(pk=table.pk)
            .values_list("state", flat=True)
            .get()
        )
        seen = game.hooks.log_view(
            state, seat, [{"n": r.seq, "action": r.action, "events": r.events} for r in rows]
        )
        shown = {entry["n"]: entry for entry in seen}
    else:
        shown = {
            r.seq: {"n": r.seq, "events": [e for e in r.events if event_visible(e, seat)]}
            for r in rows
        }
    entries = [
        {
            "n": r.seq,
            "seat": r.seat,
            **shown[r.seq],
            "events": events_in_language(list(shown[r.seq].get("events", []))),
            "at": r.created_at.isoformat(),
        }
        for r in rows
        if r.seq in shown
    ]
    return {
        "version": table.version,
        "results": entries,
        "next_after": rows[-1].seq if more and rows else None,
    }
