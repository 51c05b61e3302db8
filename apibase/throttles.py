"""API throttles that read their rate from settings when they run (DRF's own classes read it
once at import, so neither a deploy's environment nor a test could change it afterwards), and
the per-user rate counted in Redis with one round trip."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from django.conf import settings
from django.http import HttpRequest
from redis.exceptions import RedisError
from rest_framework import throttling as drf_throttling
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle

from .cache_redis import default_redis

if TYPE_CHECKING:  # DRF imports its settings, which import these throttles
    from rest_framework.request import Request
    from rest_framework.views import APIView

#: The scope of the reads a page repeats to stay live (a table's state, a battle's view and
#: its chat feed, the bell, the advisor while it thinks): ``API_POLL_RATE``, counted apart
#: from the rest of the API. An open battle page asks about 2.7 times a second (its view and
#: feed every second, the bell every 1.5 s), 9,600 times an hour: counted in the ``user`` scope
#: (6,000 an hour) it went stale 37 minutes into every hour of a session.
POLL_SCOPE = "poll"


class AuthRateThrottle(AnonRateThrottle):
    """Password-guessing brake per client address: ``settings.API_AUTH_RATE`` log-in attempts,
    whoever is asking (the caller is not authenticated yet). One count for the log-in page
    and the token endpoint, so neither is a way around the other's limit."""

    scope = "auth"

    def get_rate(self) -> str:
        return str(settings.API_AUTH_RATE)

    # DRF makes a new throttle for every request and its __init__ calls get_rate, so the rate
    # is read from settings each time without more code here.

    def allow_request(self, request: Request | HttpRequest, view: APIView | None) -> bool:
        try:
            # The log-in page passes Django's HttpRequest and no view: DRF's throttle reads only
            # the request's META and what the key needs (posted_text), which both kinds have.
            return bool(super().allow_request(request, view))  # type: ignore[arg-type]
        except RedisError:
            return True  # Redis is away: the brake fails open (django-axes still locks out)

    def get_cache_key(self, request: Request | HttpRequest, view: APIView | None) -> str | None:
        # By address even for a signed-in caller: she may be guessing someone else's password.
        # get_ident reads only META, which a page's HttpRequest has too.
        ident = self.get_ident(request)  # type: ignore[arg-type]
        return self.cache_format % {"scope": self.scope, "ident": ident}


def posted_text(request: Request | HttpRequest, field: str) -> str:
    """A posted field as its limit counts it, stripped and case-folded: the token endpoint's
    body (DRF's ``data``) or a page's form; "" when there is none."""
    data: Any = getattr(request, "data", None)
    if data is None:
        data = getattr(request, "POST", None)
    value = data.get(field) if isinstance(data, Mapping) or hasattr(data, "getlist") else None
    return value.strip().casefold() if isinstance(value, str) else ""


def _digest(text: str) -> str:
    """One key size for a posted value of any length."""
    return hashlib.sha256(text.encode()).hexdigest()[:32]


class AuthUserRateThrottle(AuthRateThrottle):
    """Password-guessing brake per account: ``settings.AUTH_USER_RATE`` log-in attempts naming
    one user name, from any address (django-axes locks a name and address pair; this bounds
    guesses spread over many addresses). Shared by the log-in page and the token endpoint."""

    scope = "auth_user"

    def get_rate(self) -> str:
        return str(settings.AUTH_USER_RATE)

    def get_cache_key(self, request: Request | HttpRequest, view: APIView | None) -> str | None:
        name = posted_text(request, "username")
        if not name:
            return None
        return self.cache_format % {"scope": self.scope, "ident": _digest(name)}


class SignupRateThrottle(AuthRateThrottle):
    """Sign-ups per client address: ``settings.SIGNUP_RATE`` posts of the sign-up form."""

    scope = "signup"

    def get_rate(self) -> str:
        return str(settings.SIGNUP_RATE)


class PasswordResetRateThrottle(AuthRateThrottle):
    """Password-reset requests per client address: ``settings.PASSWORD_RESET_RATE``."""

    scope = "reset"

    def get_rate(self) -> str:
        return str(settings.PASSWORD_RESET_RATE)


class PasswordResetEmailThrottle(AuthRateThrottle):
    """Password-reset requests naming one email address, from any address (no inbox is
    flooded with reset emails): ``settings.PASSWORD_RESET_RATE``. Counted whether or not an
    account has that address, so the limit tells nothing about who has an account."""

    scope = "reset_email"

    def get_rate(self) -> str:
        return str(settings.PASSWORD_RESET_RATE)

    def get_cache_key(self, request: Request | HttpRequest, view: APIView | None) -> str | None:
        email = posted_text(request, "email")
        if not email:
            return None
        return self.cache_format % {"scope": self.scope, "ident": _digest(email)}


