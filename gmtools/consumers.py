"""The GM dashboard's WebSocket: ``/ws/campaigns/<id>/dashboard/`` tells an open dashboard that
something it shows may have changed (a character, a roll, an invitation, a session, a note, a
battle or a tavern table of the campaign: :mod:`gmtools.live`).

Only the campaign's GMs may open it, as only they may open the dashboard (4401 signed out, 4403
a player, 4404 anyone else), and it is checked again whenever the user's access changes (a GM
made a player has her dashboard socket closed). It sends ``{"type": "changed"}`` and nothing
else: the page asks its live URL with its ETag, as its poll did, and gets a 304 when nothing it
shows changed.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.core.exceptions import PermissionDenied
from django.http import Http404

from apibase import push
from apibase.sockets import PushConsumer
from campaign.permissions import campaign_for


def _access(campaign_id: str, user: Any) -> int | None:
    """``None`` when ``user`` may open the campaign's dashboard, else the close code."""
    if user is None or not user.is_authenticated:
        return push.CLOSE_UNAUTHENTICATED
    try:
        campaign_for(user, campaign_id, manage=True)
    except Http404:
        return push.CLOSE_NOT_FOUND
    except PermissionDenied:
        return push.CLOSE_FORBIDDEN
    return None


class DashboardConsumer(PushConsumer):
    """One open GM dashboard."""

    async def connect(self) -> None:
        self.campaign_id = str(self.scope["url_route"]["kwargs"]["campaign_id"])
        self.user = self.scope.get("user")
        refused = await database_sync_to_async(_access)(self.campaign_id, self.user)
        if refused is not None:
            await self.close(code=refused)
            return
        self.joined = [push.campaign_group(self.campaign_id), push.user_group(self.user.pk)]
        for group in self.joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        # whatever changed between the page's render and this socket opening
        await self.send_json({"type": "changed"})

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "joined", ()):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Nothing is taken from the page: its actions go through the dashboard's forms."""

    async def campaign_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "changed"})

    async def access_changed(self, event: dict[str, Any]) -> None:
        refused = await database_sync_to_async(_access)(self.campaign_id, self.user)
        if refused is not None:
            await self.close(code=refused)

    async def notifications_changed(self, event: dict[str, Any]) -> None:
        """The user's group also carries her bell's news; the dashboard's socket ignores it."""
