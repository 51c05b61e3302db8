"""Turn clocks on any game table: set one, move it with each move, pause it, run it out.

* **On a move** (:func:`move_clock`, called by ``tables.services`` inside the move's
  transaction): the clock's text came with the table row (:mod:`.columns`), so a table
  without a clock costs nothing and a clocked one one ``UPDATE`` (:func:`clock_save`). A move
  sent after its seat's deadline is refused (:class:`tables.errors.TimeRanOut`, 409 "your
  time ran out") and the timeout applied at once (:func:`clock_tick`): the move is judged by
  the deadline, not by when the task happens to run.
* **On time** (:func:`clock_tick`, from the Celery task queued for the next moment due and
  from the beat sweep): under the clock row's lock, reminders that are due go out through
  ``notify()`` (once per deadline), and each seat past its deadline gets the table's rule:
  ``skip`` (the engine's ``timeout_action``; where the rules have no pass, the random bot's
  move), ``random`` or ``heuristic`` (the bot plays that move) or ``forfeit`` (the game's
  resignation, stakes settled). Idempotent: a late, repeated or redelivered run finds nothing
  due.
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

from django.apps import apps
from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from notifications import texts
from notifications.texts import Text, Words
from tables.errors import StaleVersion, TimeRanOut
from tables.models import GameTable, TableStatus
from tables.registry import TableGame, game_of

from . import controls
from .columns import CLOCK_COLUMN
from .hooks import hooks_for
from .models import TableClock

if TYPE_CHECKING:
    from tables.registry import Viewer

logger = logging.getLogger(__name__)


def label_of(table: GameTable) -> str:
    return str(table._meta.label_lower)


def snapshot_of(table: GameTable) -> dict[str, Any] | None:
    """The table's clock as read with its row (or read now, for a row read without it)."""
    if CLOCK_COLUMN in table.__dict__:
        return controls.loads(table.__dict__[CLOCK_COLUMN])
    text = (
        TableClock.objects.filter(table_label=label_of(table), table_id=table.pk)
        .values_list("snapshot", flat=True)
        .first()
    )
    table.__dict__[CLOCK_COLUMN] = text
    return controls.loads(text)


def clock_payload(table: GameTable) -> dict[str, Any] | None:
    """The clock as everyone at the table may see it (:func:`controls.public`)."""
    return controls.public(snapshot_of(table))


def clocked_seats(game: TableGame, table: GameTable, seats: Any) -> list[str]:
    """The seats among ``seats`` that people play (a bot's seat has no clock), and that the
    game clocks (its ``clocked`` hook: a battle's players, not its GM)."""
    clocked = hooks_for(game.slug).clocked
    return [
        str(s)
        for s in seats
        if (clocked is None or clocked(table, s)) and game.access.players_of(table, s)
    ]


def check_in_time(table: GameTable, seat: Any, now: datetime) -> None:
    """Refuse a player's move sent after her deadline (:class:`TimeRanOut`)."""
    deadline = controls.deadline_of(snapshot_of(table), str(seat))
    if deadline is not None and deadline <= now:
        raise TimeRanOut(int(table.version))


def move_clock(game: TableGame, table: GameTable, seat: Any, new: Any, now: datetime) -> str | None:
    """The clock's new text once ``seat`` (None: no seat, an undo) moved to ``new``; None for
    a table without a clock."""
    snapshot = snapshot_of(table)
    if snapshot is None:
        return None
    waiting = list(game.engine.waiting_on(new))
    moved = controls.after_move(
        snapshot,
        mover=None if seat is None else str(seat),
        waiting=[str(s) for s in waiting],
        clocked=clocked_seats(game, table, waiting),
        ended=game.engine.is_terminal(new),
        now=now,
    )
    return controls.dumps(moved)


def clock_save(table: GameTable, text: str) -> None:
    """Write the clock's new text (one statement) and, on commit, ask for the next moment."""
    snapshot = controls.loads(text)
    due = None if snapshot is None else controls.next_due(snapshot)
    TableClock.objects.filter(table_label=label_of(table), table_id=table.pk).update(
        snapshot=text, next_due=due, updated_at=timezone.now()
    )
    table.__dict__[CLOCK_COLUMN] = text
    if due is not None:
        transaction.on_commit(partial(schedule, label_of(table), int(table.pk), due), robust=True)


def schedule(label: str, table_id: int, due: datetime) -> None:
    """Queue :func:`tables.clocks.tasks.clock_due` for ``due`` when it comes soon enough for a
    worker to hold it (under half the broker's visibility timeout, after which Redis would
    hand a held message out again); a later moment is found by the beat sweep. A broker
    hiccup is logged: the sweep finds the clock anyway."""
    from .tasks import clock_due

    delay = (due - timezone.now()).total_seconds()
    if delay > float(settings.CELERY_VISIBILITY_TIMEOUT) / 2:
        return
    try:
        clock_due.apply_async(args=(label, table_id), eta=due + timedelta(milliseconds=50))
    except Exception:
        logger.exception("could not queue the clock of %s %s", label, table_id)


