"""Redis down: remembered for a moment by each process, and what a request that truly needs it
answers meanwhile (503 with ``Retry-After``, in the API's JSON error shape under ``/api/`` and
as the site's own page elsewhere, never a 500).

**Remembered.** A process that met a dead or silent Redis (a refused connection, a timeout:
``config.redis_cache``'s connections report it) counts that server as down for
``REDIS_RETRY_SECONDS`` (5 s): every question to it meanwhile fails at once with
:class:`RedisUnavailable`, without touching the network, and the first one after that tries
again. The cache's connection pool and the Celery app's publishing (``config.celery``) both
consult it, so a request pays for a frozen Redis at most once per process and moment, not once
per question.

**Answered.** Most requests do not need Redis to work: the token lookup, the throttles, the
table heads, cached views, sessions and the signed-in user fall back to the database or fail
open. What cannot work without it raises a ``redis`` error (or kombu's, publishing to the
broker) and ends in :func:`unavailable`: a form that must apply once
(:mod:`apibase.form_once`), a change whose cached copies could not be dropped (a token, a
user, a membership, a session signed out: ``accounts.sessions``), the advisor (its searches
run in a worker reached through Redis). Nothing was changed: each of those asks Redis before it
writes, or inside the transaction that then rolls back.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

#: (host, port) → the monotonic time until which that Redis counts as down in this process.
_DOWN: dict[tuple[str, int], float] = {}
_LOCK = threading.Lock()

#: The errors that mean "Redis (the cache or the broker) is not answering".
REDIS_ERRORS: tuple[type[Exception], ...] = (RedisError, BrokerError)

DETAIL = (
    "A service this needs is not answering for a moment; nothing was changed. "
    "Try again in a few seconds."
)


class RedisUnavailable(RedisConnectionError):
    """Redis did not answer a moment ago: not asked again until ``REDIS_RETRY_SECONDS`` pass."""


def retry_seconds() -> int:
    """How long a Redis that failed is left alone (and what a 503's ``Retry-After`` says)."""
    return max(1, round(float(getattr(settings, "REDIS_RETRY_SECONDS", 5))))


def _address(host: str, port: int) -> tuple[str, int]:
    return ("127.0.0.1" if host == "localhost" else host, int(port))


def address_of(url: str) -> tuple[str, int]:
    """The (host, port) of a ``redis://`` URL, as :func:`check` keys it."""
    parts = urlsplit(url)
    return _address(parts.hostname or "localhost", parts.port or 6379)


def mark_down(host: str, port: int) -> None:
    """Remember that the Redis at ``host:port`` failed (a timeout, a refused connection)."""
    with _LOCK:
        _DOWN[_address(host, port)] = time.monotonic() + retry_seconds()


def check(host: str, port: int) -> None:
    """Raise :class:`RedisUnavailable` while the Redis at ``host:port`` counts as down."""
    key = _address(host, port)
    until = _DOWN.get(key)
    if until is None:
        return
    if time.monotonic() < until:
        raise RedisUnavailable(f"Redis at {key[0]}:{key[1]} did not answer; trying again shortly.")
    with _LOCK:  # the time is up: the next question tries for real
        if _DOWN.get(key) == until:
            del _DOWN[key]


def is_redis_down(exc: BaseException) -> bool:
    return isinstance(exc, REDIS_ERRORS)


def unavailable(request: HttpRequest) -> HttpResponse:
    """The 503: JSON (``{"detail": ...}``) for the API, the site's page for people."""
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": DETAIL}, status=503)
    else:
        response = render(request, "503.html", {"detail": DETAIL}, status=503)
    response["Retry-After"] = str(retry_seconds())
    return response


def log_unavailable(request: HttpRequest, exc: BaseException) -> None:
    """A warning, not a server error: the service is away, the code is fine."""
    logger.warning("503 for %s %s: Redis is not answering (%r)", request.method, request.path, exc)


class RedisDownMiddleware:
    """A view that raised a Redis error answers :func:`unavailable`. DRF views answer the same
    through the API's exception handler (``config.api_errors``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_redis_down(exception):
            return None
        log_unavailable(request, exception)
        return unavailable(request)


def soft_get(key: str) -> Any:
    """``cache.get(key)``, or None while Redis is away: for a value the caller can build from
    the database (a cached view, a rendered panel)."""
    from django.core.cache import cache

    try:
        return cache.get(key)
    except RedisError:
        return None


def soft_get_many(keys: list[str]) -> dict[str, Any]:
    """``cache.get_many(keys)`` (one round trip), or nothing while Redis is away."""
    from django.core.cache import cache

    try:
        return dict(cache.get_many(keys))
    except RedisError:
        return {}


def soft_set(key: str, value: Any, timeout: float) -> None:
    """``cache.set``, or nothing while Redis is away (the next request builds it again)."""
    from django.core.cache import cache

    with contextlib.suppress(RedisError):
        cache.set(key, value, timeout)
