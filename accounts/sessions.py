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

Beside each cached session that names a signed-in user, the same write keeps her id alone
(:func:`user_id_key`, a plain number a Redis script can read), so a table's unchanged poll
learns who is asking, her cached user, her rate and the table's head in one round trip
(:mod:`tables.poll_session`). It is written and dropped together with the session's cached
copy, in the same round trip, and the poll believes it only when the session itself names the
same user.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.cached_db import KEY_PREFIX
from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore
from django.contrib.sessions.backends.db import SessionStore as DBStore
from django.core.cache.backends.base import BaseCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)


def data_key(session_key: str) -> str:
    """Where the cached copy of session ``session_key`` is kept (Django's own key)."""
    return KEY_PREFIX + session_key


def user_id_key(session_key: str) -> str:
    """Where the id of session ``session_key``'s signed-in user is kept beside its copy."""
    return f"{KEY_PREFIX}-user:{session_key}"


def signed_in_id(data: Any) -> int | None:
    """The user id a session's data names, as a number, or None (nobody signed in, or an id
    that is not a plain number: no script reads it then)."""
    found = data.get(SESSION_KEY) if isinstance(data, dict) else None
    if isinstance(found, str) and found.isdigit():
        return int(found)
    return None


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
            self._keep(data, self.get_expiry_age(expiry=found.expire_date))
        return dict(data)

    def _keep(self, data: dict[str, Any], age: int) -> None:
        """The cached copy, with its user's id beside it when it names one (one round trip)."""
        key = self._get_or_create_session_key()  # type: ignore[attr-defined]
        user_id = signed_in_id(data)
        if user_id is None:
            self._cache.set(data_key(key), data, age)
        else:
            self._cache.set_many({data_key(key): data, user_id_key(key): user_id}, age)

    def _drop(self, session_key: str) -> None:
        """Drop the cached copy and its user's id (one round trip; Redis away: raises)."""
        self._cache.delete_many([data_key(session_key), user_id_key(session_key)])

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
            self._keep(self._get_session(), self.get_expiry_age())  # type: ignore[attr-defined]
        except RedisError as exc:
            logger.warning("Session saved without its cached copy: Redis is away (%r)", exc)

    def delete(self, session_key: str | None = None) -> None:
        key = session_key if session_key is not None else self.session_key
        if key is None:
            return
        self._drop(key)  # Redis away: raises, nothing changed
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
                self._drop(key)
            DBStore.delete(self, key)
