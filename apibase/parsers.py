"""The API's JSON parser: DRF's, with nesting depth and NUL characters bounded (a 400, never a
500; see :mod:`apibase.json_input` for why) and the body's size bounded (a 413).

DRF reads a JSON body from the request's stream, past Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE``
(which only guards ``request.body`` and form fields), so the parser holds its own limit,
``MAX_JSON_BODY_BYTES``: no document the API takes comes near it, and a larger one is refused
before it is decoded."""

from __future__ import annotations

import codecs
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser

from apibase.json_input import JSONInputError, loads_bounded


class JSONBodyTooLarge(APIException):
    status_code = 413
    default_code = "too_large"


class BoundedJSONParser(JSONParser):
    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        limit = int(settings.MAX_JSON_BODY_BYTES)
        raw = stream.read(limit + 1)
        if len(raw) > limit:
            raise JSONBodyTooLarge(
                f"A JSON body has at most {limit // 1024:,} kB: nothing was read or saved."
            )
        try:
            text = codecs.decode(raw, encoding)
            return loads_bounded(text)
        except JSONInputError as exc:
            raise ParseError(str(exc)) from None
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
