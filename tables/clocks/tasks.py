"""The clocks' Celery tasks: one queued for a clock's next moment, and the beat sweep.

Both run :func:`tables.clocks.services.clock_tick`, which reads the clock under its row lock
and does only what is due, so a task run late, twice, or after a worker was killed with it
(``acks_late``, ``reject_on_worker_lost``) applies each timeout once. A worker killed whole
keeps its message unacknowledged in Redis until the visibility timeout; the sweep
(``tables.clock_sweep``, every ``TABLE_CLOCK_SWEEP_SECONDS``) finds the clock meanwhile, as it
finds a deadline too far off for a worker to hold its message.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import InterfaceError, OperationalError

from tables.tasks import MAX_RETRIES, retry_in

logger = logging.getLogger(__name__)


@shared_task(
    bind=True,
    name="tables.clock_due",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    max_retries=MAX_RETRIES,
    soft_time_limit=30,
    time_limit=40,
)
def clock_due(self: Task[..., Any], label: str, table_id: int) -> str:
    """Send the due reminders and apply the due timeouts of one table's clock."""
    from .services import clock_tick

    try:
        return "; ".join(clock_tick(label, table_id)) or "nothing due"
    except (SoftTimeLimitExceeded, OperationalError, InterfaceError) as exc:
        logger.warning("clock_due(%s, %s) interrupted: %r", label, table_id, exc)
        if self.request.is_eager:
            return "retry-later"
        raise self.retry(countdown=retry_in(self.request.retries)) from exc


@shared_task(name="tables.clock_sweep", ignore_result=True, soft_time_limit=50, time_limit=60)
def clock_sweep() -> int:
    """Beat: tick every clock whose next moment has passed; returns how many."""
    from .services import clock_sweep as sweep

    return sweep()
