"""``{{ entry.viewers.all|shown_names }}``: the chosen players of an entry or a section as one
list of names, for a sentence of the GMs' page that names them ("seen by …")."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template

register = template.Library()


@register.filter
def shown_names(users: Iterable[Any]) -> str:
    return ", ".join(str(u.shown_name) for u in users)
