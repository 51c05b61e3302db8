"""One error shape for the whole API, so scripts and bots can rely on it.

Every error answers ``{"detail": "...", "errors": {field: [messages]}}`` (``errors`` present
for validation failures), and Django's own 404/403/validation exceptions map to the same. Redis
not answering for what truly needs it is a 503 with ``Retry-After`` (``apibase.redis_down``).

An error body is bounded, whatever the request: at most :data:`MAX_ERRORS` messages in all
(the ``detail`` says how many more there were), each at most :data:`MAX_MESSAGE` characters,
each field name at most :data:`MAX_KEY`. A body of 200,000 unknown keys once answered 6.7 MB
of errors, one per key; the first few say what is wrong as well.
"""

from __future__ import annotations

from typing import Any, Final

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext, ngettext
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from apibase.redis_down import DETAIL as REDIS_DETAIL
from apibase.redis_down import is_redis_down, log_unavailable, retry_seconds
from tables.errors import BodyTooLarge, StaleVersion

#: The most messages one error body lists, the longest message and the longest field name.
MAX_ERRORS: Final = 20
MAX_MESSAGE: Final = 500
MAX_KEY: Final = 100


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def bounded_errors(errors: Any) -> tuple[Any, int]:
    """``errors`` (DRF's nested field errors) cut to :data:`MAX_ERRORS` messages in all, with
    long messages and field names clipped; and how many messages were left out. Keeps the
    shape: a mapping stays a mapping of the same field names, a list a list."""
    kept = 0
    left_out = 0

    def walk(item: Any) -> Any:
        nonlocal kept, left_out
        if isinstance(item, dict):
            out = {}
            for key, value in item.items():
                if kept >= MAX_ERRORS:
                    left_out += _count(value)
                    continue
                out[_clip(str(key), MAX_KEY)] = walk(value)
            return out
        if isinstance(item, list):
            listed = []
            for value in item:
                if kept >= MAX_ERRORS:
                    left_out += _count(value)
                    continue
                listed.append(walk(value))
            return listed
        kept += 1
        text = _clip(str(item), MAX_MESSAGE)
        code = getattr(item, "code", None)
        return exceptions.ErrorDetail(text, code) if code is not None else text

    return walk(errors), left_out


def _count(item: Any) -> int:
    """How many messages ``item`` holds (iteratively: no input can exhaust the stack)."""
    total, stack = 0, [item]
    while stack:
        here = stack.pop()
        if isinstance(here, dict):
            stack.extend(here.values())
        elif isinstance(here, list):
            stack.extend(here)
        else:
            total += 1
    return total


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if is_redis_down(exc):
        # What truly needs Redis while it is away (apibase/redis_down.py): 503, try again.
        set_rollback()
        request = context.get("request")
        if request is not None:
            log_unavailable(request, exc)
        return Response(
            {"detail": REDIS_DETAIL}, status=503, headers={"Retry-After": str(retry_seconds())}
        )
    if isinstance(exc, StaleVersion):
        # Every game table, one answer: someone moved first, nothing changed, reload.
        # (a move after its seat's deadline says so: tables.errors.TimeRanOut)
        detail = getattr(exc, "detail", None) or f"Someone else moved first: reload the {exc.what}."
        return Response({"detail": detail, "version": exc.current}, status=409)
    if isinstance(exc, RequestDataTooBig):
        return Response({"detail": _too_big()}, status=413)
    if isinstance(exc, BodyTooLarge):
        return Response(
            {"detail": str(exc), "errors": {"non_field_errors": [str(exc)]}}, status=413
        )
    if isinstance(exc, DataError):
        # A number past its column's range (or text the database refuses) that a serializer
        # let through: the statement failed, so nothing was written. Answer what it is, a bad
        # input, never a 500; serializers bound their own fields where they know the column.
        set_rollback()
        exc = exceptions.ValidationError(
            {"non_field_errors": [gettext("A value is out of range for what can be stored.")]}
        )
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        )
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        # the service's reason, in words, for someone who may see the thing but not do this
        # (a bare PermissionDenied keeps DRF's general sentence)
        exc = exceptions.PermissionDenied(str(exc) or None)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        data = response.data
        if isinstance(data, list):
            data = {"non_field_errors": data}
        errors, left_out = bounded_errors(data)
        detail = gettext("Invalid input.")
        if left_out:
            detail = ngettext(
                "Invalid input: %(count)s more problem is not listed.",
                "Invalid input: %(count)s more problems are not listed.",
                left_out,
            ) % {"count": f"{left_out:,}"}
        response.data = {"detail": detail, "errors": errors}
    elif isinstance(response.data, dict) and isinstance(response.data.get("detail"), str):
        response.data["detail"] = _clip(response.data["detail"], MAX_MESSAGE)
    return response


def _api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


@csrf_exempt
def no_such_route(request: HttpRequest, rest: str = "") -> JsonResponse:
    """The last route under ``/api/``: a path no API route matches answers the API's JSON 404
    whatever ``DEBUG`` says (``make run`` has it on, and Django's debug page then skips
    :func:`not_found`). A path that only lacks its final slash says so.

    Exempt from the CSRF check, as the API's own views are: it writes nothing, and a script's
    POST to a mistyped path (a token, no CSRF cookie) got Django's HTML "CSRF verification
    failed" page instead of this 404."""
    from django.urls import Resolver404, resolve

    detail = "Not found."
    if not request.path.endswith("/"):
        try:
            match = resolve(request.path + "/")
        except Resolver404:
            match = None
        if match is not None and match.func is not no_such_route:
            detail = f"Not found. The API's paths end with a slash: {request.path}/"
    return JsonResponse({"detail": detail}, status=404)


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler404``: an API path that matches no route (``/api/battles/x/``) answers the API's
    JSON error like every other API 404; pages keep Django's HTML page."""
    if _api(request):
        return JsonResponse({"detail": "Not found."}, status=404)
    return defaults.page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400`` (a body Django refused before any view ran, such as one over the upload
    limit): JSON on the API, Django's page elsewhere."""
    if _api(request):
        if isinstance(exception, RequestDataTooBig):
            return JsonResponse({"detail": _too_big()}, status=413)
        return JsonResponse({"detail": "Bad request."}, status=400)
    return defaults.bad_request(request, exception)


def _too_big() -> str:
    """A body read past ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (smaller than the door's limit,
    ``config/body_limit.py``, which refuses larger ones unread): a 413 like the door's."""
    megabytes = int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE) // (1024 * 1024)
    return f"The request body is larger than {megabytes} MB: nothing was saved."


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler403``: JSON on the API, Django's page elsewhere."""
    if _api(request):
        return JsonResponse({"detail": "You do not have permission to do this."}, status=403)
    return defaults.permission_denied(request, exception)
