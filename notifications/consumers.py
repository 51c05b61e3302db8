"""The bell's WebSocket: ``/ws/notifications/`` tells a signed-in user's open pages that her
notifications changed (one arrived, or she read some elsewhere). It sends no notification's
text: the page fetches its own list, as its poll did (apibase/push.py)."""

from __future__ import annotations

from typing import Any

from apibase import push
from apibase.sockets import PushConsumer


class BellConsumer(PushConsumer):
    """One open page's bell."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=push.CLOSE_UNAUTHENTICATED)
            return
        self.group = push.user_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json({"type": "notifications"})

    async def disconnect(self, code: int) -> None:
        group = getattr(self, "group", None)
        if group is not None:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """Nothing is taken from the page."""

    async def notifications_changed(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "notifications"})

    async def access_changed(self, event: dict[str, Any]) -> None:
        """Her bell stays hers whatever her campaigns: nothing to check."""
