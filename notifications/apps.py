from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.http import HttpRequest


class NotificationsConfig(AppConfig):
    """The notification service: in-app, email, webhook and push channels, digests, reminders."""

    name = "notifications"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        user_logged_out.connect(_signed_out, dispatch_uid="notifications-push-signed-out")


def _signed_out(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """Signing out of a session removes the push devices subscribed from it."""
    from .services import push_subscriptions_signed_out

    if user is not None and request is not None and hasattr(request, "session"):
        push_subscriptions_signed_out(user=user, session_key=request.session.session_key)
