"""Words the engines write for people, as message ids with parameters.

The engines are pure Python and know nothing of Django or of the reader's language, yet what
they write (a move's label, a log line, a house rule's label) is read in Japanese and Chinese
too (docs/i18n.md). So an engine marks each sentence with :func:`N_` (``gettext_noop``'s
meaning: the English sentence is the message id, found by ``makemessages --keyword=N_``) and
returns :class:`Words`, the id with its named parameters; the app translates the id and fills
the parameters in the reader's language when it renders (``apibase/engine_words.py``). ``str()`` of
:class:`Words` is the English sentence, for logs, bots and tests that read English.

A word that means two things on the site (RAIGO's "Switch" token, the language switcher's
"Switch" button) is marked with :func:`NP_` and carries its context in :class:`Words`, so each
meaning is its own catalog entry (``pgettext``'s ``msgctxt``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def N_(text: str) -> str:
    """Mark ``text`` as a message id for ``makemessages`` and return it unchanged."""
    return text


def NP_(context: str, text: str) -> str:
    """Mark ``text`` with its message ``context`` for ``makemessages`` (``pgettext_noop``'s
    meaning) and return ``text``; the :class:`Words` made of it give the same ``context``."""
    return text


#: How gettext keeps a context with its message id in a catalog (``msgctxt`` + EOT + ``msgid``).
CONTEXT_SEPARATOR = "\x04"


@dataclass(frozen=True)
class Words:
    """An English message id (``"%(name)s plays %(card)s."``) and its parameters.

    A parameter may itself be :class:`Words` (a card's name inside a log line), translated in
    turn when rendered. ``data``: ``text`` is a name or text of the games' data (a card's name,
    made by :func:`data`), looked up only among the data's words when rendered, so a name a
    player wrote for her own card is never taken for some other catalog entry."""

    text: str
    params: Mapping[str, Any] = field(default_factory=dict)
    #: The message context (:func:`NP_`), empty for most words.
    context: str = ""
    #: A name or text of the games' data (:func:`data`), read as the data's words.
    data: bool = False

    def __str__(self) -> str:
        return render(self, lambda text: text)

    def to_json(self) -> dict[str, Any]:
        """The id and parameters (and the context or the data flag, when set) as JSON, to
        store in a log and render at read time."""
        out: dict[str, Any] = {
            "text": self.text,
            "params": {
                key: value.to_json() if isinstance(value, Words) else value
                for key, value in self.params.items()
            },
        }
        if self.context:
            out["context"] = self.context
        if self.data:
            out["data"] = True
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Words:
        return cls(
            str(data["text"]),
            {
                key: cls.from_json(value) if isinstance(value, Mapping) else value
                for key, value in dict(data.get("params") or {}).items()
            },
            str(data.get("context") or ""),
            bool(data.get("data")),
        )


def data(text: str) -> Words:
    """A name or text of the games' data (a card's name) as a parameter of other words: in
    English it is ``text``; the app shows it as its data words read (``data_text``)."""
    return Words(text, data=True)


def render(words: Words | str, translate: Any, data: Any = None) -> str:
    """``words`` in the language ``translate`` (a ``gettext``) speaks; a plain string is
    returned as it is (user content, names). Data words (:func:`data`) go through ``data``
    (``apibase.engine_words.data_text``), or stay as they are without it."""
    if isinstance(words, str):
        return words
    if words.text == CAPITALIZED:
        inner = render(words.params["text"], translate, data)
        return inner[:1].upper() + inner[1:]
    if words.data:
        return str(words.text if data is None else data(words.text))
    if words.context:
        # as ``pgettext``: an id with no entry of its own comes back whole, context and all
        text = translate(f"{words.context}{CONTEXT_SEPARATOR}{words.text}")
        if CONTEXT_SEPARATOR in str(text):
            text = words.text
    else:
        text = translate(words.text)
    if not words.params:
        return str(text)
    params = {
        key: render(value, translate, data) if isinstance(value, Words) else value
        for key, value in words.params.items()
    }
    return str(text) % params


#: Not a message id: :func:`render` gives its ``text`` parameter with a capital first letter
#: (a sentence built of pieces: "Draw 1 card." of "draw 1 card"); scripts without capitals
#: are left as they are.
CAPITALIZED = "<capitalized>"


def capitalized(words: Words | str) -> Words:
    """``words`` with a capital first letter once rendered, in whatever language."""
    return Words(CAPITALIZED, {"text": words})


def listing(items: list[Words | str], *, last: str = "and") -> Words | str:
    """``items`` in one list, each rendered in turn so that a translation joins them its own
    way: "A, B and C"; ``last="comma"``: "A, B, C"; ``last="semicolon"``: "A; B; C" (for items
    that hold commas)."""
    if not items:
        return ""
    head = items[0]
    for i, item in enumerate(items[1:], start=2):
        if last == "semicolon":
            head = Words(N_("%(first)s; %(next)s"), {"first": head, "next": item})
        elif last == "and" and i == len(items):
            head = Words(N_("%(first)s and %(last)s"), {"first": head, "last": item})
        else:
            head = Words(N_("%(first)s, %(next)s"), {"first": head, "next": item})
    return head


def said(words: Words | str) -> dict[str, Any]:
    """``{"text": English, "words": their JSON}`` for a text kept in a state or a view: the app
    renders ``words`` in the reader's language (``apibase.engine_words.json_in_language``)."""
    if isinstance(words, Words):
        return {"text": str(words), "words": words.to_json()}
    return {"text": words}
