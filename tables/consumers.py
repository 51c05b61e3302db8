"""The table's WebSocket: ``/ws/tables/<game>/<id>/`` tells an open page each new version.

A socket is authorized on connect exactly as the table's page is (the game's ``seat_of``: a
404 or 403 there closes the socket with 4404 or 4403) and again whenever the user's access
changes (:func:`apibase.push.announce_access`): a member removed from the campaign has her
sockets closed. What it sends is ``{"type": "version", "version": N}`` (the page then reads
its own view through the poll, so nothing reaches a seat that her poll would not show),
``{"type": "chat"}`` when something is said at the table (the page reads what it may) and who
is at the table (``{"type": "presence", "people": [...]}``: :mod:`tables.presence`). The page
sends only whether its tab is visible.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.core.exceptions import PermissionDenied
from django.http import Http404

from apibase import push
from apibase.sockets import PushConsumer

from . import presence
from .registry import game_for
from .selectors import table_for


def _access(slug: str, table_id: Any, user: Any) -> tuple[str, int, int] | int:
    """``(model label, table id, version)`` when ``user`` may see the table, else the close
    code (4401 signed out, 4403 forbidden, 4404 no such table or game)."""
    if user is None or not user.is_authenticated:
        return push.CLOSE_UNAUTHENTICATED
    try:
        game = game_for(slug)
        table, _seat = table_for(game, user, table_id)
    except (LookupError, Http404):
        return push.CLOSE_NOT_FOUND
    except PermissionDenied:
        return push.CLOSE_FORBIDDEN
    return table._meta.label_lower, int(table.pk), int(table.version)


class TableConsumer(PushConsumer):
    """One open table page."""

    groups: list[str] = []

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        self.slug, self.table_id = str(kwargs["game"]), str(kwargs["table_id"])
        self.user = self.scope.get("user")
        found = await database_sync_to_async(_access)(self.slug, self.table_id, self.user)
        if isinstance(found, int):
            await self.close(code=found)
            return
        label, pk, version = found
        self.table_group = push.table_group(label, pk)
        self.personal_group = push.user_group(self.user.pk)
        await self.channel_layer.group_add(self.table_group, self.channel_name)
        await self.channel_layer.group_add(self.personal_group, self.channel_name)
        await self.accept()
        await self.send_json({"type": "version", "version": version})
        self.label, self.pk = label, pk
        await self._seen(visible=True)

    async def _seen(self, *, visible: bool) -> None:
        changed = await sync_to_async(presence.seen, thread_sensitive=False)(
            self.label, self.pk, self.channel_name, self.user.pk, visible=visible
        )
        if changed:
            await self._tell_presence()

    async def _tell_presence(self) -> None:
        people = await database_sync_to_async(presence.in_words)(self.label, self.pk)
        await self.channel_layer.group_send(
            self.table_group, {"type": "presence.changed", "people": people}
        )

    async def disconnect(self, code: int) -> None:
        if getattr(self, "label", None) is not None:
            await sync_to_async(presence.gone, thread_sensitive=False)(
                self.label, self.pk, self.channel_name, self.user.pk
            )
            await self._tell_presence()
        for name in ("table_group", "personal_group"):
            group = getattr(self, name, None)
            if group is not None:
                await self.channel_layer.group_discard(group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """The page says only whether it is visible (also its heartbeat); moves go through the
        API, which checks them."""
        if isinstance(content, dict) and content.get("type") == "visibility":
            await self._seen(visible=content.get("visible") is True)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is not None and len(text_data) <= 200:  # bounded: a page says little
            await super().receive(text_data=text_data)

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        import json

        try:
            return json.loads(text_data)
        except ValueError:
            return None

    async def presence_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "presence", "people": event["people"]})

    async def table_version(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "version", "version": int(event["version"])})

    async def table_chat(self, event: dict[str, Any]) -> None:
        """Something was said, reacted to or muted at the table (:mod:`tables.chat`): the note
        carries no text; the page reads the lines it may through the chat API."""
        await self.send_json({"type": "chat"})

    async def access_changed(self, event: dict[str, Any]) -> None:
        found = await database_sync_to_async(_access)(self.slug, self.table_id, self.user)
        if isinstance(found, int):
            await self.close(code=found)

    async def notifications_changed(self, event: dict[str, Any]) -> None:
        """The user's group also carries her bell's news; a table socket ignores it."""
