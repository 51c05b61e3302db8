"""The table core's Celery tasks: "your turn" for any registered game, on commit, and the
sweep that enqueues it again when it was lost.

Enqueued by :func:`tables.services.table_action_apply` when a table starts waiting on someone
new. It takes ids only (JSON) and syncs from the table's *current* state under its row lock,
so it is idempotent (``acks_late`` with ``reject_on_worker_lost`` is safe): a redelivered or
late run registers nothing twice and never a turn that has passed. A worker killed whole
leaves the message unacknowledged in Redis until the broker's visibility timeout; the beat task
:func:`table_requeue_lost_waits` enqueues it again within ``TABLE_WAITS_STALE_SECONDS`` of the
table going quiet (:func:`tables.services.table_lost_waits`).
"""

from __future__ import annotations

import logging
import random
from typing import Any

from celery import Task, shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import InterfaceError, OperationalError

logger = logging.getLogger(__name__)

MAX_RETRIES = 5
RETRY_BASE_SECONDS = 5.0
RETRY_MAX_SECONDS = 300.0


def retry_in(retries: int) -> float:
    """Exponential backoff with jitter: a random point in the upper half of base·2^n."""
    ceiling = min(RETRY_MAX_SECONDS, RETRY_BASE_SECONDS * 2**retries)
    return random.uniform(ceiling / 2, ceiling)


@shared_task(
    bind=True,
    name="tables.turn_notify",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    max_retries=MAX_RETRIES,
    soft_time_limit=30,
    time_limit=40,
)
def table_turn_notify(self: Task[..., Any], table_id: int, version: int, slug: str) -> str:
    """Tell the players table ``table_id`` of game ``slug`` now waits on (``version``: the
    state that enqueued it, for the logs)."""
    from .registry import game_for
    from .services import table_waits_sync

    try:
        open_waits = table_waits_sync(game_for(slug), table_id=table_id)
    except (SoftTimeLimitExceeded, OperationalError, InterfaceError) as exc:
        logger.warning(
            "table_turn_notify(%s:%s, v%s) interrupted: %r", slug, table_id, version, exc
        )
        if self.request.is_eager:
            return "retry-later"
        raise self.retry(countdown=retry_in(self.request.retries)) from exc
    return f"{open_waits} open"


@shared_task(
    name="tables.requeue_lost_waits",
    ignore_result=True,
    soft_time_limit=50,
    time_limit=60,
)
def table_requeue_lost_waits() -> int:
    """Beat: enqueue "your turn" again for the tables whose notice was lost (every
    ``TABLE_SWEEP_SECONDS``); returns how many were enqueued."""
    from .services import table_lost_waits

    return table_lost_waits()
