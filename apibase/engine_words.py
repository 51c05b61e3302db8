"""The engines' words (:class:`westernroses.words.Words`) in the reader's language: the
active language's catalog translates the message id and each parameter that is itself words;
names and numbers go in as they are (docs/i18n.md)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext

from westernroses import data_words
from westernroses.words import Words, render


def stored(words: Words | str) -> str | dict[str, Any]:
    """``words`` as JSON to keep (a cache, a log): a string as it is, :class:`Words` as their
    JSON, for :func:`in_language` to read later in the reader's language."""
    return words.to_json() if isinstance(words, Words) else words


#: Readers of a name the app keeps in English though it is its own word, not a person's: a
#: tavern bot's "Random bot", which a table's engine was given in English when the game
#: started and writes into its lines as a plain name. Each string parameter of words passes
#: through them when rendered (``minigames.apps`` registers the bots'), so the name reads in
#: the reader's language wherever the line is read; any other name comes back as it is.
NAME_READERS: list[Callable[[str], str]] = []


def _name_read(name: str) -> str:
    for read in NAME_READERS:
        name = read(name)
    return name


def _names_read(words: Words) -> Words:
    """``words`` with each string parameter through :data:`NAME_READERS`."""
    if not words.params or not NAME_READERS:
        return words
    params: dict[str, Any] = {}
    for key, value in words.params.items():
        if isinstance(value, Words):
            value = _names_read(value)
        elif isinstance(value, str):
            value = _name_read(value)
        params[key] = value
    return Words(words.text, params)


def in_language(words: Words | str | dict[str, Any]) -> str:
    """``words`` (or their JSON from a log) in the active language."""
    if isinstance(words, dict):
        words = Words.from_json(words)
    if isinstance(words, Words):
        words = _names_read(words)
    return render(words, gettext, data_text)


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
    (``westernroses.words.said``) rendered in the active language, the words left out, each
    seat's name (a ``name``, the ``names``) through :data:`NAME_READERS`, and a card's ``lines``
    kept with their ``line_words`` (and its ``kind_label`` kept with its ``kind_words``)
    rendered from them the same way."""
    if isinstance(data, list):
        return [json_in_language(item) for item in data]
    if not isinstance(data, dict):
        return data
    out = {
        key: json_in_language(value)
        for key, value in data.items()
        if key not in ("words", "line_words", "kind_words")
    }
    # a card's kind kept with its words (``kind_words``), its own term in its game's context
    kind_words = data.get("kind_words")
    if isinstance(kind_words, dict) and isinstance(data.get("kind_label"), str):
        out["kind_label"] = in_language(kind_words)
    # a card's ``lines`` kept with their words (``line_words``, one per line)
    line_words = data.get("line_words")
    if isinstance(line_words, list) and isinstance(data.get("lines"), list):
        out["lines"] = [in_language(line) for line in line_words]
    elif "line_words" in data:
        out["line_words"] = line_words
    if isinstance(out.get("name"), str):
        out["name"] = _name_read(out["name"])
    if isinstance(out.get("names"), list):
        out["names"] = [_name_read(n) if isinstance(n, str) else n for n in out["names"]]
    words = data.get("words")
    if isinstance(words, dict) and "text" in words and "text" in data:
        out["text"] = in_language(words)
    elif "words" in data:
        out["words"] = data["words"]
    return out


#: Every name and text of the games' data (``manage.py datawords``): only these are looked
#: up, so a name a person wrote (a player's, a GM's card) is never taken for a catalog entry.
DATA_WORDS: frozenset[str] = frozenset(data_words.DATA_WORDS)

#: The keys of a card or a data entry in JSON whose values are data words, and those whose
#: values are fixed words of the engine's (a card's kind, a DBS character's status).
_DATA_KEYS = ("name", "title", "text", "about", "character", "description")
_WORD_KEYS = ("kind_label", "status_label")


#: Two data names the sheet joins into one (``"Carefree Soul: Worldly experience"``, a
#: profession's feature; ``"Skill Focus (Flying)"``, an ability with its chosen skill).
_JOINED = (
    re.compile(r"^(?P<a>[^:()]+): (?P<b>[^:()]+)$"),
    re.compile(r"^(?P<a>[^()]+) \((?P<b>[^()]+)\)$"),
)


def data_text(text: str) -> str:
    """A name or text of the games' data (a card's name, a race's description) in the active
    language, also two names joined as the sheet joins them; anything else (a player's or a
    GM's words) as it is."""
    if text in DATA_WORDS:
        return gettext(text)
    for joined in _JOINED:
        found = joined.match(text)
        if found and found["a"] in DATA_WORDS and found["b"] in DATA_WORDS:
            a, b = gettext(found["a"]), gettext(found["b"])
            return f"{a}: {b}" if ":" in text else f"{a} ({b})"
    return text


def data_in_language(value: Any) -> Any:
    """``value`` (a table's view, a battle's view) with the names and texts of the data in the
    active language: in every object that is a card (it has a ``name`` and a ``kind`` or
    ``kind_label``), its name, title, text, character, kind label and status label; in every
    status effect (a ``kind`` and a ``label``), its label. Ids, keys and everything else are
    left as they are; ``value`` itself is not changed."""
    if isinstance(value, list):
        return [data_in_language(item) for item in value]
    if not isinstance(value, dict):
        return value
    out = {key: data_in_language(item) for key, item in value.items()}
    if isinstance(out.get("label"), str) and "kind" in out:  # a battle's status effect
        out["label"] = data_text(out["label"])
    if "name" in out and ("kind" in out or "kind_label" in out):
        for key in _DATA_KEYS:
            if isinstance(out.get(key), str):
                out[key] = data_text(out[key])
        for key in _WORD_KEYS:
            if isinstance(out.get(key), str):
                out[key] = gettext(out[key])
    return out
