"""Celery tasks of the campaign app (Celery's autodiscovery imports ``<app>.tasks``).

The notification service's tasks live in :mod:`campaign.notifications.tasks`; importing them
here registers them with the worker.
"""

from campaign.battles.tasks import battle_turn_notify  # noqa: F401  (grid battles)
from campaign.notifications.tasks import (
    deliver,
    deliver_digest,
    ping,
    requeue_stale_deliveries,
    send_digests,
    send_scheduled_notifications,
    send_turn_reminders,
)

__all__ = [
    "deliver",
    "deliver_digest",
    "ping",
    "requeue_stale_deliveries",
    "send_digests",
    "send_scheduled_notifications",
    "send_turn_reminders",
]
