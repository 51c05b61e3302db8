"""Refuse a request whose declared body is larger than anything the site accepts, before a byte
of it is read (hardening finding 8: "oversized uploads refused before the whole body is read").

Django's own limits act while it reads (``DATA_UPLOAD_MAX_MEMORY_SIZE`` for form fields) or
spool a large file to disk first (``FILE_UPLOAD_MAX_MEMORY_SIZE``); this checks the
``Content-Length`` header at the door. The proxy in front should hold the same limit
(docs/deploy.md), so such a body never reaches Python at all.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse


class BodyLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = int(settings.MAX_REQUEST_BODY_BYTES)
        try:
            declared = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            declared = 0
        if declared > limit:
            message = f"The request is larger than {limit // (1024 * 1024)} MB: nothing was read."
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": message}, status=413)
            return HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")
        return self.get_response(request)
