"""The replay page, written once for every game: ``/tables/<game>/<id>/replay/``.

The page holds the controls (first, previous, next, last, the arrow keys, the move list and a
link to the step shown) and draws each step with the game's own renderer, read-only: the
game's ``replay_page`` hook names its board markup and scripts (:mod:`tables.registry`), and
``static/js/replay.js`` asks the core's ``replay/`` endpoint (:mod:`tables.replay`) for each
step. Who may open it is who may open the table: a 404 for anyone else, as the table's own
page answers.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from .registry import game_for, game_of
from .selectors import table_for


@login_required
@require_GET
def replay_page(request: HttpRequest, game: str, pk: int) -> HttpResponse:
    """A table's game, watched again step by step (``?step=<n>`` opens at that step)."""
    try:
        named = game_for(game)
    except LookupError:
        raise Http404("No such game.") from None
    table, seat = table_for(named, request.user, pk, reading=True)
    found = game_of(table)
    if found.slug != named.slug or found.hooks.replay_page is None:
        raise Http404("No such table.")
    page = dict(found.hooks.replay_page(table, request.user, seat))
    return render(request, "tables/replay.html", {"table": table, "seat": seat, "page": page})
