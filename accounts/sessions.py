"""Sessions in the cache with the database behind (``SESSION_ENGINE``), and what they do while
Redis is away (``docs/decisions/sessions-in-cache.md``).

Django's ``cached_db`` engine reads a session from the cache and only on a miss from
PostgreSQL, and writes both. A signed-in page or poll then asks Redis, not the database, who is
asking. Its own handling of a cache that raises is partial: a failed read falls back to the
database, but the cache write after that read, the ``exists`` check of a new session key (every
sign-in) and the delete (signing out) raise. :class:`SessionStore` keeps the engine and makes
each of those explicit:

* **reading** (``load``, ``exists``): Redis away, the database answers and nothing is stored,
  so a signed-in user is still served and signing in still works;
* **writing** (``save``): the database row is written first, as Django's does; a cache write
  Redis refuses is a warning, not an error report. The cache may then hold a copy older than
  the row until the session's next write (its expiry bounds it): what a session holds
  between two writes (who is signed in, a pending message) is never a permission;
* **deleting** (signing out, a sign-in as someone else): the cache copy is dropped *first*;
  Redis away, the ``redis`` error ends the request in a 503 (:mod:`apibase.redis_down`) before
  the row is touched, so a signed-out session cannot come back from the cache once Redis
  answers again. Only the old key of a sign-in's new key (``cycle_key``: the same person's
  data moved under a fresh key) is dropped from the database alone when Redis is away.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore
from django.contrib.sessions.backends.db import SessionStore as DBStore
from django.core.cache.backends.base import BaseCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)


class SessionStore(CachedDBStore):
    """Django's ``cached_db`` session, with Redis away handled as the module says."""

    _cache: BaseCache

    def load(self) -> dict[str, Any]:
        try:
            data = self._cache.get(self.cache_key)
        except RedisError:
            data = None
        if data is not None:
            return dict(data)
        found = self._get_session_from_db()  # type: ignore[attr-defined]
        if not found:
            return {}
        data = self.decode(found.session_data)
        with contextlib.suppress(RedisError):  # Redis away: the next read asks the database
            self._cache.set(self.cache_key, data, self.get_expiry_age(expiry=found.expire_date))
        return dict(data)

    def exists(self, session_key: str | None) -> bool:
        if not session_key:
            return False
        try:
            if (self.cache_key_prefix + session_key) in self._cache:
                return True
        except RedisError:
            pass
        return DBStore.exists(self, session_key)

    def save(self, must_create: bool = False) -> None:
        DBStore.save(self, must_create)
        try:
            self._cache.set(self.cache_key, self._get_session(), self.get_expiry_age())  # type: ignore[attr-defined]
        except RedisError as exc:
            logger.warning("Session saved without its cached copy: Redis is away (%r)", exc)

    def delete(self, session_key: str | None = None) -> None:
        key = session_key if session_key is not None else self.session_key
        if key is None:
            return
        self._cache.delete(self.cache_key_prefix + key)  # Redis away: raises, nothing changed
        DBStore.delete(self, key)

    def flush(self) -> None:
        """Signing out: the session is dropped before its data is cleared, so a 503 (Redis
        away) leaves the session as it was and the person can sign out again."""
        self.delete(self.session_key)
        self.clear()
        self._session_key = None

    def cycle_key(self) -> None:
        """A new key for the same data (signing in): the old key's cached copy is dropped
        when Redis answers; when it does not, the old row is deleted all the same (what the
        cache may keep under it is the data now held under the new key, never more)."""
        data = self._get_session()  # type: ignore[attr-defined]
        key = self.session_key
        self.create()
        self._session_cache = data
        if key:
            with contextlib.suppress(RedisError):
                self._cache.delete(self.cache_key_prefix + key)
            DBStore.delete(self, key)
