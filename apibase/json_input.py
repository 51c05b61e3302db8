"""JSON from users, bounded: nesting depth and NUL characters are refused with a reason.

Why: Python's JSON decoder recurses once per nesting level, so ``[[[[…]]]]`` a thousand deep
raises ``RecursionError`` (a 500 wherever it is not caught), and PostgreSQL's ``jsonb`` and
``text`` refuse ``\\u0000`` (another 500, after the request was accepted). Every JSON body the
app reads (the API's parser, character import) goes through :func:`loads_bounded`, so both
become a 400 that says what is wrong.
"""

from __future__ import annotations

import json
from typing import Any

from westernroses.words import N_, Words

#: Deepest nesting accepted; the app's own documents (battle actions, character exports,
#: card definitions) need fewer than ten levels.
MAX_DEPTH = 32


class JSONInputError(ValueError):
    """The JSON is malformed, nested too deeply, or holds a NUL character; the message says.

    Its one argument is :class:`Words`: ``str`` gives the English, a page shows it in the
    reader's language (``apibase.engine_words.reason_in_language``)."""


def _too_deep(max_depth: int) -> Words:
    return Words(N_("JSON may be nested at most %(depth)s levels deep."), {"depth": max_depth})


def check_bounded(value: Any, *, max_depth: int = MAX_DEPTH) -> None:
    """Raise :class:`JSONInputError` if ``value`` nests deeper than ``max_depth`` or any string
    (key or value) holds a NUL character. Iterative, so it cannot itself overflow the stack."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                raise JSONInputError(Words(N_("Text may not contain NUL characters (\\u0000).")))
            continue
        if not isinstance(item, dict | list):
            continue
        if depth > max_depth:
            raise JSONInputError(_too_deep(max_depth))
        if isinstance(item, dict):
            stack.extend((key, depth) for key in item)
            stack.extend((child, depth + 1) for child in item.values())
        else:
            stack.extend((child, depth + 1) for child in item)


def loads_bounded(text: str | bytes, *, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` that refuses what :func:`check_bounded` refuses, and never recurses out."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise JSONInputError(_too_deep(max_depth)) from None
    check_bounded(value, max_depth=max_depth)
    return value
