"""A thread page's WebSocket: ``/ws/campaigns/<id>/threads/<thread>/`` tells an open thread
that it changed (a post, an edit, a reaction, a lock). Only the campaign's members may open it
(4401 signed out, 4404 anyone else or another campaign's thread), checked again when their
access changes. It sends ``{"type": "changed"}`` and nothing else: the page fetches its posts
through the same read as a reload, so a push never carries a secret roll (docs/push.md).
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.http import Http404

from apibase import push
from apibase.sockets import PushConsumer
from campaign.permissions import campaign_for

from .models import Thread
from .services import thread_group


def _access(campaign_id: str, thread_id: str, user: Any) -> int | None:
    if user is None or not user.is_authenticated:
        return push.CLOSE_UNAUTHENTICATED
    try:
        campaign, _ = campaign_for(user, campaign_id)
    except Http404:
        return push.CLOSE_NOT_FOUND
    if (
        not thread_id.isdigit()
        or not Thread.objects.filter(pk=int(thread_id), campaign=campaign).exists()
    ):
        return push.CLOSE_NOT_FOUND
    return None


class ThreadConsumer(PushConsumer):
    """One open thread page."""

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        self.campaign_id = str(kwargs["campaign_id"])
        self.thread_id = str(kwargs["thread_id"])[:20]
        self.user = self.scope.get("user")
        refused = await database_sync_to_async(_access)(self.campaign_id, self.thread_id, self.user)
        if refused is not None:
            await self.close(code=refused)
            return
        self.joined = [thread_group(self.thread_id), push.user_group(self.user.pk)]
        for group in self.joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        await self.send_json({"type": "changed"})

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "joined", ()):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Nothing is taken from the page: posts go through its form or the API."""

    async def thread_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "changed"})

    async def access_changed(self, event: dict[str, Any]) -> None:
        refused = await database_sync_to_async(_access)(self.campaign_id, self.thread_id, self.user)
        if refused is not None:
            await self.close(code=refused)

    async def notifications_changed(self, event: dict[str, Any]) -> None:
        """The user's group also carries her bell's news; this socket ignores it."""
