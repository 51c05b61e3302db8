"""A JSON renderer that sends a body already rendered as it is.

A battle's view is cached per version as JSON (``battles.selectors``). Served through DRF's
own renderer it was unpickled into a dict and encoded again on every first load, two fifths
of that request's work once the query was compiled. A view hands the cached bytes over as
:class:`RenderedJSON`, and this renderer passes them through; everything else is DRF's
``JSONRenderer`` unchanged (the browsable API asks this renderer too, so it shows the same).
"""

from __future__ import annotations

from typing import Any

from rest_framework import renderers


class RenderedJSON(bytes):
    """A JSON document already encoded as UTF-8 (made only from ``json.dumps`` output)."""


class PassThroughJSONRenderer(renderers.JSONRenderer):
    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Any = None,
    ) -> bytes:
        if isinstance(data, RenderedJSON):
            return bytes(data)
        return super().render(data, accepted_media_type, renderer_context)  # type: ignore[no-any-return]
