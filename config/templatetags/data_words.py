"""``{{ name|data_text }}``: a name or text of the games' data (a card, a preset deck, a race)
in the reader's language (``apibase.engine_words.data_text``, docs/i18n.md); a list's items
each. Words a person wrote come out as they are."""

from __future__ import annotations

from typing import Any

from django import template

from apibase.engine_words import data_text as _data_text

register = template.Library()


@register.filter
def data_text(value: Any) -> Any:
    if isinstance(value, str):
        return _data_text(value)
    if isinstance(value, list | tuple):
        return [_data_text(v) if isinstance(v, str) else v for v in value]
    return value
