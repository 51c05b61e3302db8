"""The bell's unread count on every page (registered in ``TEMPLATES`` context processors)."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.http import HttpRequest

from .selectors import unread_count


def notifications(request: HttpRequest) -> dict[str, Any]:
    """``unread_notifications``: a cached callable, so a page costs one COUNT query when the
    template shows the bell and none when it does not (templates call callables)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notifications": cache(lambda: unread_count(user))}
