"""Times in the viewer's own zone: her profile's setting, else her browser's (which
``static/js/site.js`` reports in the ``tz`` cookie), else UTC. The middleware activates it for
the request, so every page, form and template filter uses it; pages name the zone beside the
times they show."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from functools import cache

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

COOKIE = "tz"


@cache
def known_zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def zone_for(request: HttpRequest) -> str:
    """The zone name to show ``request``'s times in."""
    user = getattr(request, "user", None)
    chosen = getattr(user, "time_zone", "") if user is not None and user.is_authenticated else ""
    for name in (chosen, request.COOKIES.get(COOKIE, "")):
        if name and name in known_zones():
            return name
    return "UTC"


class TimeZoneMiddleware:
    """Activate the viewer's zone for the whole request (after authentication)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        name = zone_for(request)
        timezone.activate(zoneinfo.ZoneInfo(name))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
