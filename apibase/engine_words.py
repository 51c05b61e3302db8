"""The engines' words (:class:`westernroses.words.Words`) in the reader's language: the
active language's catalog translates the message id and each parameter that is itself words;
names and numbers go in as they are (docs/i18n.md)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from westernroses.words import Words, render


def stored(words: Words | str) -> str | dict[str, Any]:
    """``words`` as JSON to keep (a cache, a log): a string as it is, :class:`Words` as their
    JSON, for :func:`in_language` to read later in the reader's language."""
    return words.to_json() if isinstance(words, Words) else words


def in_language(words: Words | str | dict[str, Any]) -> str:
    """``words`` (or their JSON from a log) in the active language."""
    if isinstance(words, dict):
        words = Words.from_json(words)
    return render(words, gettext)


def events_in_language(events: list[Any]) -> list[Any]:
    """Logged events with each ``text`` in the active language: an event that keeps its
    words (``westernroses.protocol.event`` given :class:`Words`) is rendered from them, so a
    move logged in English reads in the reader's language; an event with only a ``text`` (a
    log written before the engine spoke in message ids) keeps it as it is."""
    out = []
    for ev in events:
        if isinstance(ev, dict) and isinstance(ev.get("words"), dict):
            words = ev["words"]
            ev = {key: value for key, value in ev.items() if key != "words"}
            ev["text"] = in_language(words)
        out.append(ev)
    return out


def reason_in_language(exc: BaseException) -> str:
    """Why an engine refused something (``IllegalAction``, or ``ValueError`` for house-rule
    values), in the active language when it gave :class:`Words`, else as it said it."""
    first = exc.args[0] if len(exc.args) == 1 else None
    return in_language(first) if isinstance(first, Words) else str(exc)


def json_in_language(data: Any) -> Any:
    """An engine's JSON (a view, a result) with every text it keeps with its words
    (``westernroses.words.said``) rendered in the active language, the words left out."""
    if isinstance(data, list):
        return [json_in_language(item) for item in data]
    if not isinstance(data, dict):
        return data
    out = {key: json_in_language(value) for key, value in data.items() if key != "words"}
    words = data.get("words")
    if isinstance(words, dict) and "text" in words and "text" in data:
        out["text"] = in_language(words)
    elif "words" in data:
        out["words"] = data["words"]
    return out
