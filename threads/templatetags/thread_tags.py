"""``{% threads_unread access %}``: the member's unread posts in her campaign's threads, for the
campaign navigation (0 for anyone else)."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.simple_tag
def threads_unread(access: Any) -> int:
    from threads.services import unread_total

    if access is None or not getattr(access, "is_member", False):
        return 0
    return unread_total(access)


@register.filter
def reaction_label(kind: str) -> str:
    """A reaction's name in the reader's language (its button's tooltip)."""
    from threads.models import reaction_label as label

    return label(kind)
