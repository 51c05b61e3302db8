"""Request types for views: what ``@login_required`` and the API's ``IsAuthenticated`` guarantee,
spelled out for mypy."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest
from rest_framework.exceptions import NotAuthenticated

from .models import User

if TYPE_CHECKING:
    from rest_framework.request import Request


class AuthedRequest(HttpRequest):
    """A request whose user is signed in (behind ``@login_required``)."""

    user: User


def signed_in(request: Request) -> User:
    """The user behind an API request. The API lets only signed-in users through
    (``IsAuthenticated`` by default), so anyone else is a 401 in DRF's words."""
    user = request.user
    if isinstance(user, User):
        return user
    raise NotAuthenticated
