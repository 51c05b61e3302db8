"""Notification words that read in each reader's language.

A notification is raised once, in whatever language the request or task that raised it had,
and read later by someone else: a worker building her email, push or webhook, or her own page.
So a feature does not pass finished sentences for its words; it passes a :class:`Text`, the
message id (the English source, marked for ``makemessages``) with its parameters, and the
notification stores that (``Notification.texts``) beside an English rendering (its ``title`` and
``body`` columns, for the admin and for rows older than the field). Whoever shows it renders it
in the language active then: :func:`recipient` around a delivery, the request's on a page.

Builders (the names ``makemessages`` looks for, so their first arguments are marked)::

    texts.gettext_lazy("Loot for %(names)s: %(what)s", names=names, what=what)
    texts.ngettext_lazy("%(n)s update", "%(n)s updates", "n", n=count)

Parameters are plain values (names and titles a user wrote are never translated), other
``Text`` values, a lazy label (``Role.PLAYER.label``: stored by its message id), or a
``datetime`` (shown in the reader's time zone with her locale's ``DATETIME_FORMAT``) or
``date`` (a day of the last days: ``MONTH_DAY_FORMAT``).
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime, tzinfo
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.utils import formats, timezone, translation
from django.utils.functional import Promise

from westernroses.words import Words as EngineWords

if TYPE_CHECKING:
    from accounts.models import User

Param = Any

#: Marks a message id without translating it (for tables of ids kept until rendering).
gettext_noop = translation.gettext_noop


@dataclass(frozen=True, slots=True)
class Text:
    """A sentence to render later: ``msgid`` (and ``plural``, counted by the parameter named
    ``count``) with its parameters."""

    msgid: str
    params: Mapping[str, Param] = field(default_factory=dict)
    plural: str = ""
    count: str = ""

    def render(self) -> str:
        """The sentence in the active language and time zone."""
        values = {name: _render(value) for name, value in self.params.items()}
        if self.plural:
            number = self.params.get(self.count, 0)
            words = translation.ngettext(self.msgid, self.plural, int(number))
        else:
            words = translation.gettext(self.msgid)
        return words % values if values else words

    def english(self) -> str:
        """The source-language rendering (what the ``title``/``body`` columns keep)."""
        with translation.override(settings.LANGUAGE_CODE):
            return self.render()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"msgid": self.msgid}
        if self.params:
            data["params"] = {name: _dump(value) for name, value in self.params.items()}
        if self.plural:
            data["plural"], data["count"] = self.plural, self.count
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Text:
        return cls(
            msgid=str(data["msgid"]),
            params={name: _load(value) for name, value in (data.get("params") or {}).items()},
            plural=str(data.get("plural", "")),
            count=str(data.get("count", "")),
        )


def gettext_lazy(message: str, /, **params: Param) -> Text:
    """A sentence, rendered in the reader's language when it is shown."""
    return Text(message, {name: _keep(value) for name, value in params.items()})


def ngettext_lazy(singular: str, plural: str, count: str, /, **params: Param) -> Text:
    """A sentence whose form follows the number in the parameter named ``count``."""
    return Text(singular, {name: _keep(value) for name, value in params.items()}, plural, count)


Words = str | Text


def english(words: Words) -> str:
    return words.english() if isinstance(words, Text) else words


def render(words: Words) -> str:
    return words.render() if isinstance(words, Text) else words


def dump(words: Words) -> dict[str, Any] | None:
    """What ``Notification.texts`` keeps for one of its words (None: a plain string)."""
    return words.to_json() if isinstance(words, Text) else None


def stored(texts: Mapping[str, Any] | None, name: str, fallback: str) -> str:
    """One stored word (``title``, ``body``) in the active language, else the column."""
    data = (texts or {}).get(name)
    if not data:
        return fallback
    try:
        return Text.from_json(data).render()
    except (KeyError, TypeError, ValueError):  # a row written by other code: its column
        return fallback


def loaded(texts: Mapping[str, Any] | None, name: str, fallback: str) -> Words:
    """One stored word as a :class:`Text` again (to pass on), else the column's string."""
    data = (texts or {}).get(name)
    return Text.from_json(data) if data else fallback


# --------------------------------------------------------------------------- the reader


def language_of(user: User | None) -> str:
    """The language a delivery to ``user`` speaks: her preference, else the site's default
    (a worker has no browser to ask)."""
    code = (getattr(user, "language", "") or "") if user is not None else ""
    known = {c for c, _ in settings.LANGUAGES}
    return code if code in known else settings.LANGUAGE_CODE


def zone_of(user: User | None) -> tzinfo:
    name = (getattr(user, "time_zone", "") or "") if user is not None else ""
    try:
        return zoneinfo.ZoneInfo(name) if name else zoneinfo.ZoneInfo(settings.TIME_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)


@contextmanager
def recipient(user: User | None) -> Iterator[None]:
    """Speak to ``user``: her language and time zone inside, the caller's again after (so one
    recipient's language never reaches the next one a task writes to)."""
    with translation.override(language_of(user)), timezone.override(zone_of(user)):
        yield


# --------------------------------------------------------------------------- parameters


def _keep(value: Param) -> Param:
    """A parameter as stored: a lazy label becomes a :class:`Text` of its message id."""
    if isinstance(value, Promise):
        with translation.override(None):
            return Text(str(value))
    return value


def _render(value: Param) -> Any:
    if isinstance(value, Text):
        return value.render()
    if isinstance(value, datetime):
        return formats.date_format(timezone.localtime(value), "DATETIME_FORMAT")
    if isinstance(value, date):
        return formats.date_format(value, "MONTH_DAY_FORMAT")
    return value


def _dump(value: Param) -> Any:
    if isinstance(value, Text):
        return {"text": value.to_json()}
    if isinstance(value, datetime):
        return {"when": value.isoformat()}
    if isinstance(value, date):
        return {"day": value.isoformat()}
    return value


def _load(value: Any) -> Param:
    if isinstance(value, dict):
        if "text" in value:
            return Text.from_json(value["text"])
        if "when" in value:
            return datetime.fromisoformat(value["when"])
        if "day" in value:
            return date.fromisoformat(value["day"])
    return value


# --------------------------------------------------------------------------- engines' words


def engine_words(words: EngineWords | str) -> Words:
    """An engine's words (``westernroses.words``: a game's summary, what a seat is waited on
    for) as a :class:`Text`, so a notification keeps their message id and renders them in
    each reader's language; a plain string stays as it is."""
    if isinstance(words, str):
        return words
    return Text(
        words.text,
        {
            name: engine_words(value) if isinstance(value, EngineWords) else value
            for name, value in words.params.items()
        },
    )
