"""A signed-in page's unchanged poll in one Redis round trip, as a token's is
(:mod:`tables.poll_auth`; ``docs/decisions/session-poll-one-round-trip.md``).

A poll with a session cookie (``GET <table>/state/?since=``, no ``Authorization``) otherwise
asks Redis four times before it answers 204: the session's cached copy
(:mod:`accounts.sessions`), its signed-in user (:mod:`accounts.backends`), the API rate
(:class:`apibase.throttles.UserRateThrottle`) and the table's head with her grant
(:mod:`tables.heads`). :class:`SessionPollMiddleware` runs before anything reads the session
and sends one script that reads all of them and counts the request, then hands each answer to
the part that would have asked for it, which checks it as it always does:

* the session's data becomes the session store's (exactly what its ``load`` reads);
* the user's entry is read only through the user id kept beside the session
  (:func:`accounts.sessions.user_id_key`) and used only when the session's own data names the
  same id and the entry is that user's (not missing, not the revoked mark); Django's
  ``get_user`` then takes it (:func:`accounts.backends.already_read`) and checks the backend
  the session names and her session hash, as on every request: a changed password or a
  deactivation (which drop the entry at once) or a signed-out session (whose cached copy and
  id are dropped together) is never answered from what the script read;
* the head and the count are kept on the request for the user authenticated only
  (:class:`tables.poll_auth.PollSessionAuthentication` hands them to the view and the
  throttle when the request's user is the one they were read for).

Anything missing sends that part down its usual path (a session not in the cache: the
database; an entry missing: its own read), and Redis away sends every part down its own.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from typing import Any, Final, NamedTuple

from django.conf import settings
from django.contrib import auth
from django.core.cache import DEFAULT_CACHE_ALIAS, cache
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, get_resolver, get_urlconf
from redis.exceptions import RedisError

from accounts.backends import already_read
from accounts.sessions import SessionStore, data_key, signed_in_id, user_id_key
from accounts.token_cache import revoked_mark, session_user_from, session_user_key
from apibase.cache_redis import default_redis, lua
from apibase.throttles import Counted, UserRateThrottle

from . import heads

# KEYS[1] the session's cached copy, KEYS[2] its user's id, KEYS[3] the table's head; ARGV[1]
# the signed-in users' key up to the id; ARGV[2..4] the API rate's window counter (prefix,
# suffix, seconds; "" when the rate is not counted); ARGV[5] the revoked mark as stored. Who
# asks, her cached user, the head, her grant and the count of her request, in one round trip;
# a revoked or missing user counts against nobody.
_POLL = """
local data = redis.call('GET', KEYS[1])
local uid = redis.call('GET', KEYS[2])
local head = redis.call('GET', KEYS[3])
local entry = false
local grant = false
local count = false
if data and uid and string.match(uid, '^%d+$') then
  entry = redis.call('GET', ARGV[1] .. uid)
  if head then
    local scope = string.match(head, '^%d+:(.+)$')
    if scope then grant = redis.call('GET', scope .. ':' .. uid) end
  end
  if entry and entry ~= ARGV[5] and ARGV[2] ~= '' then
    local counter = ARGV[2] .. uid .. ARGV[3]
    count = redis.call('INCR', counter)
    if count == 1 then redis.call('EXPIRE', counter, tonumber(ARGV[4])) end
  end
end
return {data, uid, entry, head, grant, count}
"""
_POLL_SCRIPT: Final = lua(_POLL)


class SessionPoll(NamedTuple):
    """What the script read for the signed-in user ``user_id``: the table's head with her
    grant, and her request's count against the API rate (None: not counted)."""

    user_id: int
    head: heads.Head | None
    counted: Counted | None


class _Target(NamedTuple):
    label: str
    pk: Any
    view: type[Any]


@functools.lru_cache(maxsize=4096)
def _target(resolver: Any, path: str) -> _Target | None:
    """The table poll ``path`` names (its table model's label, its id and its view), or None.
    Kept per path: a page polls the same address again and again."""
    try:
        match = resolver.resolve(path)
    except Resolver404:
        return None
    view = getattr(match.func, "cls", None)
    label = getattr(view, "poll_label", "")
    pk = match.kwargs.get("pk")
    if view is None or not label or pk is None:
        return None
    return _Target(label, pk, view)


def _polled(request: HttpRequest) -> _Target | None:
    if request.method != "GET" or "HTTP_AUTHORIZATION" in request.META:
        return None
    if "since=" not in request.META.get("QUERY_STRING", ""):
        return None
    return _target(get_resolver(get_urlconf()), request.path_info)


def read_ahead(request: HttpRequest) -> None:
    """Read everything the poll ``request`` asks Redis in one script and hand it on (see the
    module); nothing when it is not a signed-in table poll or Redis is not there."""
    target = _polled(request)
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    if target is None or not key or not isinstance(session, SessionStore):
        return
    redis = default_redis()
    if redis is None or settings.SESSION_CACHE_ALIAS != DEFAULT_CACHE_ALIAS:
        return
    counter = UserRateThrottle.window_counter(target.view, "GET")
    rate = (counter.prefix, counter.suffix, counter.seconds) if counter else ("", "", 0)
    full = redis.backend.make_and_validate_key
    try:
        data, uid, entry, head, grant, count = _POLL_SCRIPT(
            keys=[
                full(data_key(key)),
                full(user_id_key(key)),
                heads.head_key(target.label, target.pk),
            ],
            args=[full(session_user_key("")), *rate, revoked_mark()],
            client=redis.client,
        )
    except RedisError:
        return  # every part asks on its own (and falls back as it does)
    if data is None:
        return  # not in the cache: the session store reads the database
    loaded = redis.serializer.loads(data)
    if not isinstance(loaded, dict):
        return
    session._session_cache = dict(loaded)  # what its load() would have read
    user_id = signed_in_id(loaded)
    if user_id is None:
        return
    if uid is None:  # a copy cached before the id was kept beside it: keep it for the next poll
        with contextlib.suppress(RedisError):
            cache.set(user_id_key(key), user_id, session.get_expiry_age())
        return
    if int(uid) != user_id:
        return
    cached = session_user_from(redis.serializer.loads(entry) if entry else None, user_id)
    if cached is None:
        return  # missing or revoked: the backend reads it (the database on a miss)
    with already_read(cached):
        user = auth.get_user(request)  # Django's checks: the backend named, the session hash
    request._cached_user = user  # type: ignore[attr-defined]  # AuthenticationMiddleware's
    if getattr(user, "pk", None) != user_id:
        return
    counted = Counted(counter.key(user_id), int(count)) if counter and count is not None else None
    request.session_poll = SessionPoll(  # type: ignore[attr-defined]
        user_id, heads.head_from(head, grant), counted
    )


class SessionPollMiddleware:
    """:func:`read_ahead` for every request, before anything reads its session or user
    (after ``AuthenticationMiddleware``, before ``TimeZoneMiddleware``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        read_ahead(request)
        return self.get_response(request)
