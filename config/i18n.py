"""The JavaScript catalog: Django's ``JavaScriptCatalog`` with the project's own ``djangojs``
strings, in the language the page names.

``base.html`` loads ``/jsi18n/?lang=<the page's language>``, so the address says which
catalog it holds and a browser may keep it for a few minutes: a page in Japanese never gets an
English catalog kept from before the reader switched. Only the project's catalogs
(``LOCALE_PATHS``) are sent, not the admin's scripts' strings (docs/i18n.md)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.views import i18n

from accounts.languages import supported

#: How long a browser keeps a catalog (a deploy's new strings reach pages within this).
CATALOG_SECONDS = 300


class JavaScriptCatalog(i18n.JavaScriptCatalog):
    """``gettext``, ``ngettext``, ``interpolate`` and the locale's formats for every script."""

    # "config" has no locale directory of its own: naming one package keeps the installed
    # apps' (the admin's) djangojs catalogs out; LOCALE_PATHS are always read.
    packages = ["config"]

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        code = request.GET.get("lang", "")
        if not supported(code):
            code = translation.get_language() or "en"
        with translation.override(code):
            response = super().get(request, *args, **kwargs)
        response["Content-Language"] = code
        patch_cache_control(response, private=True, max_age=CATALOG_SECONDS)
        return response
