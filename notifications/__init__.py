"""The notification service: in-app, email and webhook channels, digests and reminders.

What other features call (keyword-only; import from here):

* :func:`notify` — one user, one event, on the channels their preferences switch on;
* :func:`notify_campaign` — every member of a campaign, plus the campaign's own webhook;
* :func:`turn_wait_start` / :func:`turn_wait_end` — a turn that waits for a player (sends
  "your turn"; the ``send_turn_reminders`` beat task reminds once after the campaign's delay);
  :func:`turn_alerts_mark_read` — she opened the game: its turn alerts are read;
* :func:`session_reminders_schedule` and :func:`notification_schedule` — notifications due
  later (a session's day-before and hour-before reminders);
* :class:`EventType` — the events, with ``EventType.X.urgent``.

Layout: ``services`` (writes), ``selectors`` (reads), ``delivery`` (sending, digests),
``reminders`` (turns, scheduled), ``channels`` (email, webhook messages), ``webhooks`` (the
SSRF-safe HTTP client), ``tasks`` (Celery), and the pages/API in ``views``/``api``.
See docs/notifications.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .models import URGENT_EVENTS, EventType, NotificationChannel
    from .reminders import (
        notification_schedule,
        scheduled_notifications_cancel,
        session_reminders_schedule,
        turn_activity_register,
        turn_alerts_mark_read,
        turn_wait_end,
        turn_wait_start,
    )
    from .services import notify, notify_campaign

#: Where each public name lives. The package is also a Django app, imported before its models
#: may load, so the names are resolved on first use (PEP 562) rather than at import.
_PUBLIC = {
    "URGENT_EVENTS": "models",
    "EventType": "models",
    "NotificationChannel": "models",
    "notification_schedule": "reminders",
    "scheduled_notifications_cancel": "reminders",
    "session_reminders_schedule": "reminders",
    "turn_activity_register": "reminders",
    "turn_alerts_mark_read": "reminders",
    "turn_wait_end": "reminders",
    "turn_wait_start": "reminders",
    "notify": "services",
    "notify_campaign": "services",
}


def __getattr__(name: str) -> Any:
    module = _PUBLIC.get(name)
    if module is None:
        raise AttributeError(f"module 'notifications' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f"{__name__}.{module}"), name)
    # Resolved once: the hot paths import inside functions (``from notifications import
    # turn_wait_end`` on every move), which would otherwise run this lookup each time.
    globals()[name] = value
    return value


__all__ = [
    "URGENT_EVENTS",
    "EventType",
    "NotificationChannel",
    "notification_schedule",
    "notify",
    "notify_campaign",
    "scheduled_notifications_cancel",
    "session_reminders_schedule",
    "turn_activity_register",
    "turn_alerts_mark_read",
    "turn_wait_end",
    "turn_wait_start",
]
