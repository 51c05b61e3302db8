"""API for what is said and pointed at around a battle's table (:mod:`battles.table_talk`):
the feed the screen polls beside the view (the table's chat lines, read from the core's chat,
:mod:`tables.chat`, whose endpoints take what is said), pings, and the portraits of the
combatants the caller can see. None of these change the battle's version."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.typing import signed_in
from apibase import serializers
from apibase.numbers import int_query_param
from tables.api import check_body_size
from tables.chat.api import ChatLineSerializer, MutedSerializer
from tables.clocks.api import ClockSerializer

from . import maps, selectors, table_talk
from .serializers import SquareField


class PingInputSerializer(serializers.Serializer[Any]):
    square = SquareField()


class PingSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    square = serializers.ListField(child=serializers.IntegerField())
    author = serializers.CharField()
    mine = serializers.BooleanField()


class TableFeedSerializer(serializers.Serializer[Any]):
    clock = ClockSerializer(
        allow_null=True,
        help_text="The turn clock (none: null); the page reads clock/ again when it differs"
        " (setting or pausing it bumps no version).",
    )
    chat = ChatLineSerializer(many=True, help_text="The table's chat (tables.chat).")
    chat_older = serializers.BooleanField(help_text="Older lines exist (ask chat_before).")
    chat_muted = MutedSerializer(many=True, help_text="Who is muted at the table (GMs only).")
    pings = PingSerializer(many=True)
    map = serializers.DictField(
        allow_null=True,
        help_text="The battle's map as in the view (null: a drawn grid); when it differs from"
        " the view's, ask for the whole view again (a map change bumps no version).",
    )


class BattleTableFeedView(APIView):
    """Chat lines you may read and recent pings: ``?chat_after=<id>`` for new lines (none: the
    last page), ``?chat_before=<id>`` to scroll back, ``?pings_after=<id>``."""

    #: pages poll it: counted in the API's poll scope (apibase.throttles.POLL_SCOPE)
    live_reads = True

    @extend_schema(
        parameters=[
            OpenApiParameter("chat_after", int),
            OpenApiParameter("chat_before", int),
            OpenApiParameter("pings_after", int),
        ],
        responses=TableFeedSerializer,
    )
    def get(self, request: Request, pk: int) -> Response:
        battle, access = selectors.battle_for(request.user, pk)
        feed = table_talk.table_feed(
            battle=battle,
            user=request.user,
            access=access,
            chat_after=int_query_param(request, "chat_after", None),
            chat_before=int_query_param(request, "chat_before", None),
            pings_after=int_query_param(request, "pings_after", 0) or 0,
        )
        feed["map"] = maps.map_payload_of(battle.map_id)
        response = Response(feed)
        response["Cache-Control"] = "no-store"
        return response


class BattlePingView(APIView):
    """Point at a square for everyone at the table (members): ``{"square": [x, y]}``."""

    @extend_schema(request=PingInputSerializer, responses={201: PingSerializer})
    def post(self, request: Request, pk: int) -> Response:
        check_body_size(request)
        battle, access = selectors.battle_for(request.user, pk)
        serializer = PingInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        x, y = serializer.validated_data["square"]
        ping = table_talk.ping_place(
            battle=battle, access=access, author=signed_in(request), x=x, y=y
        )
        body = {"id": ping.pk, "square": [ping.x, ping.y], "author": "you", "mine": True}
        return Response(body, status=status.HTTP_201_CREATED)


class BattlePortraitsView(APIView):
    """Engine id → portrait URL for the combatants your view shows (never one hidden from
    you); the screen asks again when the combatants it sees change."""

    @extend_schema(
        responses={
            200: OpenApiResponse(
                OpenApiTypes.OBJECT, description="Engine id → portrait URL (a site path)."
            )
        }
    )
    def get(self, request: Request, pk: int) -> Response:
        battle, _ = selectors.battle_for(request.user, pk)
        view = selectors.battle_state(battle.pk, request.user)["view"]
        visible = set(view.get("combatants", {}))
        return Response(table_talk.portraits(battle=battle, visible=visible))
