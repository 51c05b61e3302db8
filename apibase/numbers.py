"""Whole numbers and ids read from text (query strings, router paths, form fields).

Python's ``int()`` reads more than a caller means: ``"1_0"`` as 10, ``" 7 "`` and ``"+7"`` as 7,
and any script's digits (``"٣"``, Arabic-Indic three, as 3), while ``str.isdigit()`` also passes
``"²"``, which ``int()`` then refuses (a 500 where it was not caught). Here only the ASCII digits
0-9 make a number, once, for every app.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from django.utils.translation import gettext
from rest_framework.exceptions import ValidationError

if TYPE_CHECKING:
    from rest_framework.request import Request

#: The largest id a ``BigAutoField`` holds (ids are 64-bit).
MAX_ID: Final = 2**63 - 1
#: More digits than any number the API takes (a 64-bit id has 19): not read at all, since
#: ``int()`` refuses strings of over 4,300 digits.
MAX_DIGITS: Final = 40
#: A regular expression for a router's ``lookup_value_regex``: ASCII digits (``\d`` would
#: also match other scripts' digits).
ID_PATTERN: Final = r"[0-9]+"


def whole_number(text: str) -> int | None:
    """``text`` as a whole number from 0 if it is written in the ASCII digits 0-9 alone (no
    sign, space or underscore) and at most :data:`MAX_DIGITS` long, else None."""
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_DIGITS:
        return None
    return int(text)


def object_id(value: int | str) -> int | None:
    """An id from a URL, a query or a caller (1 to :data:`MAX_ID`), else None."""
    if isinstance(value, bool):
        return None
    number = value if isinstance(value, int) else whole_number(value)
    if number is None or not 1 <= number <= MAX_ID:
        return None
    return number


def int_query_param(request: Request, name: str, default: int | None) -> int | None:
    """A query parameter that is a whole number from 0 (a version, a log position, an id);
    ``default`` when it is missing or empty; a 400 on ``name`` for anything else."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    negative = raw.startswith("-")
    value = whole_number(raw[1:] if negative else raw)
    if value is None:
        raise ValidationError({name: [gettext("A whole number, in the digits 0-9.")]})
    if negative or value > MAX_ID:
        raise ValidationError({name: [gettext("A whole number from 0.")]})
    return value
