"""Writes on game tables, written once for every game (battles, the tavern, the test game).

**Applying an action** (:func:`table_action_apply`): the action is checked against its type's
schema first (unknown keys, long strings, long lists: 400 before anything is read). Then the
table row is read, without a lock: the acting seat comes from the game (``seat_of``: 404 for
an outsider), the version the client saw is compared with the stored one
(:class:`~tables.errors.StaleVersion`: 409), and the engine applies the action to a copy
(``IllegalAction``: 400, nothing saved). The new state, version, status, summary and the log
row are then written by one statement that only writes while the row is still at the version
that was read (``UPDATE … WHERE version = %s``, the log row inserted only from the updated
row): of two moves sent against the same version exactly one writes, the other finds nothing
to update and is a 409 with nothing applied. Optimistic rather than locked, because a move
then costs one read and one write: no ``BEGIN``/``COMMIT`` round trips and no row lock held
while the engine works. Every change of a table's state moves its version on, so a row still
at the version read still holds the state read.

A move that writes other rows too (a game's ``after_apply``, or turn waits that end) makes
them and the version-checked write in one transaction, so they commit only with the move.
A plain move (nothing else written) commits without waiting for the WAL flush
(``settings.TABLE_MOVES_ASYNC_COMMIT``, :func:`log_and_save`): a crash of PostgreSQL may lose
the last fraction of a second of such moves, never anything written with other rows, and
the caches keyed by version carry the server's start time (:mod:`tables.epoch`).
When the table starts waiting on someone new, the turn notification is enqueued on commit, so
a move that was not written never notifies.

**Notifying** (:func:`table_waits_sync`, run by a Celery task): the waits the table has now are
registered with the notification service ("your turn" once per wait, "still waiting" once after
the delay of the scope the game's ``notice`` hook names) and those it no longer has are ended.
It reads the current state under the row lock, so a late or repeated run never announces a
turn that has passed.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any, Final, NamedTuple, cast

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connections, router, transaction
from django.db.models import Q
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext

from apibase import push
from apibase.engine_words import reason_in_language
from notifications import texts
from notifications.texts import Words
from westernroses.protocol import IllegalAction, Seat
from westernroses.words import Words as EngineWords

from . import hot_sql, presence, store
from .clocks import services as clocks
from .clocks.columns import CLOCK_COLUMN, clock_columns
from .errors import StaleVersion, TimeRanOut
from .models import GameTable, TableAction, TableStatus
from .registry import TableGame, Wait
from .schema import validate_action

if TYPE_CHECKING:
    from django.db.models import Field

    from .registry import Viewer

logger = logging.getLogger(__name__)


def _read(game: TableGame, table_id: int, actor: Viewer | None = None) -> Any:
    """The table row, unlocked (the write checks the version instead). The initial snapshot
    (as large as the state) is deferred: only a game's ``load`` that needs it (an undo) reads
    it. The game's ``seat_columns`` for ``actor`` come with it (her seat without a query of its
    own); they depend on who she is, not on the table, so the read is compiled once per game
    and user (:func:`tables.compiled.model_row`). So does the table's clock, if it has one
    (:mod:`tables.clocks.columns`)."""
    annotate = actor is not None and game.access.seat_columns is not None
    label = game.table_model._meta.label_lower

    def rows(table: int) -> Any:
        found = game.table_model._default_manager.defer("initial")
        if annotate and actor is not None and game.access.seat_columns is not None:
            found = found.annotate(**game.access.seat_columns(actor))
        found = found.annotate(**clock_columns(label))
        return found.filter(pk=table).order_by("pk")[:1]

    key = (game.slug, actor.pk if annotate and actor is not None else None)
    table = store.load_row(key, rows, table_id)
    if table is None:
        raise Http404(f"No such {game.name}.")
    return table


def table_read(game: TableGame, table_id: int, actor: Viewer | None) -> Any:
    """The table row a move of ``actor`` reads (404 when there is none), for a caller that
    must see it before it knows the game (pass it on as ``table_action_apply``'s ``row``)."""
    return _read(game, table_id, actor)


def check_version(game: TableGame, table: GameTable, expected_version: Any) -> None:
    """Raise :class:`StaleVersion` unless ``expected_version`` is the table's version."""
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise ValidationError({"expected_version": [gettext("A whole number.")]})
    if expected_version != table.version:
        raise StaleVersion(table.version, game.name)


def status_of(game: TableGame, state: Any) -> str:
    return TableStatus.ENDED if game.engine.is_terminal(state) else TableStatus.ACTIVE


def table_store(
    game: TableGame, table: GameTable, state: Any, *, status: str | None = None
) -> None:
    """Copy ``state`` and what lists show about it onto ``table`` (not saved)."""
    table.state = game.engine.to_json(state)
    table.status = status or status_of(game, state)
    words = game.engine.summary(state)
    table.summary = str(words)[:200]
    table.summary_words = words.to_json() if isinstance(words, EngineWords) else {}


def table_create(
    game: TableGame, *, table: GameTable, state: Any, initial: Any | None = None
) -> GameTable:
    """Save a new table (built by the game's own service with its columns) in ``state``,
    with ``initial`` (default: ``state``) as the snapshot its log replays from."""
    table_store(game, table, state)
    table.initial = game.engine.to_json(initial if initial is not None else state)
    table.version = 0
    table.save()
    return table


def table_action_apply(
    game: TableGame,
    *,
    table_id: int,
    actor: Viewer | None,
    action: Any,
    expected_version: Any,
    seat: Seat | None = None,
    now: datetime | None = None,
    row: GameTable | None = None,
) -> tuple[GameTable, Any, Seat]:
    """Apply one action completely or not at all; returns the saved table, its new engine
    state and the seat that acted.

    ``actor`` is the user sending it (her seat comes from the game's ``seat_of``); a bot or a
    timeout passes ``actor=None`` and the ``seat`` it plays. Raises ``Http404`` (may not see
    the table), ``PermissionDenied`` (not hers to play), :class:`StaleVersion` (409) or
    ``ValidationError`` (bad shape, or the rules refuse: ``{"action": [reason]}``). ``row``:
    the table row as :func:`table_read` read it for ``actor`` (a model several games share:
    the caller read it to learn which game it is), so the move reads it once.

    A game that keeps its rows (``keep_rows``) first tries the move on the row its last move
    in this process wrote (:func:`_kept_move`): no read, and a write that checks the row and
    the user's seat are still what was kept. Anything else, or any doubt, takes the read.
    """
    clean = validate_action(action, game.actions)
    now = now or timezone.now()
    kept = (
        _kept_move(game, table_id, actor, clean, expected_version, now)
        if seat is None and row is None
        else None
    )
    if kept is not None:
        return kept
    table = row if row is not None else _read(game, table_id, actor)
    if actor is not None:
        if game.hooks.keep_rows and game.access.seat_columns is not None and actor.is_authenticated:
            names = [*game.access.seat_columns(actor), CLOCK_COLUMN]
            store.keep_seat(table, actor.pk, {n: table.__dict__.get(n) for n in names})
        seat = game.access.seat_of(actor, table)
        if seat is None:
            raise game.no_seat()
    if seat is None:
        raise ValueError("A bot or a timeout names the seat it plays.")
    try:
        move = _move(game, table, actor, seat, clean, expected_version, now)
    except TimeRanOut:
        # judged by the deadline: the table's rule plays her turn now, not when a task runs
        clocks.clock_tick(clocks.label_of(table), int(table.pk), now=now)
        raise
    _write(game, move)
    return table, move.new, seat


class _Move(NamedTuple):
    """A move worked out on a table row, not yet written."""

    table: GameTable
    seat: Seat
    state: Any
    new: Any
    entry: TableAction
    fields: list[str]
    read_version: int
    before: list[Wait]
    after: list[Wait]
    ended: set[str]
    rows_too: bool
    #: the clock's new text (None: the table has no clock)
    clock: str | None


def _move(
    game: TableGame,
    table: GameTable,
    actor: Viewer | None,
    seat: Seat,
    clean: dict[str, Any],
    expected_version: Any,
    now: datetime,
) -> _Move:
    """Everything a move does before its write: the version, the engine, the new columns."""
    # the game's load first: a table that takes no move (a tavern table not in play) says so
    # whatever version the client holds
    state = game.hooks.load(table, clean) if game.hooks.load else game.engine.from_json(table.state)
    check_version(game, table, expected_version)
    if game.access.authorize is not None and actor is not None:
        game.access.authorize(actor, table, seat, state, clean)
    if actor is not None:
        clocks.check_in_time(table, seat, now)
    if game.hooks.prepare is not None:
        clean = game.hooks.prepare(table, seat, clean, now)
    before = waits_of(game, table, state, words=False)
    try:
        new, events = game.engine.apply(state, seat, clean)
    except IllegalAction as exc:
        raise ValidationError({"action": [reason_in_language(exc)]}) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        # Malformed input the engine did not foresee: refused like any illegal move (a
        # 400, nothing saved) and logged, since the engine should have said why.
        logger.exception("%s could not apply %r", game.slug, clean)
        raise ValidationError(
            {"action": [gettext("This action is malformed: the game could not read it.")]}
        ) from None
    read_version = table.version
    table.version += 1
    entry = game.action_model(
        **{game.table_model.log_table_field: table},
        seq=table.version,
        actor=cast(Any, actor) if actor is not None and actor.is_authenticated else None,
        seat=str(seat),
        action=clean,
        events=events,
        version_after=table.version,
    )
    table_store(game, table, new)
    fields = ["state", "version", "status", "summary", "summary_words", "updated_at"]
    if game.hooks.columns is not None:
        fields += game.hooks.columns(table, state, new)
    after = waits_of(game, table, new, words=False)
    ended = {w.key for w in before} - {w.key for w in after}
    clock = clocks.move_clock(game, table, seat, new, now)
    rows_too = (
        (
            game.hooks.after_apply is not None
            and (
                game.hooks.after_apply_when is None
                or game.hooks.after_apply_when(table, state, new)
            )
        )
        or bool(ended)
        or clock is not None
    )
    return _Move(
        table, seat, state, new, entry, fields, read_version, before, after, ended, rows_too, clock
    )


def _write(game: TableGame, move: _Move, check: _Check | None = None) -> None:
    """Write ``move`` (with ``check``: only while the kept row and seat still hold)."""
    table, fields = move.table, list(move.fields)
    # One statement is atomic by itself; other rows join it in one transaction.
    with transaction.atomic() if move.rows_too else contextlib.nullcontext():
        if move.clock is not None:
            # a clocked table: one statement more, in the transaction, and before the table's
            # row (the clock's task locks the clock first too: never a deadlock)
            clocks.clock_save(table, move.clock)
        if move.rows_too and game.hooks.after_apply is not None:
            fields += game.hooks.after_apply(table, move.state, move.new) or ()
        log_and_save(
            move.entry,
            table,
            fields,
            expected_version=move.read_version,
            what=game.name,
            async_commit=not move.rows_too and settings.TABLE_MOVES_ASYNC_COMMIT,
            check=check,
        )
        # after the write: a turn the notify task registered meanwhile is ended too
        _waits_end(game, move.ended)
        if game.hooks.keep is not None:
            # on commit: a rolled-back move leaves nothing kept
            transaction.on_commit(
                partial(store.keep_state, store.state_key(table), game.hooks.keep(move.new)),
                robust=True,
            )
        if game.hooks.keep_rows:
            transaction.on_commit(
                partial(store.keep_row, table, _row_names(type(table))), robust=True
            )
        if any(w.key not in {b.key for b in move.before} for w in move.after):
            # at once when no transaction is open (the write is committed)
            transaction.on_commit(
                partial(_enqueue_turn_notify, game, table.pk, table.version), robust=True
            )


class _Check(NamedTuple):
    """What a write on a kept row checks in its own statement: the row's creation time, the
    user's seat columns (``sql``: a ``values_list`` of them for the row, with ``params``)
    reading ``expected``, and the columns to read back (``refresh``)."""

    created_at: Any
    sql: str
    params: list[Any]
    names: tuple[str, ...]
    expected: tuple[Any, ...]
    refresh: tuple[str, ...]


class _Unchecked(Exception):
    """A write on a kept row found it moved on, gone, or the user's seat changed: nothing
    was written, and the move is worked out again from a fresh read."""


_ROW_NAMES: dict[type, tuple[str, ...]] = {}


def _row_names(model: type[GameTable]) -> tuple[str, ...]:
    """The columns a move reads (every concrete one but the deferred initial snapshot)."""
    names = _ROW_NAMES.get(model)
    if names is None:
        names = tuple(f.attname for f in model._meta.concrete_fields if f.attname != "initial")
        _ROW_NAMES[model] = names
    return names


_REFRESHED: dict[tuple[type, tuple[str, ...]], tuple[str, ...]] = {}


def _refreshed(model: type[GameTable], written: Sequence[str]) -> tuple[str, ...]:
    """The columns a checked write reads back: those it does not write, but the key and
    the ones whose text Django decodes itself (JSON), which a game that keeps its rows
    changes only with a new version."""
    key = (model, tuple(written))
    names = _REFRESHED.get(key)
    if names is None:
        names = tuple(
            n
            for n in _row_names(model)
            if n not in written
            and n != model._meta.pk.attname
            and not hasattr(model._meta.get_field(n), "from_db_value")
        )
        _REFRESHED[key] = names
    return names


def _kept_move(
    game: TableGame,
    table_id: int,
    actor: Viewer | None,
    clean: dict[str, Any],
    expected_version: Any,
    now: datetime,
) -> tuple[GameTable, Any, Seat] | None:
    """The move applied to the row this process's last move on the table wrote, or None
    (nothing kept, or any doubt: the caller reads the row and starts again).

    What a move read the row for, it takes from what was kept: the row as written at the
    version the user saw, and her seat columns as the last read of the row in this process
    found them (a battle: her role in the campaign). Neither is trusted: the one write only
    lands while the row is that one (id, creation time and version: every change of a
    table's state moves its version) and her seat columns still read the same, checked by
    PostgreSQL in the same statement; it also reads back the row's other columns, which may
    change without a new version (a battle's map), so the answer shows them as they are.
    Refusals on the kept row (a 403, a 404, a rule) are not answered from it either: the
    read path works them out again from the database. Only a plain move (one statement,
    nothing else written) is made this way."""
    if (
        not game.hooks.keep_rows
        or game.access.seat_columns is None
        or actor is None
        or not actor.is_authenticated
        or isinstance(expected_version, bool)
        or not isinstance(expected_version, int)
    ):
        return None
    model = game.table_model
    if connections[router.db_for_write(model)].vendor != "postgresql":
        return None
    seat_values = store.kept_seat(model, table_id, actor.pk)
    table = store.kept_row(model, table_id, expected_version)
    if seat_values is None or table is None:
        return None
    columns = game.access.seat_columns

    def rows(pk: int) -> Any:
        found = model._default_manager.filter(pk=pk).annotate(**columns(actor))
        found = found.annotate(**clock_columns(model._meta.label_lower))
        return found.values_list(*seat_values)

    check = store.seat_check((game.slug, actor.pk, tuple(seat_values)), rows, table_id)
    if check is None:
        return None
    for name, value in seat_values.items():
        setattr(table, name, value)
    try:
        seat = game.access.seat_of(actor, table)
        if seat is None:
            return None
        move = _move(game, table, actor, seat, clean, expected_version, now)
    except (Http404, PermissionDenied, ValidationError, StaleVersion):
        return None  # the read path says it, from the row as it is
    if move.rows_too:
        return None
    refresh = _refreshed(model, move.fields)
    try:
        _write(
            game,
            move,
            _Check(
                table.created_at,
                *check,
                tuple(seat_values),
                tuple(seat_values.values()),
                refresh,
            ),
        )
    except _Unchecked:
        return None
    return table, move.new, seat


def log_and_save(
    entry: TableAction,
    table: GameTable,
    fields: Sequence[str],
    *,
    expected_version: int | None = None,
    what: str = "game",
    async_commit: bool = False,
    check: _Check | None = None,
) -> None:
    """Insert the log row ``entry`` and save ``fields`` of ``table`` in one statement (one
    round trip to PostgreSQL); two statements in a transaction elsewhere.

    With ``check`` (PostgreSQL only: a move on a kept row, :func:`_kept_move`), the row is
    also written only while its creation time and the user's seat columns are as kept, its
    other columns are read back onto ``table``, and a write that finds nothing to write
    raises :class:`_Unchecked` (the caller starts again from a read).

    With ``expected_version``, the row is written only while its version is still that one
    (``WITH updated AS (UPDATE … WHERE id = %s AND version = %s RETURNING 1) INSERT … SELECT
    … FROM updated``: the log row only comes with the update), else nothing is written and
    :class:`StaleVersion` (409) names the version it is at. A move sent twice at once: both
    read version n, the first update moves the row to n+1, the second (which PostgreSQL makes
    wait for the first's commit, then checks again) finds no row at n.

    Why one statement: a move is the hot path of every game, and on a busy database each
    round trip costs as much as the engine's work. ``entry`` gets no primary key back
    (nothing reads it); ``auto_now`` columns are filled as ``save`` would.

    With ``async_commit`` (a plain move: nothing else is written with it), and only when the
    statement is its own transaction (no ``atomic`` block open), it commits without waiting
    for the WAL to reach the disk: the statement itself sets ``synchronous_commit`` off for
    its own transaction (``set_config(…, true)``, no extra round trip), which is most of a
    move's time otherwise (7–8 ms against 0.3 ms on the development machine). The price:
    after a crash of PostgreSQL, the moves acknowledged in its last ~0.6 s can be lost (the
    table goes back to its last durable move); every per-version cache key carries the
    server's start time (:mod:`tables.epoch`), so nothing cached for a lost move is read.
    """
    connection = connections[router.db_for_write(type(table))]
    manager = type(table)._default_manager
    if connection.vendor != "postgresql":
        if "version" in fields:
            store.publish(table)  # the cached head moves before the write (tables/heads.py)
        with transaction.atomic(using=connection.alias):
            rows = manager.filter(pk=table.pk)
            if expected_version is not None:
                rows = rows.filter(version=expected_version)
            values = {name: _pre_save(table, name) for name in fields}
            if rows.update(**values) != 1:
                _not_written(manager, table, expected_version, what)
            entry.save(force_insert=True)
        if "version" in fields:
            _announce(table)
        return
    quote = connection.ops.quote_name
    inserted = [f for f in entry._meta.concrete_fields if not f.primary_key]
    updated = [cast("Field[Any, Any]", table._meta.get_field(name)) for name in fields]
    pk = table._meta.pk
    if pk is None:  # every concrete model has one; the type allows None
        raise RuntimeError(f"{table._meta.label} has no primary key.")
    insert_values = [f.get_db_prep_save(f.pre_save(entry, True), connection) for f in inserted]
    update_values = [f.get_db_prep_save(f.pre_save(table, False), connection) for f in updated]
    where = [quote(pk.column or pk.attname), "= %s"]
    params = [*update_values, table.pk]
    if expected_version is not None:
        where += ["AND", quote("version"), "= %s"]
        params.append(expected_version)
    returning, refresh = "1", []
    if check is not None:
        seat = " AND ".join(
            f"{quote('seat')}.{quote(name)} IS NOT DISTINCT FROM %s" for name in check.names
        )
        where += [
            "AND",
            quote("created_at"),
            "= %s AND EXISTS (SELECT 1 FROM (",
            check.sql,
            ") AS",
            quote("seat"),
            "WHERE",
            seat,
            ")",
        ]
        params += [check.created_at, *check.params, *check.expected]
        refresh = [cast("Field[Any, Any]", table._meta.get_field(n)) for n in check.refresh]
        returning = ", ".join(quote(f.column or f.attname) for f in refresh)
    # Only quoted identifiers and type names from the models' own metadata go into the text;
    # every value is a parameter (cast: a value selected rather than inserted has no column
    # to take its type from).
    insert = [
        "INSERT INTO",
        quote(entry._meta.db_table),
        "(" + ", ".join(quote(f.column or f.attname) for f in inserted) + ")",
        "SELECT",
        ", ".join(f"%s::{f.cast_db_type(connection)}" for f in inserted),
        "FROM updated",
        *(_ASYNC_COMMIT if async_commit and not connection.in_atomic_block else ()),
    ]
    sql = " ".join(
        [
            "WITH updated AS (UPDATE",
            quote(table._meta.db_table),
            "SET",
            ", ".join(quote(f.column or f.attname) + " = %s" for f in updated),
            "WHERE",
            *where,
            f"RETURNING {returning})",
            # checked: the log row in a second part, the columns read back by the statement
            *(["," + "logged AS (", *insert, ") SELECT * FROM updated"] if check else insert),
        ]
    )
    # the cached head moves with the write, its round trip to Redis overlapping this one
    publishing = store.publishing(table) if "version" in fields else contextlib.nullcontext()
    with hot_sql.bound_cursor(connection) as cursor:
        with publishing:
            cursor.execute(sql, hot_sql.fast_json([*params, *insert_values]))
        if cursor.rowcount != 1:
            if check is not None:
                raise _Unchecked
            _not_written(manager, table, expected_version, what)
        if check is not None:
            for f, value in zip(refresh, cursor.fetchone(), strict=True):
                setattr(table, f.attname, value)
    if "version" in fields:
        _announce(table)


def _announce(table: GameTable) -> None:
    """Open pages of ``table`` hear of its new version once the write commits (after the
    write: a statement that is its own transaction has committed by now)."""
    push.announce_table(table._meta.label_lower, table.pk, int(table.version))
    table.announce_beyond()


#: Joined to the log row's SELECT (so PostgreSQL runs it whenever the row is written): this
#: transaction commits without waiting for the WAL flush. ``true``: for this transaction only.
_ASYNC_COMMIT: Final = (", (SELECT set_config('synchronous_commit', 'off', true)) AS async_commit",)


def _pre_save(table: GameTable, name: str) -> Any:
    field = table._meta.get_field(name)
    return field.pre_save(table, False)  # type: ignore[union-attr]


def _not_written(manager: Any, table: GameTable, expected_version: int | None, what: str) -> None:
    """Nothing was written: the row moved on (409 with its version) or is gone (404)."""
    current = manager.filter(pk=table.pk).values_list("version", flat=True).first()
    if current is None:
        raise Http404(f"No such {what}.")
    if expected_version is not None:
        raise StaleVersion(current, what)
    raise RuntimeError(f"{table._meta.label} {table.pk} was not saved.")


def waits_of(game: TableGame, table: GameTable, state: Any, *, words: bool = True) -> list[Wait]:
    """Whom ``table`` (in ``state``) waits on, as keyed waits (the game's ``waits`` hook, or
    one per user of each seat in ``engine.waiting_on``, keyed by the seat: see
    :func:`_turn_key`). ``words=False``: a move only compares keys, so the default waits leave
    their title and body empty."""
    if game.hooks.waits is not None:
        return game.hooks.waits(table, state)
    out = []
    for seat in game.engine.waiting_on(state):
        users = game.access.players_of(table, seat)
        title: Words = ""
        body: Words = ""
        if words and users:
            title = (
                game.hooks.turn_title(table, seat)
                if game.hooks.turn_title is not None
                else texts.gettext_lazy("Your turn at the %(game)s", game=game.name)
            )
            body = _wait_text(game, state, seat)
        for user_id in users:
            out.append(
                Wait(
                    key=f"{game.wait_prefix(table.pk)}seat:{seat}",
                    user_id=user_id,
                    title=title,
                    body=body,
                )
            )
    return out


def _wait_text(game: TableGame, state: Any, seat: Seat) -> Words:
    """What ``seat`` is waited on for, in words for her: the engine's optional
    ``waiting_text(state, seat)`` (RAIGO: a spell to answer in someone else's turn), else the
    game's public summary ("Turn 12: Marisa to play"). Only her own notification carries it.
    Kept as message ids (``texts.engine_words``): the delivery renders them in her language."""
    words = getattr(game.engine, "waiting_text", None)
    text = words(state, seat) if words is not None else None
    return texts.engine_words(text or game.engine.summary(state))


def _turn_key(game: TableGame, wait: Wait, open_turns: Sequence[tuple[str, int]], at: int) -> str:
    """The key of the notification service's turn (``TurnWait``) for ``wait``.

    A game's own ``waits`` name their turns (a battle's ``turn:12``). The default waits name a
    seat: one wait lasts while the table keeps waiting on that seat, whatever she does
    meanwhile (the steps of her turn, several moves in a row), so its turn is the seat's open
    one, or a new one from version ``at`` when the table has just started waiting on her.
    Nothing in it depends on how many moves she made, so a wait says "your turn" once."""
    if game.hooks.waits is not None:
        return wait.key
    for key, user_id in open_turns:
        if user_id == wait.user_id and key.startswith(f"{wait.key}:"):
            return key
    return f"{wait.key}:from:{at}"


def _waits_end(game: TableGame, keys: set[str]) -> None:
    """End the turns of the waits ``keys`` (a default wait's key names its seat: its open
    turn is ended, whichever version it began at)."""
    from notifications import turn_wait_end
    from notifications.models import TurnWait

    if keys and game.hooks.waits is None:
        seats = Q()
        for key in keys:
            seats |= Q(key__startswith=f"{key}:")
        turns = TurnWait.objects.filter(seats, ended_at__isnull=True)
        keys = set(turns.values_list("key", flat=True))
    for key in keys:
        turn_wait_end(key=key)


def _publish_turn_notify(game: TableGame, table_id: int, version: int, **options: Any) -> None:
    """Publish the game's notify task (``options``: Celery's, such as ``expires``)."""
    if game.hooks.notify_task is None:
        from .tasks import table_turn_notify

        table_turn_notify.apply_async(
            args=(table_id, version), kwargs={"slug": game.slug}, **options
        )
    else:
        game.hooks.notify_task.apply_async(args=(table_id, version), **options)


def _enqueue_turn_notify(game: TableGame, table_id: int, version: int) -> None:
    """Publish the game's notify task; a broker hiccup must not turn a committed move into a
    500 (the sweep, :func:`table_lost_waits`, enqueues it again, and the task syncs to the
    current state)."""
    try:
        _publish_turn_notify(game, table_id, version)
    except Exception:
        name = "turn_notify" if game.hooks.notify_task is None else game.hooks.notify_task.name
        logger.exception("could not enqueue %s(%s, %s)", name, table_id, version)


def table_lost_waits(*, now: datetime | None = None) -> int:
    """Enqueue the notify task again for every table in play whose waits the notification
    service has not been told of (``waits_synced`` behind ``version``) for longer than
    ``settings.TABLE_WAITS_STALE_SECONDS``: its task was lost (a worker killed whole with it
    in flight, whose message Redis keeps unacknowledged until the visibility timeout; a
    publish lost with the broker at commit). A move that asked for no notice (nobody new waited
    on) is synced once too when its table goes quiet, which changes nothing. Each is enqueued
    for the table's version and expires once the budget has passed again. Returns how many."""
    from datetime import timedelta

    from django.db.models import F

    from .registry import registered

    now = now or timezone.now()
    budget = float(settings.TABLE_WAITS_STALE_SECONDS)
    enqueued = 0
    for game in registered().values():
        rows = game.table_model._default_manager.filter(
            status=TableStatus.ACTIVE,
            updated_at__lt=now - timedelta(seconds=budget),
            waits_synced__lt=F("version"),
            **dict(game.table_filter or {}),
        )
        for table_id, version in rows.order_by("updated_at").values_list("pk", "version"):
            try:
                _publish_turn_notify(game, table_id, version, expires=budget)
            except Exception:
                logger.exception(
                    "could not enqueue a lost turn notice (%s:%s)", game.slug, table_id
                )
                return enqueued  # the broker is away: the next sweep tries again
            enqueued += 1
    return enqueued


def table_waits_sync(game: TableGame, *, table_id: int) -> int:
    """Register the waits ``table_id`` has now with the notification service and end those
    it no longer has. Idempotent; returns how many waits are open."""
    from accounts.models import User
    from notifications import turn_wait_end, turn_wait_start
    from notifications.models import TurnWait

    with transaction.atomic():
        table = (
            game.table_model._default_manager.select_for_update(of=("self",))
            .defer("initial")
            .filter(pk=table_id)
            .first()
        )
        if table is None:
            return 0
        state = game.engine.from_json(table.state)
        waits = waits_of(game, table, state)
        # the game says who may be told: a player who left a campaign (a battle's engine still
        # names her as her combatant's controller) is not, and her turn ends
        scope, told = game.told(table, {w.user_id for w in waits})
        users = User.objects.in_bulk(told)
        current = [w for w in waits if w.user_id in users]
        open_turns = list(
            TurnWait.objects.filter(
                key__startswith=game.wait_prefix(table.pk), ended_at__isnull=True
            ).values_list("key", "user_id")
        )
        turns = [(w, _turn_key(game, w, open_turns, table.version)) for w in current]
        keys = {key for _, key in turns}
        for key in {key for key, _ in open_turns} - keys:
            turn_wait_end(key=key)
        url = game.hooks.url(table)
        label = table._meta.label_lower
        for w, key in turns:
            turn_wait_start(
                campaign=scope,
                user=users[w.user_id],
                key=key,
                title=w.title,
                body=w.body,
                url=url,
                # no alert for a seat looking at the table now (tables/presence.py)
                notify_user=not presence.watching(label, table.pk, w.user_id),
            )
        # what the sweep (table_lost_waits) reads: this version's waits are told
        game.table_model._default_manager.filter(pk=table.pk).update(waits_synced=table.version)
    return len(current)


def table_replay(game: TableGame, table: GameTable) -> Any:
    """The state reached by replaying the whole log from the table's initial state (an audit:
    it must equal the stored state)."""
    from westernroses.protocol import replay

    if game.hooks.replay is not None:
        return game.hooks.replay(table)
    from .undo.services import effective_log

    rows = game.action_model._default_manager.filter(
        **{game.table_model.log_table_field: table}
    ).order_by("seq")
    # the moves that stand: an undo row and the move it took back are skipped (tables/undo)
    log: list[tuple[Seat, Mapping[str, Any]]] = [
        (game.hooks.seat_from_text(r.seat), r.action) for r in effective_log(rows)
    ]
    return replay(game.engine, game.engine.from_json(table.initial), log)
