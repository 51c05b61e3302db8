"""API token authentication answered from the cache (Redis), so a polling table does not pay a
PostgreSQL round trip on every request just to learn who is asking.

DRF's ``TokenAuthentication`` reads the token and its user from the database on every request.
:class:`CachedTokenAuthentication` does the same on a miss and then keeps the user under the
token for :data:`TOKEN_CACHE_SECONDS`:

* the cache key holds a SHA-256 of the token, never the token itself (a dump of the cache gives
  no credential), and the cached user carries no password hash (the field is left deferred);
* only active users are stored, and every change that could refuse a token drops its entry
  before it is written and again on commit (:func:`connect`): the token deleted or replaced,
  the user saved (``is_active``, a new password, anything but a log-in's ``last_login``) or
  deleted (which deletes her token too). So a deleted token or a deactivated user is refused on
  the very next request, and a change Redis cannot be told of is refused (503) rather than
  made behind a cached copy;
* with Redis away, every lookup goes to the database (nothing is stored meanwhile);
* a request that read the database just before such a change cannot store what it read after
  it: the change leaves a short-lived mark (:data:`CHANGE_MARK_SECONDS`) that a filling request
  checks, and a token entry is only ever added, never overwritten, while the change's own
  marker holds its key. The entry's lifetime bounds anything left.

Changes made behind the ORM's back (``QuerySet.update`` of users, raw SQL) send no signal: call
:func:`forget_user` after them.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
from typing import Any, Final

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import pre_delete, pre_save
from django.utils.translation import gettext_lazy as _
from redis.exceptions import RedisError
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

from apibase.cache_redis import default_redis, lua
from apibase.throttles import Counted, UserRateThrottle

#: How long an authenticated token is answered from the cache (bounds memory, not freshness:
#: every change that matters drops the entry at once).
TOKEN_CACHE_SECONDS: Final = 600
#: How long a change blocks refilling: longer than a request takes from its read to its store.
CHANGE_MARK_SECONDS: Final = 5
#: Stored in place of a user while a token's entry must not be filled.
_REVOKED: Final = "revoked"


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def token_cache_key(key: str) -> str:
    """Where the user of token ``key`` is cached (a hash of the token, not the token)."""
    return _entry_key(_digest(key))


def _entry_key(digest: str) -> str:
    return f"auth-token:{digest}"


def _user_token_key(user_id: Any) -> str:
    return f"auth-user-token:{user_id}"


def _user_changed_key(user_id: Any) -> str:
    return f"auth-user-changed:{user_id}"


def _entry_user_id_key(digest: str) -> str:
    """The user id of a cached token (beside the entry, so a Redis script can find her role
    in the same round trip: ``tables.heads.poll_with_token``)."""
    return f"auth-token-user:{digest}"


def token_digest(key: str) -> str:
    return _digest(key)


def token_entry_keys(digest: str) -> tuple[str, str]:
    """The full cache keys of a token's cached user and of her id (read by a Redis script)."""
    return cache.make_key(_entry_key(digest)), cache.make_key(_entry_user_id_key(digest))


def revoked_mark() -> bytes:
    """The revoked mark as the cache stores it, for a Redis script to tell it apart (empty
    when the cache is not Redis: no script runs then)."""
    redis = default_redis()
    return bytes(redis.serializer.dumps(_REVOKED)) if redis is not None else b""


def cached_user_from(entry: Any, user_id: Any) -> Any | None:
    """The user a token's cache entry holds, or None (missing, revoked, or not the user its id
    key names: the caller asks the database)."""
    if entry is None or entry == _REVOKED or user_id is None:
        return None
    try:
        same = int(user_id) == entry.pk
    except (TypeError, ValueError, AttributeError):
        return None
    return entry if same else None


@functools.cache
def _secret_tag(secret_key: str) -> str:
    return hashlib.sha256(secret_key.encode()).hexdigest()[:8]


