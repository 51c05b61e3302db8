"""Undo requests on any game table: ask, vote, take the move back (docs/undo.md).

* **Asking** (:func:`undo_ask`): a seat may ask to take back her last move while it is the
  table's last move (the log less what was taken back already), the game is in play, nothing
  hidden was revealed and no random draw was made by it (the engine's ``is_undoable``,
  :mod:`westernroses.undo_policy`), and, at a staked or rated table (the game's ``guarded``
  hook), only where the host allowed it. Whether a move may be taken back must not tell the
  others anything about a hidden choice: it is asked of every legal action with the same
  public face (``public_action``), and only a move all of them allow is taken back.
* **Voting** (:func:`undo_vote`): every other seat with a player approves or refuses; one
  refusal ends the request, the last approval takes the move back. A request stands at the
  table's version when asked: any move meanwhile makes it lapse.
* **Taking back** (:func:`_take_back`): the log is append-only, so the state is rebuilt by
  replaying it from ``initial`` without the move (:func:`effective_log`), and a log row marks
  the undo (``{"type": "undo", "seq": n}``, no seat). Replaying the log (the core's
  ``table_replay``) skips undone moves, so it still gives the stored state byte for byte.

Asking, voting and refusing move the table's version on (with no log row, as a pause of the
clock does), so every open page hears of it and fetches ``undo/``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any, Final, cast

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext

from apibase import push
from westernroses.protocol import event, replay

from ..models import GameTable, TableAction, TableStatus
from ..registry import TableGame, game_of
from .hooks import hooks_for
from .models import UndoLeave, UndoRequest, UndoStatus

if TYPE_CHECKING:
    from ..registry import Viewer

#: The action of a log row that takes a move back (no engine has an action of this type: the
#: row has no seat, and replays skip it with the move it names).
UNDO: Final = "undo"


def is_undo_row(seat: str, action: Any) -> bool:
    return seat == "" and isinstance(action, dict) and action.get("type") == UNDO


def effective_log(rows: Iterable[TableAction]) -> list[TableAction]:
    """The log's moves that stand: every row but the undo rows and the moves they took back."""
    rows = list(rows)
    undone = {int(r.action["seq"]) for r in rows if is_undo_row(r.seat, r.action)}
    return [r for r in rows if not is_undo_row(r.seat, r.action) and r.seq not in undone]


def replayed(game: TableGame, table: GameTable, rows: Sequence[TableAction]) -> Any:
    """The state ``rows`` (moves that stand) replay to from the table's initial state."""
    log = [(game.hooks.seat_from_text(r.seat), r.action) for r in rows]
    return replay(game.engine, game.engine.from_json(table.initial), log)


def _label(table: GameTable) -> str:
    return str(table._meta.label_lower)


def _locked(game: TableGame, table_id: int, user: Viewer) -> tuple[TableGame, GameTable, Any]:
    """The table row locked, its game and ``user``'s seat (404: may not see it)."""
    table = (
        game.table_model._default_manager.select_for_update(of=("self",))
        .filter(pk=table_id)
        .first()
    )
    if table is None:
        raise Http404(f"No such {game.name}.")
    game = game_of(table)
    seat = game.access.seat_of(user, table)
    return game, table, seat


def _rows(game: TableGame, table: GameTable) -> list[TableAction]:
    return list(
        game.action_model._default_manager.filter(
            **{game.table_model.log_table_field: table}
        ).order_by("seq")
    )


def _pending(table: GameTable) -> UndoRequest | None:
    return (
        UndoRequest.objects.select_for_update()
        .filter(table_label=_label(table), table_id=table.pk, status=UndoStatus.PENDING)
        .first()
    )


def _voters(game: TableGame, table: GameTable, state: Any, asking: str) -> list[str]:
    """The seats other than ``asking`` that players sit at (a bot does not vote)."""
    seats = range(len(game.engine.returns(state)))
    return [str(s) for s in seats if str(s) != asking and game.access.players_of(table, s)]


