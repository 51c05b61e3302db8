"""Template filters for character pages: look-ups and number formatting, no rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from apibase.engine_words import data_text

register = template.Library()


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    """``mapping[key]`` or None: templates cannot index with a variable key."""
    if isinstance(mapping, Mapping):
        return mapping.get(key)
    return None


@register.filter
def signed(value: Any) -> str:
    """``+2`` / ``-1`` / ``0``: how a part of a total reads in a breakdown."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return str(value)
    return f"{number:+d}" if number else "0"


@register.filter
def contains(collection: Any, item: Any) -> bool:
    try:
        return item in collection
    except TypeError:
        return False


@register.filter
def breakdown(parts: Any) -> str:
    """Contributions as one line ("Homing Amulets: 5, Bonus points: +4"): the first part as it
    is, the rest signed, as the total adds them up; a source from the data in the reader's
    language."""
    if not parts:
        return ""
    return ", ".join(
        f"{data_text(str(p['label']))}: "
        f"{int(p['amount']) if i == 0 else format(int(p['amount']), '+d')}"
        for i, p in enumerate(parts)
    )


@register.filter
def words(value: Any) -> str:
    """A slug as words: ``mortally_wounded`` -> ``Mortally wounded``."""
    text = str(value or "").replace("_", " ")
    return text[:1].upper() + text[1:]


@register.filter
def field_words(field_path: Any) -> str:
    """A rule problem's field as the player reads it (the engine's labels): ``shot_type`` ->
    "Shot-type", ``bonus_points`` -> "Bonus points"."""
    from westernroses.characters.draft import field_words as words_of

    return words_of(str(field_path or ""))


@register.filter
def card_type_words(card_type: Any) -> str:
    """A spellcard's type (``attack``, ``defensive``, ``special``) in the reader's language."""
    from characters.sheet_words import CARD_TYPES

    return str(CARD_TYPES.get(str(card_type), card_type))


@register.filter
def drunkenness_words(level: Any) -> str:
    """A drunkenness level (``heavily_drunk``) by its name in the reader's language."""
    from characters.sheet_words import drunk_words

    return drunk_words(str(level or "").replace("_", " ").title())


@register.filter
def element_words(element: Any) -> str:
    """An element (``water``, ``Element.WATER``) by its name in the reader's language."""
    from characters.sheet_words import element_words as words_of

    return words_of(str(getattr(element, "value", element) or ""))
