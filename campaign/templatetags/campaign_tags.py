"""Template filters for the campaign pages."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def label(slug: object) -> str:
    """A slug as words: ``mortally_wounded`` → ``mortally wounded``, ``level_up`` → ``level up``."""
    return str(slug or "").replace("_", " ").replace("-", " ")