# --- setting and pausing ------------------------------------------------------------------------


def clock_set(
    game: TableGame,
    table: GameTable,
    control: controls.TimeControl | None,
    *,
    now: datetime | None = None,
) -> None:
    """Give ``table`` the time control ``control`` (None: no clock). A table in play starts
    the clocks of the seats it waits on. Inside the caller's transaction."""
    now = now or timezone.now()
    label = label_of(table)
    if control is None:
        TableClock.objects.filter(table_label=label, table_id=table.pk).delete()
        table.__dict__[CLOCK_COLUMN] = None
        return
    snapshot = controls.new_snapshot(control)
    if table.status == TableStatus.ACTIVE and table.state:
        state = game.engine.from_json(table.state)
        waiting = list(game.engine.waiting_on(state))
        snapshot = controls.after_move(
            snapshot,
            mover=None,
            waiting=[str(s) for s in waiting],
            clocked=clocked_seats(game, table, waiting),
            ended=game.engine.is_terminal(state),
            now=now,
        )
    text = controls.dumps(snapshot)
    TableClock.objects.update_or_create(
        table_label=label, table_id=table.pk, defaults={"snapshot": text}
    )
    clock_save(table, text)


def clock_started(game: TableGame, table: GameTable, now: datetime | None = None) -> None:
    """A game with a clock has just been dealt: the waited seats' clocks start."""
    snapshot = snapshot_of(table)
    if snapshot is None:
        return
    control = controls.TimeControl(snapshot["mode"], int(snapshot["seconds"]), snapshot["rule"])
    clock_set(game, table, control, now=now)


def clock_change(
    game: TableGame,
    *,
    table_id: int,
    user: Viewer,
    control: controls.TimeControl | None,
    now: datetime | None = None,
) -> dict[str, Any] | None:
    """Set (or take off: None) ``table_id``'s time control: only who manages the table (its
    game's ``manages`` hook: a battle's GM), with a rule the game allows. Returns the public
    clock."""
    now = now or timezone.now()
    with transaction.atomic():
        table = (
            game.table_model._default_manager.select_for_update(of=("self",))
            .defer("initial")
            .filter(pk=table_id)
            .first()
        )
        if table is None:
            raise Http404(f"No such {game.name}.")
        game = game_of(table)
        game.access.seat_of(user, table)  # 404 for who may not see it
        hooks = hooks_for(game.slug)
        if hooks.manages is None or not hooks.manages(user, table):
            raise PermissionDenied(gettext("Only the host or the game master sets the clock."))
        if control is not None and control.rule not in hooks.rules:
            allowed = ", ".join(gettext(controls.RULES[r]).lower() for r in hooks.rules)
            words = gettext("At this %(game)s, when time runs out: %(allowed)s.")
            raise ValidationError({"rule": [words % {"game": game.in_words, "allowed": allowed}]})
        clock_set(game, table, control, now=now)
        _announce(game, table)
    return clock_payload(table)


def clock_pause(
    game: TableGame, *, table_id: int, user: Viewer, pause: bool, now: datetime | None = None
) -> dict[str, Any] | None:
    """Pause (or resume) ``table_id``'s clock: only who manages the table (its host, the GM:
    the game's ``manages`` hook); 404 for who may not see it. Returns the public clock."""
    now = now or timezone.now()
    with transaction.atomic():
        table = game.table_model._default_manager.defer("initial").filter(pk=table_id).first()
        if table is None:
            raise Http404(f"No such {game.name}.")
        game = game_of(table)
        game.access.seat_of(user, table)  # 404 for who may not see it
        manages = hooks_for(game.slug).manages
        if manages is None or not manages(user, table):
            raise PermissionDenied(gettext("Only the host or the game master pauses the clock."))
        clock = (
            TableClock.objects.select_for_update()
            .filter(table_label=label_of(table), table_id=table.pk)
            .first()
        )
        if clock is None:
            raise ValidationError({"paused": [gettext("This table has no clock.")]})
        snapshot = controls.loads(clock.snapshot) or {}
        if pause:
            snapshot = controls.paused(snapshot, now)
        else:
            state = game.engine.from_json(table.state)
            waiting = [] if game.engine.is_terminal(state) else game.engine.waiting_on(state)
            snapshot = controls.resumed(
                snapshot,
                waiting=[str(s) for s in waiting],
                clocked=clocked_seats(game, table, waiting),
                now=now,
            )
        clock_save(table, controls.dumps(snapshot))
        _announce(game, table)
    return controls.public(snapshot)


