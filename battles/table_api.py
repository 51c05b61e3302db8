"""API for what is said and pointed at around a battle's table (:mod:`battles.table_talk`):
the feed the screen polls beside the view, chat lines and whispers, pings, and the portraits
of the combatants the caller can see. None of these change the battle's version."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apibase.numbers import int_query_param
from tables.api import check_body_size

from . import maps, selectors, table_talk
from .serializers import SquareField


class ChatInputSerializer(serializers.Serializer):
    text = serializers.CharField(
        max_length=table_talk.CHAT_MAX_LENGTH,
        allow_blank=True,
        trim_whitespace=True,
        error_messages={
            "max_length": f"At most {table_talk.CHAT_MAX_LENGTH} characters.",
            "required": "Write something first.",
        },
    )
    whisper_to = serializers.CharField(
        max_length=20,
        required=False,
        allow_blank=True,
        default="",
        help_text='Empty: everyone; "gm": the GMs (players); a player\'s user id (GMs).',
    )


class PingInputSerializer(serializers.Serializer):
    square = SquareField()


class ChatLineSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    author = serializers.CharField()
    author_id = serializers.IntegerField()
    gm = serializers.BooleanField()
    text = serializers.CharField()
    whisper = serializers.CharField(allow_null=True, help_text='"to the GM", "to Alice".')
    recipient_id = serializers.IntegerField(
        allow_null=True, help_text="The player a GM whispered to (null otherwise)."
    )
    version = serializers.IntegerField(help_text="The battle's version when it was said.")
    at = serializers.CharField()


class PingSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    square = serializers.ListField(child=serializers.IntegerField())
    author = serializers.CharField()
    mine = serializers.BooleanField()


class TableFeedSerializer(serializers.Serializer):
    chat = ChatLineSerializer(many=True)
    chat_older = serializers.BooleanField(help_text="Older lines exist (ask chat_before).")
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
            access=access,
            chat_after=int_query_param(request, "chat_after", None),
            chat_before=int_query_param(request, "chat_before", None),
            pings_after=int_query_param(request, "pings_after", 0) or 0,
        )
        feed["map"] = maps.map_payload_of(battle.map_id)
        response = Response(feed)
        response["Cache-Control"] = "no-store"
        return response


class BattleChatView(APIView):
    """Say something at the table (members): ``{"text", "whisper_to"}``; **201** the line."""

    @extend_schema(request=ChatInputSerializer, responses={201: ChatLineSerializer})
    def post(self, request: Request, pk: int) -> Response:
        check_body_size(request)
        battle, access = selectors.battle_for(request.user, pk)
        serializer = ChatInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data: dict[str, Any] = serializer.validated_data
        line = table_talk.chat_send(
            battle=battle,
            access=access,
            author=request.user,
            text=data["text"],
            whisper_to=data.get("whisper_to") or "",
        )
        names = table_talk.member_names(battle.campaign_id)
        return Response(table_talk.chat_json(line, names), status=status.HTTP_201_CREATED)


class BattlePingView(APIView):
    """Point at a square for everyone at the table (members): ``{"square": [x, y]}``."""

    @extend_schema(request=PingInputSerializer, responses={201: PingSerializer})
    def post(self, request: Request, pk: int) -> Response:
        check_body_size(request)
        battle, access = selectors.battle_for(request.user, pk)
        serializer = PingInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        x, y = serializer.validated_data["square"]
        ping = table_talk.ping_place(battle=battle, access=access, author=request.user, x=x, y=y)
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
        view = selectors.battle_view(battle_id=battle.pk, user=request.user, since=None).data
        visible = set((view or {}).get("combatants", {}))
        return Response(table_talk.portraits(battle=battle, visible=visible))
