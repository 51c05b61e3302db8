"""Reading ratings: a game's leaderboard in a scope, and a player's history."""

from __future__ import annotations

from typing import Any

from django.db.models import F, QuerySet
from django.utils.translation import gettext, gettext_noop

from minigames.engines.registry import ENGINE_MODULES, get_engine

from .models import BOT_NAMES, Rating, RatingChange
from .scale import provisional, shown

#: How many of her latest rated games the profile page lists per game and scope.
HISTORY_ROWS = 20


def rated_games() -> list[dict[str, str]]:
    """The games with leaderboards (the tavern's four), each with its title."""
    return [{"slug": slug, "title": get_engine(slug).title} for slug in ENGINE_MODULES]


def game_title(slug: str) -> str:
    return get_engine(slug).title


def board(game: str, campaign_id: int | None) -> QuerySet[Rating]:
    """A game's ratings in a scope, best first by the conservative estimate (mu - 3 sigma),
    then by the estimate, then oldest rating first (a stable order for paging)."""
    scope = {"campaign__isnull": True} if campaign_id is None else {"campaign_id": campaign_id}
    return (
        Rating.objects.filter(game=game, games__gt=0, **scope)
        .select_related("user")
        .alias(conservative=F("mu") - 3.0 * F("sigma"))
        .order_by("-conservative", "-mu", "pk")
    )


def entry(rating: Rating, place: int) -> dict[str, Any]:
    """One leaderboard line, in words and the shown scale."""
    return {
        "place": place,
        "name": rating.name,
        "bot": rating.bot or None,
        "rating": shown(rating.mu),
        "provisional": provisional(rating.sigma),
        "games": rating.games,
        "mu": round(rating.mu, 4),
        "sigma": round(rating.sigma, 4),
    }


def entries(ratings: Any, offset: int = 0) -> list[dict[str, Any]]:
    return [entry(r, offset + i + 1) for i, r in enumerate(ratings)]


def history_of(user_id: int, limit: int = HISTORY_ROWS) -> list[dict[str, Any]]:
    """Her ratings, one block per game and scope (site first, then campaigns by name), each
    with its latest ``limit`` rated games, newest first."""
    ratings = (
        Rating.objects.filter(user_id=user_id, games__gt=0)
        .select_related("campaign")
        .order_by(F("campaign__name").asc(nulls_first=True), "game")
    )
    out = []
    for rating in ratings:
        changes = RatingChange.objects.filter(rating=rating).order_by("-at", "-pk")[:limit]
        out.append(
            {
                "game": rating.game,
                "title": game_title(rating.game) if rating.game in ENGINE_MODULES else rating.game,
                "campaign": rating.campaign_id,
                "scope": rating.campaign.name if rating.campaign is not None else "Open tables",
                "rating": shown(rating.mu),
                "provisional": provisional(rating.sigma),
                "games": rating.games,
                "changes": [change_entry(c) for c in changes],
            }
        )
    return out


def change_entry(change: RatingChange) -> dict[str, Any]:
    """One rated game of her history: before, after, the change and how she placed."""
    before, after = shown(change.mu_before), shown(change.mu_after)
    return {
        "at": change.at.isoformat(timespec="seconds"),
        "before": before,
        "after": after,
        "change": after - before,
        "outcome": change.outcome,
        "outcome_text": outcome_text(change.outcome, change.place, change.teams),
        "url": change.url,
    }


#: A place among several, one sentence per English ordinal's ending (a language that counts
#: places otherwise writes each the same way): "2nd of 4".
_PLACED = {
    "st": gettext_noop("%(place)sst of %(teams)s"),
    "nd": gettext_noop("%(place)snd of %(teams)s"),
    "rd": gettext_noop("%(place)srd of %(teams)s"),
    "th": gettext_noop("%(place)sth of %(teams)s"),
}
_OUTCOMES = {"won": gettext_noop("Won"), "lost": gettext_noop("Lost"), "drew": gettext_noop("Drew")}


def outcome_text(outcome: str, place: int, teams: int) -> str:
    """ "Won", "Lost", "Drew", "2nd of 4", in the reader's language."""
    if outcome == "placed":
        last = place % 100 if place % 100 < 20 else place % 10
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(last, "th")
        return gettext(_PLACED[suffix]) % {"place": place, "teams": teams}
    return gettext(_OUTCOMES[outcome]) if outcome in _OUTCOMES else outcome


def bot_name(strength: str) -> str:
    return str(BOT_NAMES.get(strength, gettext("A bot")))


def result_changes(key: str) -> list[dict[str, Any]]:
    """What a counted result did to each of its players' ratings (a table's page shows it
    under the result), best placed first; empty before it is counted."""
    changes = (
        RatingChange.objects.filter(result__key=key)
        .select_related("rating__user")
        .order_by("place", "pk")
    )
    return [{"name": c.rating.name, **change_entry(c)} for c in changes]


def bot_ratings(game: str, campaign_id: int | None, strengths: list[str]) -> list[dict[str, Any]]:
    """The ratings of the bot strengths seated at a rated table, in the table's scope (the
    table page: "Search bot 1650"), in the order given; a strength not rated yet is left out."""
    scope = {"campaign__isnull": True} if campaign_id is None else {"campaign_id": campaign_id}
    found = {
        r.bot: r
        for r in Rating.objects.filter(game=game, user__isnull=True, bot__in=strengths, **scope)
    }
    return [
        {
            "name": bot_name(s),
            "rating": shown(found[s].mu),
            "provisional": provisional(found[s].sigma),
        }
        for s in dict.fromkeys(strengths)
        if s in found and found[s].games
    ]
