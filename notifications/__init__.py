"""The notification service: in-app, email and webhook channels, digests and reminders.

What other features call (keyword-only; import from here):

* :func:`notify` — one user, one event, on the channels their preferences switch on;
* :func:`notify_campaign` — every member of a campaign, plus the campaign's own webhook;
* :func:`turn_wait_start` / :func:`turn_wait_end` — a turn that waits for a player (sends
  "your turn"; the ``send_turn_reminders`` beat task reminds once after the campaign's delay);
* :func:`session_reminders_schedule` and :func:`notification_schedule` — notifications due
  later (a session's day-before and hour-before reminders);
* :class:`EventType` — the events, with ``EventType.X.urgent``.

Layout: ``services`` (writes), ``selectors`` (reads), ``delivery`` (sending, digests),
``reminders`` (turns, scheduled), ``channels`` (email, webhook messages), ``webhooks`` (the
SSRF-safe HTTP client), ``tasks`` (Celery), and the pages/API in ``views``/``api``.
See docs/notifications.md.
"""

from campaign.models import URGENT_EVENTS, EventType, NotificationChannel

from .reminders import (
    notification_schedule,
    scheduled_notifications_cancel,
    session_reminders_schedule,
    turn_wait_end,
    turn_wait_start,
)
from .services import notify, notify_campaign

__all__ = [
    "URGENT_EVENTS",
    "EventType",
    "NotificationChannel",
    "notification_schedule",
    "notify",
    "notify_campaign",
    "scheduled_notifications_cancel",
    "session_reminders_schedule",
    "turn_wait_end",
    "turn_wait_start",
]
