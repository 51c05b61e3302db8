"""``/api/schema/`` served from memory: the OpenAPI document is built once per process."""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.http import HttpResponse, HttpResponseBase
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SCHEMA_KWARGS, SpectacularAPIView
from rest_framework.request import Request
from rest_framework.settings import api_settings


class CachedSchemaView(SpectacularAPIView):
    """``/api/schema/``, generated and rendered once per process and format, then served from
    memory (issue 15: generating it walks every view and serializer, 100–250 ms a call).

    Why per process and never invalidated: the schema is a function of the code (the URL
    conf, the views, their serializers and the settings), which only a deploy changes, and a
    deploy starts new processes. It is public (``SERVE_PUBLIC``), so it does not depend on
    who asks. The key is what the answer does depend on: the negotiated format (YAML or
    JSON), the language (``?lang=`` among ``settings.LANGUAGES``) and the API version; any
    other ``lang`` or version is generated each time and not stored, so a stranger cannot
    grow the cache.
    """

    _rendered: ClassVar[dict[tuple[str, str, str], tuple[bytes | str, str, str]]] = {}

    @extend_schema(**SCHEMA_KWARGS)  # as the parent's: left out of the schema it serves
    def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponseBase:
        lang = request.GET.get("lang") or ""
        # drf-spectacular's view methods are unannotated
        version = (
            self.api_version or request.version or self._get_version_parameter(request)  # type: ignore[no-untyped-call]
        )
        key = (str(request.accepted_media_type), lang, str(version or ""))
        cacheable = (not lang or lang in {code for code, _ in settings.LANGUAGES}) and (
            version is None or version in (api_settings.ALLOWED_VERSIONS or ())
        )
        hit = self._rendered.get(key) if cacheable else None
        if hit is None:
            response = super().get(request, *args, **kwargs)  # type: ignore[no-untyped-call]
            renderer = request.accepted_renderer
            content = renderer.render(
                response.data, request.accepted_media_type, self.get_renderer_context()
            )
            content_type = str(request.accepted_media_type)
            if renderer.charset:
                content_type = f"{content_type}; charset={renderer.charset}"
            hit = (content, content_type, response["Content-Disposition"])
            if cacheable:
                self._rendered[key] = hit
        content, content_type, disposition = hit
        answer = HttpResponse(content, content_type=content_type)
        answer["Content-Disposition"] = disposition
        return answer

    @classmethod
    def forget(cls) -> None:
        """Drop the stored schemas (tests that change the URL conf or settings)."""
        cls._rendered.clear()
