"""Small helpers the campaign-play pages share."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.http import HttpRequest, JsonResponse

from apibase.numbers import whole_number


def wants_json(request: HttpRequest) -> bool:
    """The dashboard's script posts with ``Accept: application/json``; forms without script
    get a redirect (or the page again with errors)."""
    return "application/json" in request.headers.get("Accept", "")


def error_messages(exc: ValidationError) -> dict[str, list[str]]:
    if hasattr(exc, "error_dict"):
        return {field: list(messages) for field, messages in exc.message_dict.items()}
    return {"non_field_errors": list(exc.messages)}


def json_result(
    *, ok: bool, message: str = "", errors: dict[str, Any] | None = None, status: int = 200
) -> JsonResponse:
    body: dict[str, Any] = {"ok": ok, "detail": message}
    if errors:
        body["errors"] = errors
    return JsonResponse(body, status=status)


def int_or_none(value: Any) -> int | None:
    """A whole number written in the ASCII digits 0-9 (``apibase.numbers``), else None."""
    return whole_number(value) if isinstance(value, str) else None
