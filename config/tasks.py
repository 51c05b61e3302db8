"""Celery tasks of the site as a whole (autodiscovered: ``config`` is an installed app): the
hourly retention tasks of :mod:`config.retention`, on the "bulk" queue (``CELERY_TASK_ROUTES``).

Each is safe to run twice or at once with itself: it deletes only rows past their retention,
a batch at a time, and a row another run deleted first is simply not there any more.
"""

from __future__ import annotations

from typing import TypedDict

from celery import shared_task

from . import retention


class _TaskOptions(TypedDict):
    ignore_result: bool
    soft_time_limit: int
    time_limit: int


_BULK: _TaskOptions = {"ignore_result": True, "soft_time_limit": 100, "time_limit": 120}


@shared_task(name="config.clear_expired_sessions", **_BULK)
def clear_expired_sessions() -> int:
    """Beat: expired sessions and old sign-in records."""
    return retention.sessions_prune()


@shared_task(name="config.prune_notifications", **_BULK)
def prune_notifications() -> int:
    """Beat: deliveries, notifications, digests, turn waits and reminders past retention."""
    return retention.notifications_prune()


@shared_task(name="config.prune_table_talk", **_BULK)
def prune_table_talk() -> int:
    """Beat: chat of long-finished battles, and old pings."""
    return retention.table_talk_prune()


@shared_task(name="config.prune_finished_tables", **_BULK)
def prune_finished_tables() -> int:
    """Beat: finished tables past ``FINISHED_TABLE_RETENTION_DAYS`` (off by default)."""
    return retention.finished_tables_prune()
