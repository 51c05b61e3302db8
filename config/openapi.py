"""The API's error answers, documented on every operation of the OpenAPI schema.

Why a hook: every view answers errors in one shape (``config/api_errors.py``) with the same few
statuses (bad input, not signed in, not allowed, not found, too fast, too large, unreadable,
a service away),
so writing them on each view would repeat the same lines a hundred times and miss the next view.
drf-spectacular runs this after generating the schema
(``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``); a view's own documented answers for a status
are kept.
"""

from __future__ import annotations

from typing import Any

ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "The API's one error shape (config/api_errors.py).",
    "properties": {
        "detail": {"type": "string", "description": "What went wrong, in words."},
        "errors": {
            "type": "object",
            "description": "Field name → the reasons it was refused (validation errors only).",
            "additionalProperties": {},
        },
    },
    "required": ["detail"],
}

_REF = {"$ref": "#/components/schemas/Error"}
_ANSWERS = {
    "400": "Bad input: `errors` names each field and why.",
    "401": "Not signed in (send a session cookie or `Authorization: Token <key>`).",
    "403": "Signed in, but not allowed to do this.",
    "404": "Not found, or not visible to you.",
    "429": "Too many requests; wait as `Retry-After` says.",
    "503": (
        "A service this needs (Redis) is not answering for a moment; nothing was changed. "
        "Try again as `Retry-After` says."
    ),
}
_WRITE_ANSWERS = {
    "413": "The request body is larger than this endpoint accepts.",
    "415": "A body this endpoint cannot read: not JSON, nor a form where it takes one.",
}


def add_error_responses(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """Add the error answers to every operation that does not document them itself."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    for methods in result.get("paths", {}).values():
        for method, operation in methods.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            answers = dict(_ANSWERS)
            if method in ("post", "put", "patch"):
                answers.update(_WRITE_ANSWERS)
            for status, description in answers.items():
                operation["responses"].setdefault(
                    status,
                    {"description": description, "content": {"application/json": {"schema": _REF}}},
                )
    return result
