"""Token authentication for a table's unchanged poll: who asks, the table's head and her grant
(what the game's permission hook cached for her) in one Redis round trip
(:func:`tables.heads.poll_with_token`) instead of two (the token's cached user, then the head
with the grant).

Everything else is :class:`accounts.token_cache.CachedTokenAuthentication`'s: a missing or
revoked entry (a deleted token, a changed user) goes to the database exactly as there, and a
user is taken from the script only when the id stored beside her entry names her. The head is
kept on the request for the view (``request.table_head``) only when its grant was read for the
user authenticated, so a view never answers one user from another's grant. The same script counts
the request against the user's API rate (:class:`apibase.throttles.UserRateThrottle`), which
then takes that count instead of a round trip of its own.

:class:`PollSessionAuthentication` is DRF's session authentication for the same poll with a
session cookie: what :mod:`tables.poll_session` read ahead in its one script (the head with the
grant, the count) is handed on the same way, and only when the user the session authenticated
is the one it was read for.
"""

from __future__ import annotations

from typing import Any, ClassVar

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request

from accounts.token_cache import (
    CachedTokenAuthentication,
    cached_user_from,
    revoked_mark,
    token_entry_keys,
)
from apibase.throttles import Counted, UserRateThrottle

from . import heads, store


class PollTokenAuthentication(CachedTokenAuthentication):
    """``Authorization: Token <key>`` on a poll (``?since=``) of a table whose URL names it
    as ``pk``; any other request is plain :class:`CachedTokenAuthentication`."""

    #: the table model's ``_meta.label_lower`` (the head's key)
    table_label: ClassVar[str] = ""

    def cached_user(self, digest: str) -> Any | None:
        request = self._request
        pk = ((request.parser_context or {}).get("kwargs") or {}).get("pk")
        if pk is None or not self.table_label or "since" not in request.query_params:
            return super().cached_user(digest)
        view = (request.parser_context or {}).get("view")
        counter = UserRateThrottle.window_counter(view, request.method or "GET")
        found = heads.poll_with_token(
            self.table_label, pk, token_entry_keys(digest), counter, revoked_mark()
        )
        if found is None:  # no Redis: the token cache's own path
            return super().cached_user(digest)
        user = cached_user_from(found.entry, found.user_id)
        if user is not None:
            request.table_head = found.head  # type: ignore[attr-defined]
            if counter is not None and found.requests is not None:
                # the throttle takes this count instead of counting the request again
                counted = Counted(counter.key(user.pk), found.requests)
                request.throttle_counted = counted  # type: ignore[attr-defined]
        return user


class PollSessionAuthentication(SessionAuthentication):
    """DRF's session authentication, handing on what the poll's one script read for this
    user (:class:`tables.poll_session.SessionPoll`); any other request is DRF's own."""

    def authenticate(self, request: Request) -> tuple[Any, None] | None:
        found = super().authenticate(request)
        read = request._request.__dict__.get("session_poll")
        if found is not None and read is not None and read.user_id == found[0].pk:
            request.table_head = read.head  # type: ignore[attr-defined]
            if read.counted is not None:
                request.throttle_counted = read.counted  # type: ignore[attr-defined]
        return found


def table_head(request: Request) -> heads.Head | None:
    """The head :class:`PollTokenAuthentication` read for this request's user, if it did."""
    head = request.__dict__.get("table_head")
    return store.request_head(head) if isinstance(head, heads.Head) else None


class _PollTokenScheme(OpenApiAuthenticationExtension):
    """The schema's word for :class:`PollTokenAuthentication`: the token scheme every other
    view has (``tokenAuth``, registered by ``CachedTokenAuthentication``), not a second
    component of the same name (drf-spectacular warns, and ``check --deploy`` fails, on two)."""

    target_class = "tables.poll_auth.PollTokenAuthentication"
    match_subclasses = True
    name: list[str] = []  # registers no component of its own

    def get_security_requirement(self, auto_schema: Any) -> dict[str, list[str]]:
        return {"tokenAuth": []}

    def get_security_definition(self, auto_schema: Any) -> list[Any]:
        return []


class _PollSessionScheme(OpenApiAuthenticationExtension):
    """The schema's word for :class:`PollSessionAuthentication`: the session cookie every
    other view has (``cookieAuth``), as :class:`_PollTokenScheme` for the token."""

    target_class = "tables.poll_auth.PollSessionAuthentication"
    name: list[str] = []

    def get_security_requirement(self, auto_schema: Any) -> dict[str, list[str]]:
        return {"cookieAuth": []}

    def get_security_definition(self, auto_schema: Any) -> list[Any]:
        return []
