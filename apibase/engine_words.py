"""The engines' words (:class:`westernroses.words.Words`) in the reader's language: the
active language's catalog translates the message id and each parameter that is itself words;
names and numbers go in as they are (docs/i18n.md)."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext

from westernroses import data_words
from westernroses.words import Words, render


def in_language(words: Words | str | dict[str, Any]) -> str:
    """``words`` (or their JSON from a log) in the active language."""
    if isinstance(words, dict):
        words = Words.from_json(words)
    return render(words, gettext)


#: Every name and text of the games' data (``manage.py datawords``): only these are looked
#: up, so a name a person wrote (a player's, a GM's card) is never taken for a catalog entry.
DATA_WORDS: frozenset[str] = frozenset(data_words.DATA_WORDS)

#: The keys of a card or a data entry in JSON whose values are data words, and the one whose
#: value is a fixed word of the engine's (a card's kind).
_DATA_KEYS = ("name", "title", "text", "about", "character", "description")
_WORD_KEYS = ("kind_label",)


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
    ``kind_label``), its name, title, text, character and kind label; in every status effect
    (a ``kind`` and a ``label``), its label. Ids, keys and everything else are left as they
    are; ``value`` itself is not changed."""
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
