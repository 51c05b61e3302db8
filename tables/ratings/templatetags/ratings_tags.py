"""``{% rating_history user %}``: her ratings and their latest games, for her profile page
(accounts' template loads it: the accounts app sits below the tables and imports nothing of
them)."""

from __future__ import annotations

from typing import Any

from django import template

from ..selectors import history_of

register = template.Library()


@register.inclusion_tag("ratings/_history.html")
def rating_history(user: Any) -> dict[str, Any]:
    return {"blocks": history_of(int(user.pk)) if getattr(user, "is_authenticated", False) else []}
