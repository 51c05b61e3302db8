"""Token authentication for the API: a username and password for a token."""

from __future__ import annotations

from rest_framework.authtoken.views import ObtainAuthToken


class ObtainTokenView(ObtainAuthToken):
    """Exchange a username and password for an API token (``Authorization: Token <key>``)."""
