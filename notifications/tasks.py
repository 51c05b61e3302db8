"""Celery tasks of the notification service (re-exported by ``campaign/tasks.py``).

Tasks take ids, never objects (JSON only). The delivery tasks are idempotent (the row's status
decides; see :mod:`notifications.delivery`), which is what makes ``acks_late`` with
``reject_on_worker_lost`` safe: a worker killed mid-task leaves the message unacknowledged, the
broker hands it to the next worker, and that run finds the row still pending (its transaction
was rolled back) and sends, or finds it sent and does nothing. Transient failures retry with
exponential backoff and jitter, bounded by the row's attempt count; every task has soft and
hard time limits. Beat tasks are idempotent too (rows are claimed with SKIP LOCKED).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, TypedDict

from celery import Task, shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import InterfaceError, OperationalError

from . import delivery, reminders

logger = logging.getLogger(__name__)


class _TaskOptions(TypedDict):
    acks_late: bool
    reject_on_worker_lost: bool
    ignore_result: bool


_IDEMPOTENT: _TaskOptions = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "ignore_result": True,
}


def _run_attempt(
    task: Task[..., Any], attempt: Callable[..., delivery.AttemptResult], **ids: int | list[int]
) -> str:
    try:
        result = attempt(**ids)
    except (SoftTimeLimitExceeded, OperationalError, InterfaceError) as exc:
        # Out of time, or the database went away: the transaction rolled back and the row is
        # still pending, so try again later.
        logger.warning("notification attempt %s interrupted: %r", ids, exc)
        result = delivery.AttemptResult(
            "retry", retry_in=delivery.backoff_seconds(task.request.retries + 1), error=repr(exc)
        )
    if result.outcome == "retry":
        if task.request.is_eager:
            # No broker to hold a delayed retry (``make run``): the row stays pending.
            return "retry-later"
        raise task.retry(countdown=result.retry_in)
    return result.outcome


@shared_task(
    bind=True,
    name="notifications.deliver",
    soft_time_limit=30,
    time_limit=40,
    max_retries=20,
    **_IDEMPOTENT,
)
def deliver(self: Task[..., Any], delivery_id: int) -> str:
    """Send one delivery (one notification on one channel)."""
    return _run_attempt(self, delivery.delivery_attempt, delivery_id=delivery_id)


#: In-app deliveries per batch task: large enough that a burst is a handful of tasks, small
#: enough that one batch's transaction (a locked read, two updates) stays short.
IN_APP_BATCH = 200


@shared_task(
    bind=True,
    name="notifications.deliver_in_app",
    soft_time_limit=30,
    time_limit=40,
    max_retries=20,
    **_IDEMPOTENT,
)
def deliver_in_app(self: Task[..., Any], delivery_ids: list[int]) -> str:
    """Deliver a batch of in-app deliveries in one transaction (exactly once: see
    :func:`notifications.delivery.in_app_batch_attempt`)."""
    return _run_attempt(self, delivery.in_app_batch_attempt, delivery_ids=delivery_ids)


@shared_task(
    bind=True,
    name="notifications.deliver_digest",
    soft_time_limit=60,
    time_limit=75,
    max_retries=20,
    **_IDEMPOTENT,
)
def deliver_digest(self: Task[..., Any], digest_id: int) -> str:
    """Send one digest (held non-urgent notifications batched for one channel)."""
    return _run_attempt(self, delivery.digest_attempt, digest_id=digest_id)


def _queue(urgent: bool) -> str | None:
    """The queue for an urgent delivery; None: the task's own route (``CELERY_TASK_ROUTES``)."""
    return settings.NOTIFICATION_URGENT_QUEUE if urgent else None


def _send(task: Task[..., Any], args: tuple[object, ...], queue: str | None) -> None:
    """Publish ``task`` on ``queue``, or on the task's own route when None."""
    if queue is None:
        task.apply_async(args=args)
    else:
        task.apply_async(args=args, queue=queue)


def _publish(task: Task[..., Any], ids: list[int], *, queue: str | None = None) -> None:
    for pk in ids:
        try:
            _send(task, (pk,), queue)
        except Exception:
            # Left pending: requeue_stale_deliveries enqueues it again later.
            logger.exception("could not enqueue %s(%s)", task.name, pk)


def enqueue_deliveries(delivery_ids: list[int], *, urgent: bool = False) -> None:
    """Publish delivery tasks (called on commit); urgent ones by the urgent queue."""
    _publish(deliver, delivery_ids, queue=_queue(urgent))


def enqueue_in_app(delivery_ids: list[int], *, urgent: bool = False) -> None:
    """Publish in-app deliveries as batch tasks of at most :data:`IN_APP_BATCH` (on commit);
    urgent ones by the urgent queue."""
    for start in range(0, len(delivery_ids), IN_APP_BATCH):
        chunk = delivery_ids[start : start + IN_APP_BATCH]
        try:
            _send(deliver_in_app, (chunk,), _queue(urgent))
        except Exception:
            # Left pending: requeue_stale_deliveries enqueues them again later.
            logger.exception("could not enqueue %s(%s)", deliver_in_app.name, chunk)


def enqueue_digests(digest_ids: list[int]) -> None:
    """Publish digest tasks (called on commit)."""
    _publish(deliver_digest, digest_ids)


@shared_task(
    name="notifications.send_turn_reminders", soft_time_limit=120, time_limit=150, **_IDEMPOTENT
)
def send_turn_reminders() -> int:
    """Beat: remind turns that waited longer than their campaign's delay, once each."""
    return reminders.turn_reminders_send()


@shared_task(
    name="notifications.send_scheduled_notifications",
    soft_time_limit=120,
    time_limit=150,
    **_IDEMPOTENT,
)
def send_scheduled_notifications() -> int:
    """Beat: fire due scheduled notifications (session reminders), once each."""
    return reminders.scheduled_notifications_send()


@shared_task(name="notifications.send_digests", soft_time_limit=120, time_limit=150, **_IDEMPOTENT)
def send_digests() -> int:
    """Beat: batch held non-urgent deliveries into digests and enqueue them."""
    return len(delivery.digests_build())


@shared_task(
    name="notifications.requeue_stale_deliveries", soft_time_limit=60, time_limit=90, **_IDEMPOTENT
)
def requeue_stale_deliveries() -> int:
    """Beat: re-enqueue pending deliveries whose message was lost (safe: tasks are idempotent)."""
    deliveries, digests = delivery.stale_pending()
    enqueue_deliveries(deliveries)
    enqueue_digests(digests)
    return len(deliveries) + len(digests)


@shared_task(name="notifications.ping", soft_time_limit=5, time_limit=10)
def ping() -> float:
    """A no-op round trip: worker readiness in tests, and the benchmark's baseline."""
    return time.time()