def session_user_key(user_id: Any) -> str:
    """Where :mod:`accounts.backends` keeps a signed-in user. The key names the server's secret
    (a digest of it), since the entry holds her session hash, an HMAC under that secret."""
    return f"auth-session-user:{_secret_tag(settings.SECRET_KEY)}:{user_id}"


def session_user_from(entry: Any, user_id: Any) -> Any | None:
    """The user a signed-in user's entry holds, or None (missing, revoked, or another user)."""
    if entry is None or entry == _REVOKED:
        return None
    try:
        same = entry.pk == int(user_id)
    except (TypeError, ValueError, AttributeError):
        return None
    return entry if same else None


def keep_session_user(user: Any) -> None:
    """Keep an active signed-in ``user`` (without her password hash, with her session hash
    worked out) unless a change's mark holds the entry or her record changed a moment ago
    (``add``, not ``set``, as :func:`_fill`); nothing when Redis is away."""
    if not user.is_active:
        return
    copy = _cacheable(user)
    copy._session_auth_hash = user.get_session_auth_hash()
    with contextlib.suppress(RedisError):
        if cache.get(_user_changed_key(user.pk)) is None:
            cache.add(session_user_key(user.pk), copy, TOKEN_CACHE_SECONDS)


def _cacheable(user: Any) -> Any:
    """A copy of ``user`` without her password hash (left deferred: read again if asked)."""
    copy = user.__class__.__new__(user.__class__)
    copy.__dict__ = {k: v for k, v in user.__dict__.items() if k not in ("password", "_state")}
    copy._state = type(user._state)()
    copy._state.db = user._state.db
    copy._state.adding = False
    return copy


# KEYS[1] a token's cached user, KEYS[2] that user's id; ARGV[1..3] the API rate's window
# counter (prefix, suffix, seconds: ``apibase.throttles.WindowCounter``), ARGV[4] the revoked
# mark as stored (:func:`revoked_mark`). Who asks, and the count of her request against the
# API rate, in one round trip instead of two; a revoked token counts against nobody.
_COUNTED = """
local entry = redis.call('GET', KEYS[1])
local uid = redis.call('GET', KEYS[2])
local count = false
if entry and uid and entry ~= ARGV[4] then
  local counter = ARGV[1] .. uid .. ARGV[2]
  count = redis.call('INCR', counter)
  if count == 1 then redis.call('EXPIRE', counter, tonumber(ARGV[3])) end
end
return {entry, uid, count}
"""
_COUNTED_SCRIPT: Final = lua(_COUNTED)


class CachedTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>``, answered from the cache when it can be (see the module).

    On Redis, with the API rate in force for the view, one script reads the entry and counts
    the request against the rate (``request.throttle_counted``, which
    :class:`apibase.throttles.UserRateThrottle` takes instead of counting again)."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        self._request = request
        return super().authenticate(request)

    def authenticate_credentials(self, key: str) -> tuple[Any, Token]:
        digest = _digest(key)
        user = self.cached_user(digest)
        if user is None:
            try:
                token = Token.objects.select_related("user").get(key=key)
            except Token.DoesNotExist:
                raise AuthenticationFailed(_("Invalid token.")) from None
            user = token.user
            if not user.is_active:
                raise AuthenticationFailed(_("User inactive or deleted."))
            _fill(digest, user)
            return user, token
        return user, Token(key=key, user=user)

    def cached_user(self, digest: str) -> Any | None:
        """The cached user of the token with this digest, or None (the database answers)."""
        request = getattr(self, "_request", None)
        view = (request.parser_context or {}).get("view") if request is not None else None
        counter = (
            UserRateThrottle.window_counter(view, request.method)
            if view is not None and request is not None
            else None
        )
        redis = default_redis()
        if counter is not None and redis is not None:
            try:
                entry, uid, count = _COUNTED_SCRIPT(
                    keys=token_entry_keys(digest),
                    args=[*counter, revoked_mark()],
                    client=redis.client,
                )
            except RedisError:
                return None  # Redis is away: the database answers, the throttle fails open
            user = cached_user_from(redis.serializer.loads(entry) if entry else None, uid)
            if user is not None and count is not None:
                counted = Counted(counter.key(user.pk), int(count))
                request.throttle_counted = counted  # type: ignore[union-attr]
            return user
        try:
            user = cache.get(_entry_key(digest))
        except RedisError:
            return None  # the database answers
        return None if user is None or user == _REVOKED else user


