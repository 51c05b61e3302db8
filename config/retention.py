"""Data that stays bounded: what the hourly retention tasks remove, and what they keep.

Each function removes rows past their retention (settings below, docs/operations.md, "Data
that stays bounded") and returns how many it removed. They run from beat on the "bulk" queue
(``config/tasks.py``), delete in batches of ``RETENTION_BATCH`` rows (each batch its own short
transaction, so no lock is held for long and a killed run loses nothing) and stop after
``RETENTION_RUN_SECONDS``; the next run goes on where this one stopped.

* **Sessions**: expired ones (Django's ``clear_expired``), and sign-in records (django-axes'
  access log) older than ``LOGIN_LOG_RETENTION_DAYS``.
* **Notifications**: a notification older than ``NOTIFICATION_RETENTION_DAYS`` (90) with
  nothing still to send (no delivery pending or held), with its deliveries; digests, ended
  turn waits and sent scheduled notifications of the same age.
* **Deliveries**: a delivery done (sent, failed or skipped) for ``DELIVERY_RETENTION_DAYS``
  (30); its notification stays in the bell's list until its own retention.
* **Table talk**: chat lines of a table (any game's) that ended more than
  ``TABLE_CHAT_RETENTION_DAYS`` ago (180), and every ping past its few seconds on the board.
* **Finished tables** are kept whole by default: their state (what the page opens), their
  initial snapshot (what the log replays from) and their log. None of these is a copy of
  another, so none is dropped. What a table *keeps* beyond them lives in caches that expire on
  their own: engine states and rows kept in a process (``tables/kept_states.py``, 64 per
  process), table heads (a minute), cached views (ten minutes) and the advisor's estimates
  (ten minutes) in Redis. ``FINISHED_TABLE_RETENTION_DAYS`` (0: never) deletes a table ended
  and untouched that long, whole, with its log, seats and talk.
"""

from __future__ import annotations

import time
from datetime import timedelta
from importlib import import_module
from typing import Any

from django.conf import settings
from django.db import connection, models, transaction
from django.utils import timezone


class _Budget:
    """The run's deadline, shared by everything one task deletes."""

    def __init__(self) -> None:
        self.until = time.monotonic() + settings.RETENTION_RUN_SECONDS

    def left(self) -> bool:
        return time.monotonic() < self.until


def _delete(rows: models.QuerySet[Any], budget: _Budget) -> int:
    """Delete ``rows`` a batch of primary keys at a time, while the budget lasts."""
    manager = rows.model._default_manager
    removed = 0
    while budget.left():
        ids = list(rows.order_by().values_list("pk", flat=True)[: settings.RETENTION_BATCH])
        if not ids:
            break
        manager.filter(pk__in=ids).delete()
        removed += len(ids)
    return removed


def _days_ago(days: int) -> Any:
    return timezone.now() - timedelta(days=days)


def sessions_prune() -> int:
    """Expired sessions, and sign-in records past their retention."""
    from axes.models import AccessLog
    from django.contrib.sessions.backends.db import SessionStore as DBStore
    from django.contrib.sessions.models import Session

    budget = _Budget()
    engine = import_module(settings.SESSION_ENGINE)
    removed = 0
    if issubclass(engine.SessionStore, DBStore):  # the database engine, cached or not
        removed += _delete(Session.objects.filter(expire_date__lt=timezone.now()), budget)
    else:
        engine.SessionStore.clear_expired()  # a cache or a file store expires its own
    old = _days_ago(settings.LOGIN_LOG_RETENTION_DAYS)
    return removed + _delete(AccessLog.objects.filter(attempt_time__lt=old), budget)


#: A delivery in one of these is done: nothing will send it again.
DONE = ("sent", "failed", "skipped")


