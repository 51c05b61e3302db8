"""Django's Redis cache, with one redis-py client per connection pool instead of one per call,
and a Redis that is down answered at once instead of once per call after a long wait.

**One client per pool.** Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis``
around the (shared) connection pool on every cache operation. The pool is reused, but each
``Redis()`` fills a table of about 170 response callbacks first: on an unchanged poll (a token
read and a throttle count) that construction cost more than the round trips themselves (a CPU
profile of ``/api/battles/{id}/state/?since=`` in ``make bench``'s setup: 20% of the request).
A ``redis.Redis`` is safe to share between threads (each command takes a connection from the
pool and gives it back) and across a fork (the pool notices the new process and reconnects),
so one client per pool is kept and everything else is Django's.

**One pool per process.** Django keeps a cache backend per thread *and per async context*
(``django.core.cache.caches`` is an ``asgiref`` ``Local``), and the production web process runs
each request in a copy of the event loop's context (a2wsgi, ``config/asgi.py``): every request
found no backend, built a new one, and with it a new connection pool, so its first Redis
question opened a new TCP connection and repeated the RESP3 handshake (``HELLO``, ``CLIENT
SETINFO``, ``SELECT``), and the connection was closed when the request's backend was collected.
The clients are therefore kept per process, keyed by the servers and the options
(:func:`_shared_client`): every backend of the same settings shares one pool, whatever thread or
context it was made in (redis-py's pool is thread-safe and reconnects after a fork); a setting
that changes (a test's ``override_settings``) gets a pool of its own.

**A Redis that is down.** redis-py waits 5 s for a connection or an answer by default: with
Redis frozen, every request that asked it anything waited 5 s per question and then answered
500. Here every connection gives up after ``REDIS_SOCKET_TIMEOUT`` (0.5 s: Redis answers in
well under a millisecond when it answers at all), and a process that met a dead or silent Redis
remembers it for ``REDIS_RETRY_SECONDS`` (5 s, :mod:`apibase.redis_down`): every question to
that server meanwhile fails at once with ``RedisUnavailable`` (a ``redis.ConnectionError``),
without touching the network, and the first one after that tries again. The Celery app's
publishing consults the same record for the broker (``config.celery``), since the broker is the
same Redis.

What the callers do with the error is theirs: the paths that can work without Redis fall back
to the database or fail open (the token lookup, the throttles, the table heads, cached views);
what cannot (a form that must apply once, a token or role change whose cached copy could not be
dropped, the advisor, whose searches run in a worker reached through Redis) answers 503 with
``Retry-After`` (:mod:`apibase.redis_down`).
"""

from __future__ import annotations

import threading
from typing import Any

from django.conf import settings
from django.core.cache.backends import redis as django_redis
from django.utils.functional import cached_property
from redis.connection import Connection, ConnectionPool
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from apibase.redis_down import check, mark_down


class GuardedConnection(Connection):
    """A redis-py connection that records a failed connect, send or read (:func:`mark_down`)."""

    def _failed(self) -> None:
        mark_down(str(self.host), int(self.port))

    def connect(self) -> None:
        try:
            super().connect()  # type: ignore[no-untyped-call]  # redis-py: unannotated
        except (RedisConnectionError, RedisTimeoutError):
            self._failed()
            raise

    def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        try:
            super().send_packed_command(command, check_health)  # type: ignore[no-untyped-call]
        except (RedisConnectionError, RedisTimeoutError):
            self._failed()
            raise

    def read_response(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().read_response(*args, **kwargs)
        except (RedisConnectionError, RedisTimeoutError):
            self._failed()
            raise


class GuardedConnectionPool(ConnectionPool):
    """A pool of :class:`GuardedConnection` that refuses at once while its Redis is down."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("connection_class", GuardedConnection)
        super().__init__(*args, **kwargs)

    def get_connection(self, *args: Any, **kwargs: Any) -> Any:
        check(
            str(self.connection_kwargs.get("host", "localhost")),
            int(self.connection_kwargs.get("port", 6379)),
        )
        return super().get_connection(*args, **kwargs)


class ReusingRedisCacheClient(django_redis.RedisCacheClient):
    """``RedisCacheClient`` that builds the client of each connection pool once."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        django: Any = self  # Django's private attributes, which its stubs do not declare
        index = django._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            pool = django._pools.get(index)
            if pool is None:  # as ``_get_connection_pool`` makes it, for this index
                pool = django._pools.setdefault(
                    index,
                    django._pool_class.from_url(django._servers[index], **django._pool_options),
                )
            client = self._clients.setdefault(index, django._client(connection_pool=pool))
        return client


#: The process's cache clients, by servers and options (:func:`_shared_client`).
_CLIENTS: dict[tuple[tuple[str, ...], str], ReusingRedisCacheClient] = {}
_CLIENTS_LOCK = threading.Lock()


def _shared_client(servers: list[str], options: dict[str, Any]) -> ReusingRedisCacheClient:
    """The process's one client (and so one connection pool per server) for ``servers`` with
    ``options``, made on first use."""
    key = (tuple(servers), repr(sorted(options.items())))
    client = _CLIENTS.get(key)
    if client is None:
        with _CLIENTS_LOCK:
            client = _CLIENTS.get(key)
            if client is None:
                client = _CLIENTS[key] = ReusingRedisCacheClient(servers, **options)
    return client


class RedisCache(django_redis.RedisCache):
    """The ``BACKEND`` for ``CACHES`` when Redis is configured: short socket timeouts and the
    guarded pool unless ``OPTIONS`` say otherwise, and the process's shared client."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        options = dict(params.get("OPTIONS") or {})
        timeout = float(getattr(settings, "REDIS_SOCKET_TIMEOUT", 0.5))
        options.setdefault("socket_timeout", timeout)
        options.setdefault("socket_connect_timeout", timeout)
        options.setdefault("pool_class", GuardedConnectionPool)
        super().__init__(server, {**params, "OPTIONS": options})
        self._class = ReusingRedisCacheClient

    @cached_property
    def _cache(self) -> ReusingRedisCacheClient:
        django: Any = self  # Django's private attributes, which its stubs do not declare
        return _shared_client(django._servers, django._options)
