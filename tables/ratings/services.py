"""Counting a rated result: every seat's rating moves once, in the transaction that ends the
game (docs/tavern.md, "Ratings").

A game's app calls :func:`rate_result` with the teams (each a few :class:`Player`) and their
ranks (0 the best; equal ranks tie). The result's ``key`` is stored first, unique: a finish
seen twice (a request repeated, a task retried, a resignation racing the last move) counts
once. The ratings read are locked in id order, so two games ending together for one player
both count, in turn, and never deadlock.

A player at a table twice (two seats of the same bot strength) is rated by nobody's game but
her own: her copies play with her rating as it was, and her own rating does not move (a game
against herself says nothing of her).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from openskill.models import PlackettLuce

from .models import RatedResult, Rating, RatingChange
from .scale import MU, SIGMA

#: OpenSkill's Plackett-Luce model with its defaults (multiplayer, teams, ties).
MODEL: Final = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True)
class Player:
    """Who sits in a rated seat: a user, or a bot strength; or (``gone``) someone no longer
    here (a deleted account), who plays at a newcomer's rating and is rated by nobody."""

    user_id: int | None = None
    bot: str = ""
    gone: bool = False

    def __post_init__(self) -> None:
        if self.gone:
            if self.user_id is not None or self.bot:
                raise ValueError("A player who is gone is neither a user nor a bot.")
        elif (self.user_id is None) == (not self.bot):
            raise ValueError("A rated player is a user or a bot, not both nor neither.")


@dataclass(frozen=True)
class Team:
    """The players who placed together, and their rank (0 the best; equal ranks tie)."""

    players: tuple[Player, ...]
    rank: int


def _identity(player: Player) -> Q:
    if player.user_id is not None:
        return Q(user_id=player.user_id)
    return Q(user__isnull=True, bot=player.bot)


def _ratings(game: str, campaign_id: int | None, players: Sequence[Player]) -> dict[Player, Rating]:
    """Each player's rating in the scope, created at OpenSkill's start if new, locked."""
    if not players:
        return {}
    Rating.objects.bulk_create(
        [
            Rating(
                game=game,
                campaign_id=campaign_id,
                user_id=p.user_id,
                bot=p.bot,
                mu=MU,
                sigma=SIGMA,
            )
            for p in players
        ],
        ignore_conflicts=True,
    )
    match = Q()
    for p in players:
        match |= _identity(p)
    scope = Q(campaign__isnull=True) if campaign_id is None else Q(campaign_id=campaign_id)
    rows = Rating.objects.select_for_update().filter(scope, match, game=game).order_by("pk")
    found = {Player(user_id=r.user_id, bot=r.bot if r.user_id is None else ""): r for r in rows}
    return {p: found[p] for p in players}


def outcome_words(place: int, teams: int, *, all_tied: bool) -> str:
    """``won``, ``lost``, ``drew`` or ``placed`` (a middle place of three or more)."""
    if all_tied:
        return "drew"
    if place == 1:
        return "won"
    return "lost" if place == teams or teams == 2 else "placed"


def rate_result(
    *,
    key: str,
    game: str,
    campaign_id: int | None,
    teams: Sequence[Team],
    url: str = "",
    at: datetime | None = None,
) -> bool:
    """Count one finished rated game: every player's rating in the scope (the site when
    ``campaign_id`` is None) moves by OpenSkill's Plackett-Luce update, and a history row says
    how. Call it inside the transaction that ends the game. False (nothing changes) when the
    result ``key`` was counted before."""
    if len(teams) < 2 or any(not t.players for t in teams):
        raise ValueError("A rated game has at least two teams, each with a player.")
    at = at or timezone.now()
    with transaction.atomic():
        try:
            with transaction.atomic():
                result = RatedResult.objects.create(
                    key=key, game=game, campaign_id=campaign_id, at=at
                )
        except IntegrityError:
            return False  # counted already
        counts = Counter(p for t in teams for p in t.players)
        ratings = _ratings(game, campaign_id, sorted((p for p in counts if not p.gone), key=repr))
        before = [
            [
                MODEL.rating() if p.gone else MODEL.rating(mu=ratings[p].mu, sigma=ratings[p].sigma)
                for p in t.players
            ]
            for t in teams
        ]
        ranks = [float(t.rank) for t in teams]
        after = MODEL.rate(before, ranks=ranks)
        all_tied = len(set(ranks)) == 1
        changes = []
        for t, new in zip(teams, after, strict=True):
            place = 1 + sum(1 for other in teams if other.rank < t.rank)
            for p, rated in zip(t.players, new, strict=True):
                if p.gone or counts[p] > 1:
                    continue  # gone, or at the table twice (a game against herself)
                row = ratings[p]
                changes.append(
                    RatingChange(
                        rating=row,
                        result=result,
                        mu_before=row.mu,
                        sigma_before=row.sigma,
                        mu_after=rated.mu,
                        sigma_after=rated.sigma,
                        outcome=outcome_words(place, len(teams), all_tied=all_tied),
                        place=place,
                        teams=len(teams),
                        url=url[:200],
                        at=at,
                    )
                )
                row.mu, row.sigma, row.games = rated.mu, rated.sigma, row.games + 1
                row.save(update_fields=["mu", "sigma", "games", "updated_at"])
        RatingChange.objects.bulk_create(changes)
    return True
