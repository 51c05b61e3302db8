"""Celery tasks of the battles (Celery autodiscovers ``battles.tasks``).

:func:`battle_turn_notify` is enqueued on commit when a battle starts waiting on a player. It
takes ids (JSON only) and syncs the notification service's open turns with the battle's
*current* state under its row lock, so it is idempotent: a redelivered, repeated or late run
registers nothing twice (``turn_wait_start`` is keyed per turn and ``notify`` dedupes "your
turn" per key) and never a turn that has already passed. That is what makes ``acks_late`` with
``reject_on_worker_lost`` safe. A lost database connection or the soft time limit retries with
exponential backoff and jitter, a bounded number of times.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import InterfaceError, OperationalError

from tables.tasks import MAX_RETRIES, retry_in

logger = logging.getLogger(__name__)

__all__ = ["MAX_RETRIES", "battle_turn_notify", "retry_in"]


@shared_task(
    bind=True,
    name="battles.turn_notify",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    max_retries=MAX_RETRIES,
    soft_time_limit=30,
    time_limit=40,
)
def battle_turn_notify(self: Task[..., Any], battle_id: int, version: int) -> str:
    """Tell the players a battle now waits on (``version``: the state that enqueued it, for
    the logs; the task always works from the current state)."""
    from .services import battle_waits_sync

    try:
        open_turns = battle_waits_sync(battle_id=battle_id)
    except (SoftTimeLimitExceeded, OperationalError, InterfaceError) as exc:
        logger.warning("battle_turn_notify(%s, v%s) interrupted: %r", battle_id, version, exc)
        if self.request.is_eager:
            # No broker to hold a delayed retry (``make run``): the next turn change syncs.
            return "retry-later"
        raise self.retry(countdown=retry_in(self.request.retries)) from exc
    return f"{open_turns} open"