def notifications_prune() -> int:
    """Deliveries done for ``DELIVERY_RETENTION_DAYS``; notifications, digests, ended turn
    waits and sent scheduled notifications older than ``NOTIFICATION_RETENTION_DAYS``."""
    from notifications.models import (
        Delivery,
        Digest,
        Notification,
        ScheduledNotification,
        TurnWait,
    )

    budget = _Budget()
    deliveries = Delivery.objects.filter(
        status__in=DONE, updated_at__lt=_days_ago(settings.DELIVERY_RETENTION_DAYS)
    )
    removed = _delete(deliveries, budget)
    old = _days_ago(settings.NOTIFICATION_RETENTION_DAYS)
    still_to_send = Delivery.objects.filter(
        notification=models.OuterRef("pk"), status__in=("pending", "held")
    )
    notifications = Notification.objects.filter(created_at__lt=old).exclude(
        models.Exists(still_to_send)
    )
    removed += _delete(notifications, budget)
    removed += _delete(Digest.objects.filter(status__in=DONE, created_at__lt=old), budget)
    removed += _delete(TurnWait.objects.filter(ended_at__lt=old), budget)
    removed += _delete(ScheduledNotification.objects.filter(sent_at__lt=old), budget)
    return removed


def table_talk_prune() -> int:
    """Chat lines of tables (every game's) ended ``TABLE_CHAT_RETENTION_DAYS`` ago; a battle's
    pings past their time."""
    from battles.models import TablePing
    from battles.table_talk import PING_KEEP_SECONDS
    from tables.chat.models import ChatLine
    from tables.registry import registered

    budget = _Budget()
    old = _days_ago(settings.TABLE_CHAT_RETENTION_DAYS)
    removed = 0
    for model in sorted({g.table_model for g in registered().values()}, key=str):
        names = {f.name for f in model._meta.get_fields()}
        ended = model._default_manager.filter(status="ended").filter(
            **({"ended_at__lt": old} if "ended_at" in names else {"updated_at__lt": old})
        )
        lines = ChatLine.objects.filter(
            room__table_label=model._meta.label_lower, room__table_id__in=ended.values("pk")
        )
        removed += _delete(lines, budget)
    gone = timezone.now() - timedelta(seconds=PING_KEEP_SECONDS)
    return removed + _delete(TablePing.objects.filter(created_at__lt=gone), budget)


#: Finished tables deleted per batch, each with its whole log: few, so that one batch's delete
#: (a long battle's log may be tens of thousands of rows) stays short and finds its rows
#: through the log's index on the table (tests/ops/test_log_indexes.py).
TABLES_PER_BATCH = 5


def _logs() -> set[tuple[type[models.Model], type[models.Model], str]]:
    """(table model, log model, the log's column naming its table) of every registered game."""
    from tables.registry import registered

    logs: set[tuple[type[models.Model], type[models.Model], str]] = set()
    for game in registered().values():
        field = game.action_model._meta.get_field(game.table_model.log_table_field)
        if not isinstance(field, models.ForeignKey) or not field.column:
            raise TypeError(f"{game.slug}'s log names its table by no foreign key")
        logs.add((game.table_model, game.action_model, field.column))
    return logs


def finished_tables_prune() -> int:
    """Tables of every game ended and untouched for ``FINISHED_TABLE_RETENTION_DAYS``, whole
    (0, the default: kept for ever).

    The log goes first, in one statement per batch of tables on the log's index. Through the
    ORM it would be read whole into memory and deleted a hundred rows at a time (a ``post_delete``
    receiver of the table core listens to every model, so Django cannot delete it in one
    statement); the log has no rows of its own depending on it and is never read back once its
    table is gone. The tables then go through the ORM, with their seats, talk and receivers."""
    days = settings.FINISHED_TABLE_RETENTION_DAYS
    if not days:
        return 0
    budget = _Budget()
    old = _days_ago(days)
    removed = 0
    for table_model, log_model, column in _logs():
        ended = table_model._default_manager.filter(status="ended", updated_at__lt=old)
        log = connection.ops.quote_name(log_model._meta.db_table)
        while budget.left():
            with transaction.atomic():
                ids = list(
                    ended.order_by("pk")
                    .select_for_update(skip_locked=True)
                    .values_list("pk", flat=True)[:TABLES_PER_BATCH]
                )
                if not ids:
                    break
                with connection.cursor() as cursor:
                    cursor.execute(
                        f"DELETE FROM {log} WHERE {connection.ops.quote_name(column)} = ANY(%s)",  # noqa: S608 - names from the models
                        [ids],
                    )
                table_model._default_manager.filter(pk__in=ids).delete()
            removed += len(ids)
    return removed
