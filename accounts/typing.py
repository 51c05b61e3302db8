"""Request types for views: what ``@login_required`` guarantees, spelled out for mypy."""

from __future__ import annotations

from django.http import HttpRequest

from .models import User


class AuthedRequest(HttpRequest):
    """A request whose user is signed in (behind ``@login_required``)."""

    user: User  # type: ignore[assignment]
