"""API throttles that read their rate from settings when they run (DRF's own classes read it
once at import, so neither a deploy's environment nor a test could change it afterwards)."""

from __future__ import annotations

from django.conf import settings
from rest_framework.throttling import AnonRateThrottle


class AuthRateThrottle(AnonRateThrottle):
    """Password-guessing brake for the token endpoint: ``settings.API_AUTH_RATE`` requests per
    client address, whoever is asking (the caller is not authenticated yet)."""

    scope = "auth"

    def get_rate(self) -> str:
        return str(settings.API_AUTH_RATE)

    # DRF makes a new throttle for every request and its __init__ calls get_rate, so the rate
    # is read from settings each time without more code here.

    def get_cache_key(self, request, view):  # type: ignore[no-untyped-def]
        # By address even for a signed-in caller: she may be guessing someone else's password.
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
