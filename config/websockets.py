"""The WebSocket side of the ASGI application (Django Channels): its routes and how a socket
says who it is.

A browser's socket carries the site's session cookie (Channels' ``AuthMiddlewareStack``); a
script's may send ``Authorization: Token <key>`` instead, checked as the REST API checks it.
Sockets from another site are refused (``AllowedHostsOriginValidator``: the ``Origin`` must be
one of ``ALLOWED_HOSTS``), so a page elsewhere cannot open one with a member's cookie.
"""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.urls import path
from rest_framework.exceptions import AuthenticationFailed

from accounts.token_cache import CachedTokenAuthentication
from gmtools.consumers import DashboardConsumer
from notifications.consumers import BellConsumer
from tables.consumers import TableConsumer
from threads.consumers import ThreadConsumer

websocket_urlpatterns = [
    path("ws/notifications/", BellConsumer.as_asgi()),
    path("ws/tables/<slug:game>/<str:table_id>/", TableConsumer.as_asgi()),
    path("ws/campaigns/<str:campaign_id>/dashboard/", DashboardConsumer.as_asgi()),
    path("ws/campaigns/<str:campaign_id>/threads/<str:thread_id>/", ThreadConsumer.as_asgi()),
]


def _token_user(key: str) -> Any | None:
    try:
        user, _token = CachedTokenAuthentication().authenticate_credentials(key)
    except AuthenticationFailed:
        return None
    return user


class TokenAuthMiddleware:
    """``Authorization: Token <key>`` on the handshake sets ``scope["user"]`` (a wrong key: the
    anonymous user, whose socket each consumer closes with 4401)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        header = dict(scope.get("headers") or ()).get(b"authorization", b"")
        keyword, _, key = header.decode("latin-1").partition(" ")
        if keyword.lower() == "token" and key.strip():
            from django.contrib.auth.models import AnonymousUser

            user = await database_sync_to_async(_token_user)(key.strip()[:80])
            scope = {**scope, "user": user or AnonymousUser()}
        return await self.app(scope, receive, send)


def websocket_application() -> Any:
    return AllowedHostsOriginValidator(
        AuthMiddlewareStack(TokenAuthMiddleware(URLRouter(websocket_urlpatterns)))
    )
