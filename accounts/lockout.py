"""What a locked-out login sees (django-axes counts the failures; this answers).

Why our own answer: axes' default is a bare 429 with no ``Retry-After``, and the API would get
an HTML page. A person gets the login page's look with the time to wait in words; a script gets
the API's error shape; both get ``Retry-After`` in seconds, so a well-behaved client backs off.
"""

from __future__ import annotations

import math
from typing import Any

from axes.helpers import get_cool_off
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext, ngettext


def wait_words(seconds: int) -> str:
    """The wait in whole minutes, in words of the reader's language."""
    minutes = math.ceil(seconds / 60)
    return ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    cool_off = get_cool_off(request)
    seconds = max(1, math.ceil(cool_off.total_seconds())) if cool_off else 900
    message = gettext(
        "Too many failed log-in attempts for this account from your address. Try again in %(wait)s."
    ) % {"wait": wait_words(seconds)}
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": message}, status=429)
    else:
        response = render(request, "registration/locked_out.html", {"message": message}, status=429)
    response["Retry-After"] = str(seconds)
    return response
