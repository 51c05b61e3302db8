"""Django's Redis cache, with one redis-py client per connection pool instead of one per call.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` around the (shared)
connection pool on every cache operation. The pool is reused, but each ``Redis()`` fills a
table of about 170 response callbacks first: on an unchanged poll (a token read and a
throttle count) that construction cost more than the round trips themselves (a CPU profile
of ``/api/battles/{id}/view/?since=`` in ``make bench``'s setup: 20% of the request).

A ``redis.Redis`` is safe to share between threads (each command takes a connection from the
pool and gives it back) and across a fork (the pool notices the new process and reconnects),
so one client per pool is kept and everything else is Django's.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends import redis as django_redis


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


class RedisCache(django_redis.RedisCache):
    """The ``BACKEND`` for ``CACHES`` when Redis is configured."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient
