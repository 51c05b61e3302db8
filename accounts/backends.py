"""Who a signed-in session belongs to, answered from the cache: Django's ``ModelBackend`` reads
the user row on every request a session signs; :class:`CachedModelBackend` keeps an active
user (without her password hash; ``accounts.token_cache.keep_session_user``) for
``TOKEN_CACHE_SECONDS`` and reads the row on a miss. With the session itself in the cache
(``accounts.sessions``), a signed-in poll asks the database nothing to learn who is asking, as a
token's poll does not (``docs/decisions/sessions-in-cache.md``).

Every change that could sign her out drops the entry before it is written and again on commit,
with the token cache's own receivers (``accounts.token_cache.forget_user``: a user saved or
deleted, anything but a sign-in's ``last_login``): a new password changes her session hash and
signs out her other sessions on their very next request, a deactivated user is refused at once,
and a change Redis cannot be told of is refused (503). Redis away: the row is read every time.

``django.contrib.auth.backends.ModelBackend`` stays listed after this one only for the sessions
signed in before it was (the session names its backend); this backend refuses wrong credentials
itself (``PermissionDenied``, what Django's ``authenticate`` treats as "no backend accepts"), so
a failed sign-in is not checked, and its password hashed, twice.

A table's unchanged poll reads the signed-in user's entry in the same Redis script as the
session and the table (:mod:`tables.poll_session`); it hands that entry to ``get_user`` with
:func:`already_read`, and Django's own ``get_user`` then checks it as always (the backend the
session names, her session hash).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from redis.exceptions import RedisError

from .token_cache import keep_session_user, session_user_from, session_user_key

#: A signed-in user's entry read ahead by the caller (:func:`already_read`), else None.
_READ_AHEAD: ContextVar[Any] = ContextVar("session_user_read_ahead", default=None)


@contextlib.contextmanager
def already_read(user: Any) -> Iterator[None]:
    """Within the block, ``get_user`` of ``user``'s id answers ``user`` (an entry the caller
    read from the cache, checked with :func:`accounts.token_cache.session_user_from`) without
    asking the cache again."""
    token = _READ_AHEAD.set(user)
    try:
        yield
    finally:
        _READ_AHEAD.reset(token)


class CachedModelBackend(ModelBackend):
    """Django's ``ModelBackend`` with ``get_user`` answered from the cache (see the module)."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None and password is not None:
            raise PermissionDenied  # checked here: no later backend hashes it again
        return user

    def get_user(self, user_id: Any) -> Any:
        ahead = _READ_AHEAD.get()
        if ahead is not None and session_user_from(ahead, user_id) is not None:
            return ahead
        try:
            entry = cache.get(session_user_key(user_id))
        except RedisError:
            entry = None  # the database answers; nothing is kept meanwhile
        user = session_user_from(entry, user_id)
        if user is not None:
            return user
        user = super().get_user(user_id)
        if user is not None:
            keep_session_user(user)
        return user
