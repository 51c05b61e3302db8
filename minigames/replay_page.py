"""What the table core's replay page (``tables/pages.py``) draws a tavern game with: the
game's renderer (``static/js/tavern/<slug>.js``, read-only: no move is offered) and the seats'
names, as the table page shows them."""

from __future__ import annotations

from typing import Any

from django.contrib.staticfiles import finders
from django.urls import reverse
from django.utils.translation import gettext

from .engines.registry import get_engine
from .models import TavernTable, seats_of, shown_seat_names


def replay_page(table: TavernTable, user: Any, seat: int | None) -> dict[str, Any]:
    """The replay page's parts for ``table`` (``seat``: whose view the viewer reads)."""
    slug = table.game
    scripts = ["js/tavern/kit.js"]
    styles = ["css/tavern/table.css"]
    if finders.find(f"js/tavern/{slug}.js"):
        scripts.append(f"js/tavern/{slug}.js")
    if finders.find(f"css/tavern/{slug}.css"):
        styles.append(f"css/tavern/{slug}.css")
    return {
        "title": gettext("%(game)s: the game again, move by move")
        % {"game": get_engine(slug).title},
        "back": reverse("tavern:table", args=[table.pk]),
        "api": reverse("api-tavern-replay", args=[table.pk]),
        "board": "minigames/_replay_board.html",
        "scripts": scripts,
        "styles": styles,
        "config": {"kind": "tavern", "game": slug, "names": shown_seat_names(seats_of(table))},
    }
