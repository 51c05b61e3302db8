"""The reader's language: a signed-in user's preferred language (her account's setting), else
the visitor's choice in the header's switcher (Django's language cookie), else her browser's
``Accept-Language``, else English.

Django's ``LocaleMiddleware`` picks the visitor's language before the user is known; the
middleware here runs after authentication and puts the account's preference over it, so a
player who chose Japanese reads Japanese on every device she signs in on. ``LocaleMiddleware``
still writes ``Content-Language`` and ``Vary: Accept-Language`` on the way out, from the
language active then (docs/i18n.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation import gettext_lazy as _


def supported(code: str) -> bool:
    """Whether ``code`` is one of ``settings.LANGUAGES`` exactly (an account stores Django's
    code: ``zh-hans``, never ``zh_Hans`` or ``zh``)."""
    return code in {lang for lang, _ in settings.LANGUAGES}


def validate_language(code: str) -> None:
    """A field validator: ``code`` is empty or one of the site's languages."""
    if code and not supported(code):
        raise ValidationError(
            _("%(code)s is not one of this site's languages."),
            code="invalid_choice",
            params={"code": code},
        )


def language_choices() -> list[tuple[str, str]]:
    """The profile's and the API's choices: "" (the browser's) and each language, in itself."""
    return [("", str(_("My browser's language"))), *settings.LANGUAGES]


def preferred_language(request: HttpRequest) -> str:
    """The signed-in user's saved language, or "" (none saved, or a visitor)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    code = getattr(user, "language", "") or ""
    return code if supported(code) else ""


class PreferredLanguageMiddleware:
    """Activate a signed-in user's preferred language for the whole request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        code = preferred_language(request)
        if code:
            translation.activate(code)
            request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)


class FreshLanguageMiddleware:
    """First in ``MIDDLEWARE``: each request starts in the default language and leaves none
    behind. Django activates a language per thread and never takes it back, so a worker thread
    (or the test client's thread) kept the last request's language: an error page made before
    ``LocaleMiddleware`` runs, or any rendering after the request, spoke the previous reader's
    language (a 500 page in Chinese for an English reader). A streamed body made after the
    response returns is made in the default language."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        translation.deactivate()
        try:
            return self.get_response(request)
        finally:
            translation.deactivate()


@contextmanager
def in_language_of(user: object) -> Iterator[None]:
    """Words written for ``user`` outside her request (a notification's title and text) in
    her preferred language, or English when she has none: a notice is written once, for every
    channel and device she reads it on."""
    code = getattr(user, "language", "") or ""
    with translation.override(code if supported(code) else "en"):
        yield