def _fill(digest: str, user: Any) -> None:
    """Keep ``user`` under the token's digest, unless a change's mark holds it (``add``, not
    ``set``) or her record changed a moment ago; nothing when Redis is away (the next request
    asks the database again)."""
    with contextlib.suppress(RedisError):
        if cache.get(_user_changed_key(user.pk)) is None and cache.add(
            _entry_key(digest), _cacheable(user), TOKEN_CACHE_SECONDS
        ):
            cache.set_many(
                {_user_token_key(user.pk): digest, _entry_user_id_key(digest): user.pk},
                TOKEN_CACHE_SECONDS,
            )


def forget_token(key: str) -> None:
    """Drop the cached user of token ``key``, and keep it from being refilled for a moment."""
    _forget_digest(_digest(key))


def _forget_digest(digest: str) -> None:
    cache.set(_entry_key(digest), _REVOKED, CHANGE_MARK_SECONDS)


def forget_user(user_id: Any) -> None:
    """Drop the cached entries of ``user_id`` (her token's, and the signed-in user that
    :mod:`accounts.backends` keeps) and block refilling them for a moment."""
    cache.set_many(
        {_user_changed_key(user_id): 1, session_user_key(user_id): _REVOKED},
        CHANGE_MARK_SECONDS,
    )
    digest = cache.get(_user_token_key(user_id))
    if digest is not None:
        _forget_digest(digest)


def _token_changing(sender: Any, instance: Token, **kwargs: Any) -> None:
    """A token about to be replaced or deleted: its cached user is dropped first, so if Redis
    cannot be told the change is refused (the ``redis`` error, a 503) rather than made with a
    cached copy left to answer for it; again on commit (a reader in between saw the old row).
    A token being created was never cached."""
    if instance._state.adding:
        return
    key, user_id = instance.key, instance.user_id
    forget_token(key)
    transaction.on_commit(lambda: _forget_later(forget_token, key), robust=True)
    transaction.on_commit(lambda: _forget_later(forget_user, user_id), robust=True)


def _user_changing(sender: Any, instance: Any, update_fields: Any = None, **kwargs: Any) -> None:
    """A user about to be saved or deleted, as :func:`_token_changing`. A log-in's save of
    ``last_login`` alone changes nothing a token answers for, so it asks nothing of Redis (and
    signing in works while Redis is away)."""
    if instance._state.adding or (
        update_fields is not None and set(update_fields) <= {"last_login"}
    ):
        return
    user_id = instance.pk
    forget_user(user_id)
    transaction.on_commit(lambda: _forget_later(forget_user, user_id), robust=True)


def _forget_later(forget: Any, key: Any) -> None:
    """The on-commit repeat: the change is made; what Redis missed now expires with the mark
    set before it (``CHANGE_MARK_SECONDS``)."""
    with contextlib.suppress(RedisError):
        forget(key)


def connect() -> None:
    """Wire the invalidation signals (``AccountsConfig.ready``): before the change is written,
    so a change Redis cannot be told of is not made."""
    user_model = get_user_model()
    pre_save.connect(_token_changing, sender=Token, dispatch_uid="token-cache-token-saved")
    pre_delete.connect(_token_changing, sender=Token, dispatch_uid="token-cache-token-deleted")
    pre_save.connect(_user_changing, sender=user_model, dispatch_uid="token-cache-user-saved")
    pre_delete.connect(_user_changing, sender=user_model, dispatch_uid="token-cache-user-deleted")
