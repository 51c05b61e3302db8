"""The Redis behind the default cache, for the few hot paths that talk to it directly (one
script or pipeline instead of several cache calls): the token lookup, the API rate and the
table heads. Without Redis (``make run``'s memory cache) they take the cache API's way."""

from __future__ import annotations

from typing import Any, NamedTuple

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from redis.commands.core import Script


class DefaultRedis(NamedTuple):
    #: the cache backend (its ``make_and_validate_key`` gives a key's full name)
    backend: RedisCache
    #: the redis-py client (one per connection pool: ``config.redis_cache``)
    client: Any
    #: how the cache stores values, to read what a script returns raw
    serializer: Any


def default_redis() -> DefaultRedis | None:
    """The default cache's Redis, or None when the cache is not Redis."""
    backend = caches["default"]
    if not isinstance(backend, RedisCache):
        return None
    django: Any = backend._cache  # Django's private client, which its stubs do not declare
    return DefaultRedis(backend, django.get_client(write=True), django._serializer)


def lua(source: str) -> Script:
    """A Lua script for the hot paths, run by its SHA1 (``EVALSHA``; call it with
    ``keys=``, ``args=`` and ``client=``). ``EVAL`` would send the whole script with every
    request and have Redis hash it again (a few hundred bytes and about a tenth of the round
    trip, on every move and poll); redis-py loads it once the server says it does not know it
    (a new or flushed server)."""
    return Script(None, source.encode())  # type: ignore[arg-type]  # bytes: no client needed