def _announce(game: TableGame, table: GameTable) -> None:
    """Open pages redraw the clock: the game's own way (its ``announce`` hook: a battle's
    table feed), or the table's version moving on."""
    announce = hooks_for(game.slug).announce
    if announce is not None:
        announce(table)
    else:
        _touch_version(table)


def _touch_version(table: GameTable) -> None:
    """Open pages redraw the clock: the table's version moves on (as the tavern's changes of
    seats do, with no log row: a pause is not a move), its head with it (``tables/heads.py``
    follows every save), and its sockets hear of it."""
    from apibase import push

    table.version += 1
    table.save(update_fields=["version", "updated_at"])
    push.announce_table(label_of(table), int(table.pk), int(table.version))


# --- running out --------------------------------------------------------------------------------


def clock_tick(label: str, table_id: int, *, now: datetime | None = None) -> list[str]:
    """Send the reminders and apply the timeouts that are due at ``now`` on one table's clock;
    returns what was done, in words for the logs. Idempotent (see the module docstring)."""
    now = now or timezone.now()
    done: list[str] = []
    for _ in range(8):  # several seats may run out at once; each timeout is one move
        with transaction.atomic():
            clock = (
                TableClock.objects.select_for_update()
                .filter(table_label=label, table_id=table_id)
                .first()
            )
            if clock is None:
                return done
            model = apps.get_model(label)
            table = model._default_manager.defer("initial").filter(pk=table_id).first()
            snapshot = controls.loads(clock.snapshot)
            if table is None or snapshot is None:
                return done
            table.__dict__[CLOCK_COLUMN] = clock.snapshot
            game = game_of(table)
            if table.status != TableStatus.ACTIVE or snapshot["paused"]:
                if clock.next_due is not None:
                    clock_save(table, controls.dumps(_stopped(snapshot, now)))
                return done
            # whom the table waits on now: a seat a bot took over, or no longer waited on,
            # stops; a seat waited on since (a resignation passed the turn) starts
            state = game.engine.from_json(table.state)
            waiting = [] if game.engine.is_terminal(state) else game.engine.waiting_on(state)
            snapshot = controls.after_move(
                snapshot,
                mover=None,
                waiting=[str(s) for s in waiting],
                clocked=clocked_seats(game, table, waiting),
                ended=game.engine.is_terminal(state),
                now=now,
            )
            snapshot, sent = _remind(game, table, snapshot, now)
            done += sent
            clock_save(table, controls.dumps(snapshot))
            late = controls.due(snapshot, now)
            if not late:
                return done
            seat = late[0]
            done.append(_run_out(game, table, snapshot, seat, now))
    return done


def _stopped(snapshot: dict[str, Any], now: datetime) -> dict[str, Any]:
    return controls.after_move(snapshot, mover=None, waiting=[], clocked=[], ended=True, now=now)


#: What happens when the time runs out, for the reminder's body (``controls.RULES``' words).
RULE_AFTER = {
    "skip": gettext_noop("Then: the seat is skipped."),
    "random": gettext_noop("Then: the random bot plays the move."),
    "heuristic": gettext_noop("Then: the heuristic bot plays the move."),
    "forfeit": gettext_noop("Then: the seat forfeits."),
}


def _duration_text(seconds: float) -> Words:
    """:func:`controls.duration_words` ("1 hour 30 minutes") in the reader's language."""
    left = max(0, int(seconds))
    parts: list[Text] = []
    for size in (86_400, 3600, 60, 1):
        count, left = divmod(left, size)
        if count:
            parts.append(_unit(size, count))
    if not parts:
        return _unit(1, 0)
    if len(parts) == 1:
        return parts[0]
    return texts.gettext_lazy("%(larger)s %(smaller)s", larger=parts[0], smaller=parts[1])


def _unit(size: int, n: int) -> Text:
    if size == 86_400:
        return texts.ngettext_lazy("%(n)s day", "%(n)s days", "n", n=n)
    if size == 3600:
        return texts.ngettext_lazy("%(n)s hour", "%(n)s hours", "n", n=n)
    if size == 60:
        return texts.ngettext_lazy("%(n)s minute", "%(n)s minutes", "n", n=n)
    return texts.ngettext_lazy("%(n)s second", "%(n)s seconds", "n", n=n)


def _remind(
    game: TableGame, table: GameTable, snapshot: dict[str, Any], now: datetime
) -> tuple[dict[str, Any], list[str]]:
    """Tell each seat whose reminder is due how long she has left (once per deadline)."""
    from accounts.models import User
    from notifications import notify
    from notifications.models import EventType

    sent = []
    for seat in controls.reminders_due(snapshot, now):
        clock = snapshot["seats"][seat]
        deadline = datetime.fromisoformat(clock["deadline"])
        left = _duration_text((deadline - now).total_seconds())
        scope, told = game.told(
            table, game.access.players_of(table, game.hooks.seat_from_text(seat))
        )
        for user in User.objects.filter(pk__in=told):
            notify(
                recipient=user,
                event=EventType.TURN_REMINDER,
                campaign=scope,
                title=texts.gettext_lazy(
                    "%(left)s left to move in %(game)s", left=left, game=game.engine.title
                ),
                body=texts.Text(RULE_AFTER[snapshot["rule"]]),
                url=game.hooks.url(table),
                dedupe_key=f"clock:{label_of(table)}:{table.pk}:{seat}:{clock['deadline']}",
            )
        clock["reminded"] = clock["deadline"]
        sent.append(f"reminded seat {seat}")
    return snapshot, sent


def _run_out(
    game: TableGame, table: GameTable, snapshot: dict[str, Any], seat_text: str, now: datetime
) -> str:
    """Apply the table's rule to ``seat_text``, whose time has run out (in the tick's
    transaction, the clock row locked). The timeout move goes through the core's move service
    (which moves the clock on); a forfeit through the game's resignation."""
    from tables.services import table_action_apply

    seat = game.hooks.seat_from_text(seat_text)
    rule = snapshot["rule"]
    hooks = hooks_for(game.slug)
    deadline = snapshot["seats"][seat_text]["deadline"]
    if rule == "forfeit" and hooks.forfeit is not None:
        hooks.forfeit(int(table.pk), seat, now)
        fresh = type(table)._default_manager.defer("initial").get(pk=table.pk)
        fresh.__dict__[CLOCK_COLUMN] = controls.dumps(snapshot)
        after = game.engine.from_json(fresh.state)
        waiting = [] if fresh.status != TableStatus.ACTIVE else game.engine.waiting_on(after)
        moved = controls.after_move(
            snapshot,
            mover=seat_text,
            waiting=[str(s) for s in waiting],
            clocked=clocked_seats(game, fresh, waiting),
            ended=fresh.status != TableStatus.ACTIVE,
            now=now,
        )
        clock_save(fresh, controls.dumps(moved))
        return f"seat {seat_text} forfeited (deadline {deadline})"
    state = game.engine.from_json(table.state)
    action = _timeout_move(game, hooks, state, seat, rule)
    if action is None:
        # nothing may be played for her (not waited on any more): her clock just stops
        clock_save(table, controls.dumps(_stopped_seat(snapshot, seat_text, now)))
        return f"seat {seat_text}: nothing to play"
    try:
        table_action_apply(
            game,
            table_id=int(table.pk),
            actor=None,
            seat=seat,
            action=action,
            expected_version=table.version,
            now=now,
        )
    except (StaleVersion, ValidationError) as exc:
        logger.warning("timeout of %s seat %s not applied: %s", table.pk, seat_text, exc)
        return f"seat {seat_text}: {exc}"
    return f"seat {seat_text} timed out ({rule})"


def _stopped_seat(snapshot: dict[str, Any], seat: str, now: datetime) -> dict[str, Any]:
    waiting = [s for s, c in snapshot["seats"].items() if c["deadline"] and s != seat]
    return controls.after_move(
        snapshot, mover=seat, waiting=waiting, clocked=list(snapshot["seats"]), ended=False,
        now=now,
    )  # fmt: skip


def _timeout_move(game: TableGame, hooks: Any, state: Any, seat: Any, rule: str) -> Any:
    """The move played for a seat out of time: ``skip`` is the engine's ``timeout_action``
    (declining, passing), else the random bot's move; ``random``/``heuristic`` the bot's."""
    if seat not in game.engine.waiting_on(state):
        return None
    if rule == "skip":
        action = game.engine.timeout_action(state, seat)
        if action is None and hooks.skip_action is not None:
            action = hooks.skip_action(state, seat)
        if action is not None:
            return action
        rule = "random"
    if hooks.bot_action is not None and rule in ("random", "heuristic"):
        return hooks.bot_action(game.engine, state, seat, rule)
    legal = game.engine.legal_actions(state, seat)
    if not legal:
        return None
    return legal[secrets.randbelow(len(legal))]


def clock_sweep(*, now: datetime | None = None) -> int:
    """Beat: tick every clock whose next moment has come (a lost or never-queued task, a
    deadline further off than a worker may hold a message); returns how many were ticked."""
    now = now or timezone.now()
    due = TableClock.objects.filter(next_due__lte=now).order_by("next_due")
    ticked = 0
    for label, table_id in due.values_list("table_label", "table_id")[:200]:
        try:
            clock_tick(label, int(table_id), now=now)
        except Exception:
            logger.exception("the clock of %s %s could not run", label, table_id)
            continue
        ticked += 1
    return ticked
