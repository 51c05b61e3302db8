"""Serializer fields every app's API shares.

:class:`ObjectIdField` is the one way a request body names a stored object (a campaign, a
character, a member, a session ...). Ids are ``BigAutoField``: whole numbers from 1 to
``2**63 - 1``. A number outside that range names nothing, and handed to the database it is an
error of the driver (``OverflowError`` on SQLite, the development default: a 500), so it is
refused on the field, in words, before any query; the schema shows the bounds.
"""

from __future__ import annotations

from typing import Any

from . import serializers
from .numbers import MAX_ID


class ObjectIdField(serializers.IntegerField):
    """An object's id: a whole number from 1 to :data:`MAX_ID`, written as a JSON number or
    in the digits 0-9 (a form field). Whether the object exists, and whether the user may see
    it, is the view's question (a 400 on the field, or a 404, as each endpoint documents)."""

    default_error_messages = {
        "invalid": "An id is a whole number, written in the digits 0-9.",
        "min_value": "An id is a whole number from 1.",
        "max_value": "No id is that large.",
        "max_string_length": "No id is that long.",
    }

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        # DRF's IntegerField reads any str through int(): "1_0" as 10, "٣" as 3, "1.0" as 1.
        if isinstance(data, bool):
            self.fail("invalid")
        if isinstance(data, str):
            text = data.strip()
            if not (text.isascii() and text.isdigit()):
                self.fail("invalid")
        return int(super().to_internal_value(data))


def body_id(field: str, value: Any) -> int:
    """``value``, read from a request body outside a serializer, as an object id, or a 400 on
    ``field`` in :class:`ObjectIdField`'s words, before anything is looked up (a view that
    must find the campaign before its serializer runs, to read the campaign's house rules)."""
    try:
        return int(ObjectIdField().run_validation(value))
    except serializers.ValidationError as exc:
        raise serializers.ValidationError({field: exc.detail}) from None
