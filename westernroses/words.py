"""Words the engines write for people, as message ids with parameters.

The engines are pure Python and know nothing of Django or of the reader's language, yet what
they write (a move's label, a log line, a house rule's label) is read in Japanese and Chinese
too (docs/i18n.md). So an engine marks each sentence with :func:`N_` (``gettext_noop``'s
meaning: the English sentence is the message id, found by ``makemessages --keyword=N_``) and
returns :class:`Words`, the id with its named parameters; the app translates the id and fills
the parameters in the reader's language when it renders (``apibase/engine_words.py``). ``str()`` of
:class:`Words` is the English sentence, for logs, bots and tests that read English."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def N_(text: str) -> str:
    """Mark ``text`` as a message id for ``makemessages`` and return it unchanged."""
    return text


@dataclass(frozen=True)
class Words:
    """An English message id (``"%(name)s plays %(card)s."``) and its parameters.

    A parameter may itself be :class:`Words` (a card's name inside a log line), translated in
    turn when rendered."""

    text: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return render(self, lambda text: text)

    def to_json(self) -> dict[str, Any]:
        """The id and parameters as JSON, to store in a log and render at read time."""
        return {
            "text": self.text,
            "params": {
                key: value.to_json() if isinstance(value, Words) else value
                for key, value in self.params.items()
            },
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Words:
        return cls(
            str(data["text"]),
            {
                key: cls.from_json(value) if isinstance(value, Mapping) else value
                for key, value in dict(data.get("params") or {}).items()
            },
        )


def render(words: Words | str, translate: Any) -> str:
    """``words`` in the language ``translate`` (a ``gettext``) speaks; a plain string is
    returned as it is (user content, names)."""
    if isinstance(words, str):
        return words
    if words.text == CAPITALIZED:
        inner = render(words.params["text"], translate)
        return inner[:1].upper() + inner[1:]
    text = translate(words.text)
    if not words.params:
        return str(text)
    params = {
        key: render(value, translate) if isinstance(value, Words) else value
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
