"""The engines' words (:class:`westernroses.words.Words`) in the reader's language: the
active language's catalog translates the message id and each parameter that is itself words;
names and numbers go in as they are (docs/i18n.md)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from westernroses.words import Words, render


def in_language(words: Words | str | dict[str, Any]) -> str:
    """``words`` (or their JSON from a log) in the active language."""
    if isinstance(words, dict):
        words = Words.from_json(words)
    return render(words, gettext)
