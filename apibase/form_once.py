"""Every state-changing form applies once, however often it is sent (hardening finding 9: the
dashboard's award form applied twice when posted twice).

How: every ``<form method="post">`` of the site carries ``{% csrf_token %}``, so this module
replaces that tag (a template builtin, ``TEMPLATES["OPTIONS"]["builtins"]``) with one that also
writes a fresh one-time ``once_token`` into the form. :class:`OnceFormMiddleware` remembers each
token a browser sends (in the cache, shared by every web process): the first post with a token
runs; a second post of the same rendered form is not run again, and the browser is sent back to
the page it came from with a note. A post the view refuses (a 4xx, a form with errors) forgets
its token, so the corrected form can be sent. With Redis away there is nowhere to remember a
token, and a post that cannot be known to be the first is not run: the site's 503 page says to
try again in a moment (:mod:`apibase.redis_down`).

Requests from scripts (``Accept: application/json``, ``fetch`` with ``Sec-Fetch-Mode`` other
than ``navigate``) are left to their views: a script that stays on the page sends the same
form again on purpose (the wizard's live preview, the deck builder's counts). A view whose
script sends a form once per submit (the dashboard's quick actions: the script puts a fresh
token in the form after each success) asks :func:`claim_from_script` itself.
"""

from __future__ import annotations

import contextlib
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import template
from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.middleware.csrf import get_token
from django.template.defaulttags import CsrfTokenNode
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import SafeString, mark_safe
from redis.exceptions import RedisError

from .redis_down import log_unavailable, unavailable

FIELD = "once_token"
_TOKEN = re.compile(r"[0-9a-f]{32}")
#: How long a sent token is remembered: far longer than any double click or re-sent request.
REMEMBER_SECONDS = 6 * 60 * 60
ALREADY_SENT = "That form was already sent: it was applied once."

register = template.Library()


#: Rendered in place of each form's tokens when the context holds :data:`KEEP_FORMS`: the HTML
#: can then be kept (in a cache) and each request's copy given its own tokens by
#: :func:`with_form_tokens`.
TOKENS_MARK = "<!--form-tokens-->"
#: The context key that asks :class:`OnceFormNode` for :data:`TOKENS_MARK`.
KEEP_FORMS = "keep_forms"


class OnceFormNode(CsrfTokenNode):
    """``{% csrf_token %}`` plus a fresh one-time token for this rendering of the form."""

    def render(self, context: Any) -> str:
        if context.get(KEEP_FORMS):
            return mark_safe(TOKENS_MARK)  # noqa: S308 - our own constant
        html = str(super().render(context))
        if not html:
            return html
        return html + str(
            format_html('<input type="hidden" name="{}" value="{}">', FIELD, uuid.uuid4().hex)
        )


def with_form_tokens(html: str, request: HttpRequest) -> SafeString:
    """``html`` rendered with :data:`KEEP_FORMS` (a kept fragment), each form given this
    request's CSRF token and a one-time token of its own, as ``{% csrf_token %}`` renders
    them."""
    parts = html.split(TOKENS_MARK)
    if len(parts) == 1:
        return mark_safe(html)  # noqa: S308 - rendered by our templates, escaped then
    node = OnceFormNode()
    context = {"csrf_token": get_token(request)}
    out = [parts[0]]
    for part in parts[1:]:
        out += [node.render(context), part]
    return mark_safe("".join(out))  # noqa: S308 - as above, with our own inputs


@register.tag(name="csrf_token")
def csrf_token(parser: Any, token: Any) -> OnceFormNode:
    return OnceFormNode()


def _from_a_script(request: HttpRequest) -> bool:
    if "application/json" in request.headers.get("Accept", ""):
        return True
    mode = request.headers.get("Sec-Fetch-Mode")
    return mode is not None and mode != "navigate"


def _key(request: HttpRequest, token: str) -> str | None:
    if not _TOKEN.fullmatch(token):
        return None  # not one we wrote: the view decides (it may be refused there)
    user = getattr(request, "user", None)
    who = str(user.pk) if user is not None and user.is_authenticated else ""
    if not who:
        who = request.session.session_key or "" if hasattr(request, "session") else ""
    if not who:
        return None  # nobody to tell apart (a first log-in): the view decides
    return f"form-once:{who}:{token}"


@dataclass(frozen=True, slots=True)
class Sent:
    """A post's one-time token, remembered by :func:`claim`: ``repeated`` when this browser sent
    the same token before. ``key`` is None when there was nothing to remember (no token, or
    nobody to tell apart): the view decides."""

    key: str | None
    repeated: bool = False

    def forget(self) -> None:
        """The view refused the post: the corrected form may be sent with the same token
        (unless Redis went away meanwhile: then she sends it again from a fresh page)."""
        if self.key is not None:
            with contextlib.suppress(RedisError):
                cache.delete(self.key)


def claim(request: HttpRequest, token: str) -> Sent:
    """Remember ``token`` for this browser (:data:`REMEMBER_SECONDS`, in the cache every web
    process shares); the first send of it is not ``repeated``, every later one is."""
    key = _key(request, token) if token else None
    if key is None:
        return Sent(None)
    return Sent(key, repeated=not cache.add(key, True, REMEMBER_SECONDS))


def claim_from_script(request: HttpRequest) -> Sent:
    """:func:`claim` the form's ``once_token`` for a post from a script, which the middleware
    leaves to its view; a plain form post the middleware has claimed already (``Sent(None)``)."""
    if not _from_a_script(request):
        return Sent(None)
    return claim(request, str(request.POST.get(FIELD, "")))


class OnceFormMiddleware:
    """Runs each rendered form's post once (see the module docstring). After the messages
    middleware, so the note reaches the page she is sent back to."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method != "POST" or request.path.startswith("/api/"):
            return self.get_response(request)
        if _from_a_script(request):
            return self.get_response(request)
        try:
            sent = claim(request, str(request.POST.get(FIELD, "")))
        except RedisError as exc:
            # Nowhere to remember the token: applying it could apply it twice. Nothing is
            # applied; the page says to try again in a moment (apibase/redis_down.py).
            log_unavailable(request, exc)
            return unavailable(request)
        if sent.key is None:
            return self.get_response(request)
        if sent.repeated:
            messages.info(request, ALREADY_SENT)
            back = request.headers.get("Referer", "")
            if not url_has_allowed_host_and_scheme(
                back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
            ):
                back = request.path
            return HttpResponseRedirect(back, status=303)
        response = self.get_response(request)
        if response.status_code >= 400:
            sent.forget()  # refused: the corrected form may be sent again
        return response