def why_not(game: TableGame, table: GameTable, seat: Any, user: Viewer) -> tuple[str, Any]:
    """Why ``seat`` may not ask to take back her last move now (empty: she may), and the rows
    that stand (for the caller to take the last back)."""
    hooks = hooks_for(game.slug)
    if hooks is None or getattr(game.engine, "is_undoable", None) is None:
        return f"Moves are not taken back at this {game.name}.", []
    if seat is None:
        return "Only a player at the table asks to take back her move.", []
    if table.status != TableStatus.ACTIVE:
        return "Only a game in progress takes a move back.", []
    if (
        hooks.guarded(table)
        and not UndoLeave.objects.filter(
            table_label=_label(table), table_id=table.pk, allowed=True
        ).exists()
    ):
        return "Undo is off at this table (it plays for stakes or a rating) unless the host "\
            "allows it.", []  # fmt: skip
    rows = effective_log(_rows(game, table))
    if not rows or rows[-1].seat != str(seat) or rows[-1].actor_id != getattr(user, "pk", None):
        return "Only your own move, while it is the table's last, can be taken back.", rows
    before = replayed(game, table, rows[:-1])
    if not _undoable(game, before, game.hooks.seat_from_text(rows[-1].seat), rows[-1].action):
        return (
            "This move cannot be taken back: it drew at random or revealed something hidden.",
            rows,
        )
    return "", rows


def _undoable(game: TableGame, before: Any, seat: Any, action: Any) -> bool:
    """Whether every legal action of ``seat`` with the same public face as ``action`` may be
    taken back (so whether it may tells nobody which one she chose)."""
    engine = game.engine
    face = engine.public_action(before, seat, action)
    same = [a for a in engine.legal_actions(before, seat) if
            engine.public_action(before, seat, a) == face] or [action]  # fmt: skip
    for candidate in same:
        after, events = engine.apply(before, seat, candidate)
        if not engine.is_undoable(before, seat, candidate, after, events):  # type: ignore[attr-defined]
            return False
    return True


def undo_ask(
    game: TableGame, *, table_id: int, user: Viewer, now: datetime | None = None
) -> UndoRequest:
    """``user`` asks to take back her last move (see the module docstring); a table where
    nobody else votes takes it back at once."""
    now = now or timezone.now()
    with transaction.atomic():
        game, table, seat = _locked(game, table_id, user)
        if seat is None:
            raise game.no_seat()
        if _pending(table) is not None:
            raise ValidationError(
                {"undo": [gettext("A request to take back a move is waiting already.")]}
            )
        reason, rows = why_not(game, table, seat, user)
        if reason:
            raise ValidationError({"undo": [reason]})
        state = game.engine.from_json(table.state)
        voters = _voters(game, table, state, str(seat))
        request = UndoRequest(
            table_label=_label(table),
            table_id=table.pk,
            seq=rows[-1].seq,
            seat=str(seat),
            requested_by=cast(Any, user),
            version=table.version,
        )
        if not voters:
            request.status, request.decided_at = UndoStatus.APPROVED, now
            request.save()
            _take_back(game, table, rows, request, now)
            return request
        _bump(table)
        request.version = table.version
        request.save()
    return request


def undo_vote(
    game: TableGame, *, table_id: int, user: Viewer, approve: bool, now: datetime | None = None
) -> UndoRequest:
    """``user``'s seat approves or refuses the waiting request."""
    now = now or timezone.now()
    with transaction.atomic():
        game, table, seat = _locked(game, table_id, user)
        request = _pending(table)
        if request is None:
            raise ValidationError({"undo": [gettext("No request to take back a move is waiting.")]})
        if seat is None:
            raise game.no_seat()
        if request.version != table.version:
            _decide(request, UndoStatus.LAPSED, now)
            raise ValidationError(
                {"undo": [gettext("The table has moved on: the request lapsed.")]}
            )
        if str(seat) == request.seat:
            raise PermissionDenied(gettext("You asked: the other players decide."))
        state = game.engine.from_json(table.state)
        if str(seat) not in _voters(game, table, state, request.seat):
            raise PermissionDenied(gettext("Only the other players at the table decide."))
        request.votes = {**request.votes, str(seat): bool(approve)}
        if not approve:
            _decide(request, UndoStatus.REFUSED, now)
            _bump(table)
            return request
        if set(_voters(game, table, state, request.seat)) <= set(request.votes):
            _decide(request, UndoStatus.APPROVED, now)
            _take_back(game, table, effective_log(_rows(game, table)), request, now)
            return request
        request.save(update_fields=["votes"])
    return request


