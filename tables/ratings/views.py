"""The leaderboard pages: a game's ratings at the site's open tables, or in one campaign's
tavern (its members). Rules and numbers come from the selectors."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_safe

from minigames.engines.registry import ENGINE_MODULES

from . import selectors
from .scale import START

#: The most lines a leaderboard page shows (the API pages through the rest).
PAGE_ROWS = 100


def _board(request: HttpRequest, game: str, campaign: object, access: object) -> HttpResponse:
    if game not in ENGINE_MODULES:
        raise Http404("No such game.")
    campaign_id = getattr(campaign, "pk", None)
    ratings = selectors.board(game, campaign_id)[:PAGE_ROWS]
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "game": game,
            "title": selectors.game_title(game),
            "games": selectors.rated_games(),
            "campaign": campaign,
            "access": access,
            "rows": selectors.entries(ratings),
            "start": START,
        },
    )


@login_required
@require_safe
def leaderboard(request: HttpRequest, game: str) -> HttpResponse:
    """A game's leaderboard at the site's open tables."""
    return _board(request, game, None, None)


@login_required
@require_safe
def first_leaderboard(request: HttpRequest) -> HttpResponse:
    return redirect("ratings:board", game=next(iter(ENGINE_MODULES)))


@login_required
@require_safe
def campaign_leaderboard(request: HttpRequest, campaign_id: int, game: str) -> HttpResponse:
    """A game's leaderboard in one campaign's tavern (its members only: 404 otherwise)."""
    from campaign.permissions import campaign_for

    campaign, access = campaign_for(request.user, campaign_id)
    return _board(request, game, campaign, access)
