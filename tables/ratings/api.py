"""The ratings' API: a game's leaderboard (the site's or a campaign's) and your own history.

* ``GET /api/leaderboards/<game>/?campaign=<id>`` - best first, paged (``limit``, ``offset``);
* ``GET /api/ratings/mine/`` - your ratings per game and scope, with their latest games.
"""

from __future__ import annotations

from typing import Any, cast

from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.generics import GenericAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apibase import serializers
from minigames.engines.registry import ENGINE_MODULES

from . import selectors
from .models import Rating


class LeaderboardEntrySerializer(serializers.Serializer[Any]):
    place = serializers.IntegerField(help_text="1 for the best.")
    name = serializers.CharField(help_text="The player's name, or the bot's (Search bot).")
    bot = serializers.CharField(allow_null=True, help_text="The bot's strength, or null.")
    rating = serializers.IntegerField(
        help_text="The rating people read: 1500 for a newcomer (docs/decisions/rating-scale.md)."
    )
    provisional = serializers.BooleanField(help_text="Still uncertain (its first games).")
    games = serializers.IntegerField(help_text="Rated games counted.")
    mu = serializers.FloatField(help_text="OpenSkill's estimate.")
    sigma = serializers.FloatField(help_text="OpenSkill's uncertainty.")


class RatingChangeSerializer(serializers.Serializer[Any]):
    at = serializers.DateTimeField()
    before = serializers.IntegerField()
    after = serializers.IntegerField()
    change = serializers.IntegerField()
    outcome = serializers.ChoiceField(choices=["won", "lost", "drew", "placed"])
    outcome_text = serializers.CharField(help_text="In words: Won, Lost, Drew, 2nd of 4.")
    url = serializers.CharField(allow_blank=True, help_text="The table's page, or empty.")


class RatingHistorySerializer(serializers.Serializer[Any]):
    game = serializers.ChoiceField(choices=list(ENGINE_MODULES))
    title = serializers.CharField()
    campaign = serializers.IntegerField(allow_null=True, help_text="Null: open tables.")
    scope = serializers.CharField(help_text="Open tables, or the campaign's name.")
    rating = serializers.IntegerField()
    provisional = serializers.BooleanField()
    games = serializers.IntegerField()
    changes = RatingChangeSerializer(many=True, help_text="The latest rated games, newest first.")


def scope_of(user: Any, campaign: str | None) -> int | None:
    """The campaign named (a member's: 404 otherwise), or None for the site's open tables."""
    if campaign is None:
        return None
    from campaign.permissions import campaign_for

    found, _access = campaign_for(user, campaign)
    return int(found.pk)


class LeaderboardView(GenericAPIView[Rating]):
    """A game's leaderboard: the site's open tables, or one campaign's tavern (its members),
    ranked by the conservative estimate (mu - 3 sigma). Bots are rated too."""

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "game", str, OpenApiParameter.PATH, enum=list(ENGINE_MODULES), description="Game."
            ),
            OpenApiParameter("campaign", int, description="One campaign's leaderboard."),
        ],
        responses={200: LeaderboardEntrySerializer(many=True)},
    )
    def get(self, request: Request, game: str) -> Response:
        if game not in ENGINE_MODULES:
            raise Http404("No such game.")
        campaign_id = scope_of(request.user, request.query_params.get("campaign"))
        ratings = selectors.board(game, campaign_id)
        page = self.paginate_queryset(ratings)
        offset = int(getattr(self.paginator, "offset", 0) or 0)
        return self.get_paginated_response(selectors.entries(page or [], offset))


class MyRatingsView(APIView):
    """Your ratings, per game and scope, each with its latest rated games."""

    @extend_schema(responses={200: RatingHistorySerializer(many=True)})
    def get(self, request: Request) -> Response:
        return Response(selectors.history_of(int(cast(int, request.user.pk))))
