"""One error shape for the whole API, so scripts and bots can rely on it.

Every error answers ``{"detail": "...", "errors": {field: [messages]}}`` (``errors`` present
for validation failures), and Django's own 404/403/validation exceptions map to the same.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tables.errors import BodyTooLarge, StaleVersion


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, StaleVersion):
        # Every game table, one answer: someone moved first, nothing changed, reload.
        return Response(
            {"detail": f"Someone else moved first: reload the {exc.what}.", "version": exc.current},
            status=409,
        )
    if isinstance(exc, BodyTooLarge):
        return Response(
            {"detail": str(exc), "errors": {"non_field_errors": [str(exc)]}}, status=413
        )
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        )
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        data = response.data
        if isinstance(data, list):
            data = {"non_field_errors": data}
        response.data = {"detail": "Invalid input.", "errors": data}
    return response
