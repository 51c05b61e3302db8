"""API throttles that read their rate from settings when they run (DRF's own classes read it
once at import, so neither a deploy's environment nor a test could change it afterwards), and
the per-user rate counted in Redis with one round trip."""

from __future__ import annotations

from typing import Any, NamedTuple

from django.conf import settings
from redis.exceptions import RedisError
from rest_framework import throttling as drf_throttling
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle

from .cache_redis import default_redis

#: The scope of the reads a page repeats to stay live (a table's state, a battle's view and
#: its chat feed, the bell, the advisor while it thinks): ``API_POLL_RATE``, counted apart
#: from the rest of the API. An open battle page asks about 2.7 times a second (its view and
#: feed every second, the bell every 1.5 s), 9,600 times an hour: counted in the ``user`` scope
#: (6,000 an hour) it went stale 37 minutes into every hour of a session.
POLL_SCOPE = "poll"


class AuthRateThrottle(AnonRateThrottle):
    """Password-guessing brake for the token endpoint: ``settings.API_AUTH_RATE`` requests per
    client address, whoever is asking (the caller is not authenticated yet)."""

    scope = "auth"

    def get_rate(self) -> str:
        return str(settings.API_AUTH_RATE)

    # DRF makes a new throttle for every request and its __init__ calls get_rate, so the rate
    # is read from settings each time without more code here.

    def get_cache_key(self, request, view):  # type: ignore[no-untyped-def]
        # By address even for a signed-in caller: she may be guessing someone else's password.
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class WindowCounter(NamedTuple):
    """A window's counter key is ``prefix + str(user id) + suffix``, expiring after
    ``seconds``."""

    prefix: str
    suffix: str
    seconds: int

    def key(self, user_id: Any) -> str:
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
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)  # type: ignore[no-any-return]

    @staticmethod
    def scope_for(view: Any, method: str) -> str:
        """``poll`` for a read of a view that pages poll (``live_reads = True`` on the view),
        else ``user``."""
        live = getattr(view, "live_reads", False) and method in ("GET", "HEAD")
        return POLL_SCOPE if live else "user"

    def _count_in(self, scope: str) -> None:
        if scope != self.scope:
            self.scope = scope
            self.rate = self.get_rate()
            self.num_requests, self.duration = self.parse_rate(self.rate)

    def allow_request(self, request: Any, view: Any) -> bool:
        self._count_in(self.scope_for(view, request.method))
        redis = default_redis()
        if redis is None:
            return bool(super().allow_request(request, view))
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        now = self.timer()
        window = int(now // self.duration)
        counter = redis.backend.make_and_validate_key(f"{self.key}:{window}")  # KEY_PREFIX too
        counted = request.__dict__.get("throttle_counted")
        if isinstance(counted, Counted) and counted.key == counter:
            count = counted.total  # counted by the request's own lookup (the poll's script)
        else:
            try:
                with redis.client.pipeline(transaction=False) as pipe:
                    pipe.set(counter, 0, ex=self.duration + 1, nx=True)  # the window's first
                    pipe.incr(counter)  # keeps the expiry set above
                    _, count = pipe.execute()
            except RedisError:
                return True  # a throttle never turns a working API away because Redis blinked
        self._retry_after = (window + 1) * self.duration - now
        return int(count) <= self.num_requests

    @classmethod
    def window_counter(cls, view: Any, method: str = "GET") -> WindowCounter | None:
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
        if throttle.rate is None:
            return None
        window = int(throttle.timer() // throttle.duration)
        ident = "{user}"
        key = throttle.cache_format % {"scope": throttle.scope, "ident": ident}
        prefix, suffix = redis.backend.make_and_validate_key(f"{key}:{window}").split(ident)
        return WindowCounter(prefix, suffix, throttle.duration + 1)

    def wait(self) -> float | None:
        retry = getattr(self, "_retry_after", None)
        return float(retry) if retry is not None else super().wait()
