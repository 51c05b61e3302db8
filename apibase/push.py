"""Pushed updates: the sending side of the WebSockets (Django Channels).

What is pushed never carries a game's state, a view or a notification's text: only "table N is
at version V", "your unread count changed" and "your access changed". Each open page then
fetches what it may see through the same read path as a poll, so a push can carry no secret
that a poll would not (docs/push.md).

Messages go out once the transaction that made them commits (a rolled-back move announces
nothing) and never hold up the request. On the Redis channel layer (production: several web
processes share it) they are handed to one event loop this process keeps for the purpose, so
``channels_redis`` keeps its connections between messages; ``async_to_sync`` would start a
fresh loop, and so a fresh connection, for every message sent from a WSGI thread. On the
in-memory layer (``make run``: one process) the message must reach consumers on the server's
own loop, which ``async_to_sync`` finds from a request thread. A channel layer that cannot be
reached (Redis away) loses the message: pages fall back to polling, which still answers.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Mapping
from typing import Any, Final

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)

#: Close codes a consumer sends (4000-4999 are the application's own, RFC 6455 7.4.2).
CLOSE_FORBIDDEN: Final = 4403
CLOSE_NOT_FOUND: Final = 4404
CLOSE_UNAUTHENTICATED: Final = 4401


def table_group(label: str, pk: Any) -> str:
    """The group of every socket open on one table (``label``: its model's ``label_lower``)."""
    return f"table.{label}.{pk}"


def user_group(user_id: Any) -> str:
    """The group of every socket one user has open (her bell, her tables)."""
    return f"user.{user_id}"


def campaign_group(campaign_id: Any) -> str:
    """The group of the GM dashboards open on one campaign."""
    return f"campaign.{campaign_id}"


class _Sender:
    """One event loop in a daemon thread, started on first use, that sends to the layer."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()

    def loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._loop.is_closed():
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="push-sender", daemon=True).start()
                self._loop = loop
            return self._loop


_sender = _Sender()


async def _send(layer: Any, group: str, message: dict[str, Any]) -> None:
    try:
        await layer.group_send(group, message)
    except Exception:  # a layer that cannot be reached: pages poll instead
        log.warning("push to %s not sent", group, exc_info=True)


def send_now(group: str, message: Mapping[str, Any]) -> None:
    """Send ``message`` to ``group`` now, without waiting for it to arrive."""
    layer = get_channel_layer()
    if layer is None:
        return
    payload = dict(message)
    if isinstance(layer, InMemoryChannelLayer):
        try:
            async_to_sync(_send)(layer, group, payload)
        except RuntimeError:  # called on an event loop's own thread: schedule it there
            asyncio.get_running_loop().create_task(_send(layer, group, payload))
        return
    asyncio.run_coroutine_threadsafe(_send(layer, group, payload), _sender.loop())


def send_on_commit(group: str, message: Mapping[str, Any]) -> None:
    """Send ``message`` to ``group`` once the current transaction commits (at once outside
    one); nothing is sent for a rolled-back change."""
    payload = dict(message)
    transaction.on_commit(lambda: send_now(group, payload), robust=True)


def announce_table(label: str, pk: Any, version: int) -> None:
    """Tell every socket open on a table that it moved to ``version`` (on commit)."""
    send_on_commit(table_group(label, pk), {"type": "table.version", "version": int(version)})


def announce_access(user_id: Any) -> None:
    """Tell ``user_id``'s open sockets to check again whether she may still see their page
    (a membership changed or was removed); those she may no longer see close."""
    send_on_commit(user_group(user_id), {"type": "access.changed"})


def announce_unread(user_id: Any) -> None:
    """Tell ``user_id``'s bells that her notifications changed (they fetch the count)."""
    send_on_commit(user_group(user_id), {"type": "notifications.changed"})


def announce_campaign(campaign_id: Any) -> None:
    """Tell the dashboards open on a campaign that something on it changed."""
    send_on_commit(campaign_group(campaign_id), {"type": "campaign.changed"})