class WindowCounter(NamedTuple):
    """A window's counter key is ``prefix + str(user id) + suffix``, expiring after
    ``seconds``."""

    prefix: str
    suffix: str
    seconds: int

    def key(self, user_id: int | str) -> str:
        return f"{self.prefix}{user_id}{self.suffix}"


class Counted(NamedTuple):
    """A request already counted (``request.throttle_counted``): the counter's key and the
    count after this request."""

    key: str
    total: int


class UserRateThrottle(drf_throttling.UserRateThrottle):
    """The API's per-user request rate (``API_USER_RATE``, DRF's ``user`` scope), counted in
    fixed windows of the rate's period with one Redis round trip per request.

    DRF's own ``UserRateThrottle`` keeps a sliding log: every request's timestamp, up to the
    rate's whole allowance (6,000 by default), read, unpickled, extended, pickled and written
    back on every request, two cache round trips each time. A table that polls every two
    seconds made it the largest cost of the unchanged poll after the middleware. Here one
    pipelined ``SET NX EX`` and ``INCR`` count the request in the current window: constant size,
    one round trip, atomic across processes. The price is the usual one of fixed windows: a
    client may spend one window's allowance at its end and the next at the start of the next.
    (django-ratelimit counts the same way but through Django's cache API, whose ``incr`` is
    three round trips on Redis.) Without Redis (``make run``'s memory cache) DRF's own log is
    used unchanged.
    """

    scope: str = "user"

    def get_rate(self) -> str | None:
        # read when the request arrives, so a deploy's setting or a test's override applies
        # The stubs type the rates as numbers; DRF's are "N/period" strings.
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)  # type: ignore[return-value]

    @staticmethod
    def scope_for(view: object, method: str) -> str:
        """``poll`` for a read of a view that pages poll (``live_reads = True`` on the view),
        else ``user``."""
        live = getattr(view, "live_reads", False) and method in ("GET", "HEAD")
        return POLL_SCOPE if live else "user"

    def _count_in(self, scope: str) -> None:
        if scope != self.scope:
            self.scope = scope
            self.rate = self.get_rate()
            self.num_requests, self.duration = self.parse_rate(self.rate)

    def _limits(self) -> tuple[int, int] | None:
        """The scope's allowance and window in seconds; None when the scope has no rate."""
        if self.num_requests is None or self.duration is None:
            return None
        return self.num_requests, self.duration

    def allow_request(self, request: Request, view: APIView) -> bool:
        self._count_in(self.scope_for(view, request.method or "GET"))
        redis = default_redis()
        if redis is None:
            return bool(super().allow_request(request, view))
        limits = self._limits()
        if limits is None:
            return True
        allowance, duration = limits
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        now = self.timer()
        window = int(now // duration)
        counter = redis.backend.make_and_validate_key(f"{self.key}:{window}")  # KEY_PREFIX too
        counted = request.__dict__.get("throttle_counted")
        if isinstance(counted, Counted) and counted.key == counter:
            count = counted.total  # counted by the request's own lookup (the poll's script)
        else:
            try:
                with redis.client.pipeline(transaction=False) as pipe:
                    pipe.set(counter, 0, ex=duration + 1, nx=True)  # the window's first
                    pipe.incr(counter)  # keeps the expiry set above
                    _, count = pipe.execute()
            except RedisError:
                return True  # a throttle never turns a working API away because Redis blinked
        self._retry_after = (window + 1) * duration - now
        return int(count) <= allowance

    @classmethod
    def window_counter(cls, view: object, method: str = "GET") -> WindowCounter | None:
        """Where the current window's count of a user's ``method`` requests to ``view`` is
        kept, for a Redis script that learns who is asking and can count the request in the
        same round trip (the table poll, :mod:`tables.poll_auth`); None when requests are not
        counted in Redis or ``view`` does not use this throttle."""
        redis = default_redis()
        if redis is None:
            return None
        if not any(issubclass(t, cls) for t in getattr(view, "throttle_classes", ())):
            return None
        throttle = cls()
        throttle._count_in(cls.scope_for(view, method))
        limits = throttle._limits()
        if limits is None:
            return None
        _, duration = limits
        window = int(throttle.timer() // duration)
        ident = "{user}"
        key = throttle.cache_format % {"scope": throttle.scope, "ident": ident}
        prefix, suffix = redis.backend.make_and_validate_key(f"{key}:{window}").split(ident)
        return WindowCounter(prefix, suffix, duration + 1)

    def wait(self) -> float | None:
        retry = getattr(self, "_retry_after", None)
        return float(retry) if retry is not None else super().wait()