def undo_withdraw(game: TableGame, *, table_id: int, user: Viewer) -> UndoRequest:
    """The seat that asked withdraws her waiting request."""
    with transaction.atomic():
        game, table, seat = _locked(game, table_id, user)
        request = _pending(table)
        if request is None:
            raise ValidationError({"undo": [gettext("No request to take back a move is waiting.")]})
        if seat is None or str(seat) != request.seat:
            raise PermissionDenied(gettext("Only the player who asked withdraws the request."))
        _decide(request, UndoStatus.WITHDRAWN, timezone.now())
        _bump(table)
    return request


def undo_allow(game: TableGame, table: GameTable, allowed: bool) -> None:
    """The host's leave for undo requests at a guarded table (at its creation)."""
    UndoLeave.objects.update_or_create(
        table_label=_label(table), table_id=table.pk, defaults={"allowed": allowed}
    )


def undo_allowed_at(table: GameTable) -> bool:
    """Whether the host allowed undo requests at ``table`` (a rematch keeps her leave)."""
    return UndoLeave.objects.filter(
        table_label=_label(table), table_id=table.pk, allowed=True
    ).exists()


def _decide(request: UndoRequest, status: str, now: datetime) -> None:
    request.status, request.decided_at = status, now
    request.save(update_fields=["status", "decided_at", "votes"])


def _bump(table: GameTable) -> None:
    """Open pages hear of the request: the version moves on (no log row, no new state)."""
    table.version += 1
    table.save(update_fields=["version", "updated_at"])
    push.announce_table(_label(table), int(table.pk), int(table.version))


def _take_back(
    game: TableGame,
    table: GameTable,
    rows: Sequence[TableAction],
    request: UndoRequest,
    now: datetime,
) -> None:
    """Replace the state by the log's replay without the last move, and log the undo (inside
    the caller's transaction, the row locked)."""
    from ..clocks import services as clocks
    from ..services import _enqueue_turn_notify, log_and_save, table_store

    before = game.engine.from_json(table.state)
    state = replayed(game, table, rows[:-1])
    read_version = table.version
    table.version += 1
    entry = game.action_model(
        **{game.table_model.log_table_field: table},
        seq=table.version,
        actor=None,
        seat="",
        action={"type": UNDO, "seq": request.seq},
        events=[event("A move was taken back: the players agreed.", type=UNDO)],
        version_after=table.version,
    )
    table_store(game, table, state)
    fields = ["state", "version", "status", "summary", "summary_words", "updated_at"]
    if game.hooks.columns is not None:
        fields += game.hooks.columns(table, before, state)
    if game.hooks.after_apply is not None:
        fields += game.hooks.after_apply(table, before, state) or ()
    clock = clocks.move_clock(game, table, None, state, now)
    if clock is not None:
        clocks.clock_save(table, clock)
    log_and_save(entry, table, fields, expected_version=read_version, what=game.name)
    transaction.on_commit(
        partial(_enqueue_turn_notify, game, int(table.pk), int(table.version)), robust=True
    )


def undo_state(game: TableGame, *, table_id: int, user: Viewer) -> dict[str, Any]:
    """What ``user`` sees of undo at the table: the waiting (or last) request, whether she may
    ask now and why not, and whether it is hers to vote on. Public: a request names a seat and
    a log position, never what the move was."""
    from ..selectors import table_for, table_pk

    table, seat = table_for(game, user, table_pk(game, table_id))
    game = game_of(table)
    full = game.table_model._default_manager.get(pk=table.pk)
    found = (
        UndoRequest.objects.filter(table_label=_label(table), table_id=table.pk)
        .order_by("-created_at", "-pk")
        .first()
    )
    reason, _ = why_not(game, full, seat, user) if found is None or found.status != "pending" \
        else ("A request to take back a move is waiting.", [])  # fmt: skip
    request = None
    votes_left: list[str] = []
    if found is not None:
        if found.status == UndoStatus.PENDING and full.state:
            state = game.engine.from_json(full.state)
            votes_left = [s for s in _voters(game, full, state, found.seat) if s not in found.votes]
        request = {
            "seat": found.seat,
            "move": found.seq,
            "status": found.status,
            "status_words": UndoStatus(found.status).label,
            "votes": found.votes,
            "waiting_for": votes_left,
        }
    return {
        "request": request,
        "can_ask": not reason,
        "why_not": reason,
        "your_vote": seat is not None and str(seat) in votes_left,
        "yours": seat is not None
        and request is not None
        and request["seat"] == str(seat)
        and request["status"] == UndoStatus.PENDING,
    }
