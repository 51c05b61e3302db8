"""The bell's unread count on every page (registered in ``TEMPLATES`` context processors)."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.conf import settings
from django.http import HttpRequest

from .selectors import unread_count


def notifications(request: HttpRequest) -> dict[str, Any]:
    """``unread_notifications``: a cached callable, so a page costs one COUNT query when the
    template shows the bell and none when it does not (templates call callables).
    ``push_sockets``: whether pages open WebSockets for pushed updates (``PUSH_SOCKETS``)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {
        "unread_notifications": cache(lambda: unread_count(user)),
        "push_sockets": settings.PUSH_SOCKETS,
    }
