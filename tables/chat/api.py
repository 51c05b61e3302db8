"""The chat endpoints of every game table, mounted under each game's table prefix by
:func:`tables.api.table_api_urls` (or :func:`chat_api_urls` alone):

* ``GET  <prefix>/<id>/chat/`` - the last page of lines you may read, what you may do and the
  table's setting; ``?after=<line>`` the lines since, ``?before=<line>`` the page before;
  ``?since=<stamp>`` answers **204** while nothing changed (the poll when no socket is open).
* ``POST <prefix>/<id>/chat/`` ``{"text", "whisper_to"}`` - **201** the line; **403** in words
  for a muted member or a spectator the host has not let talk; **429** when too fast.
* ``POST <prefix>/<id>/chat/reactions/`` ``{"line", "reaction", "on"}`` - **200** the line.
* ``POST <prefix>/<id>/chat/mutes/`` ``{"user", "muted"}`` - the host or a GM; **200**.
* ``PATCH <prefix>/<id>/chat/settings/`` ``{"spectators_may_chat"}`` - the host or a GM.

None of them changes the table's version: a line never makes anyone's move stale.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, cast

from django.urls import URLPattern, path
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.typing import signed_in
from apibase import serializers
from apibase.numbers import MAX_ID, int_query_param
from tables.models import GameTable
from tables.registry import TableGame, game_for, games_of

from . import selectors, services
from .rules import REACTIONS

#: The largest body a chat write accepts (a line is at most 500 characters).
MAX_BODY_BYTES: Final = 8 * 1024


class ChatInputSerializer(serializers.Serializer[Any]):
    text = serializers.CharField(
        max_length=4 * services.CHAT_MAX_LENGTH,
        allow_blank=True,
        trim_whitespace=False,
        error_messages={
            "max_length": f"At most {services.CHAT_MAX_LENGTH} characters.",
            "required": "Write something first.",
        },
        help_text=f"At most {services.CHAT_MAX_LENGTH} characters once spaces are folded.",
    )
    whisper_to = serializers.CharField(
        max_length=24,
        required=False,
        allow_blank=True,
        default="",
        help_text="Empty: everyone; else a key of you.whisper_to (the game's private talk).",
    )


class ReactionInputSerializer(serializers.Serializer[Any]):
    line = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="The line's id.")
    reaction = serializers.ChoiceField(
        choices=[(key, words) for key, _emoji, words in REACTIONS],
        error_messages={"invalid_choice": "Choose one of the table's reactions."},
    )
    on = serializers.BooleanField(default=True, help_text="false takes your reaction back.")


class MuteInputSerializer(serializers.Serializer[Any]):
    user = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, help_text="The user id of someone who spoke here."
    )
    muted = serializers.BooleanField(help_text="true mutes her, false lets her speak again.")


class ChatSettingsInputSerializer(serializers.Serializer[Any]):
    spectators_may_chat = serializers.BooleanField(
        help_text="Whether people watching, not playing, may say something."
    )


class ReactionSerializer(serializers.Serializer[Any]):
    reaction = serializers.CharField()
    emoji = serializers.CharField()
    words = serializers.CharField(help_text="The reaction in words, for screen readers.")
    count = serializers.IntegerField()
    mine = serializers.BooleanField()
    names = serializers.ListField(child=serializers.CharField())


class ChatLineSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    author = serializers.CharField()
    author_id = serializers.IntegerField()
    mine = serializers.BooleanField()
    gm = serializers.BooleanField(help_text="Said by a GM of the table.")
    spectator = serializers.BooleanField(help_text="Said by someone watching.")
    text = serializers.CharField()
    whisper = serializers.CharField(
        allow_null=True, help_text='A whisper, in words ("to the GMs", "to you"); null: public.'
    )
    recipient_id = serializers.IntegerField(allow_null=True)
    version = serializers.IntegerField(help_text="The table's version when it was said.")
    at = serializers.CharField()
    reactions = ReactionSerializer(many=True)


class WhisperTargetSerializer(serializers.Serializer[Any]):
    key = serializers.CharField(help_text="What whisper_to takes.")
    name = serializers.CharField()


class ChatYouSerializer(serializers.Serializer[Any]):
    may_send = serializers.BooleanField()
    why_not = serializers.CharField(help_text="Why you may not say anything (empty: you may).")
    moderator = serializers.BooleanField(help_text="You may mute and set spectators' chat.")
    spectator = serializers.BooleanField()
    whisper_to = WhisperTargetSerializer(many=True)


class ReactionChoiceSerializer(serializers.Serializer[Any]):
    reaction = serializers.CharField()
    emoji = serializers.CharField()
    words = serializers.CharField()


class MutedSerializer(serializers.Serializer[Any]):
    user_id = serializers.IntegerField()
    name = serializers.CharField()


class ChatPageSerializer(serializers.Serializer[Any]):
    stamp = serializers.IntegerField(help_text="Ask ?since=<stamp>: 204 until it changes.")
    results = ChatLineSerializer(many=True)
    older = serializers.BooleanField(help_text="Older lines exist (ask ?before=<first id>).")
    you = ChatYouSerializer()
    spectators_may_chat = serializers.BooleanField()
    reactions = ReactionChoiceSerializer(many=True)
    muted = MutedSerializer(many=True, help_text="Who is muted (for the host or a GM only).")


class ChatSettingsSerializer(serializers.Serializer[Any]):
    spectators_may_chat = serializers.BooleanField()
    muted = MutedSerializer(many=True)


class ChatAPIView(APIView):
    """A chat view bound to one game, or to every game of one model (as the core's)."""

    game_slug: ClassVar[str] = ""
    table_model: ClassVar[type[GameTable] | None] = None

    @property
    def game(self) -> TableGame:
        if self.table_model is not None:
            return games_of(self.table_model)[0]
        return game_for(self.game_slug)

    def _body(self, request: Request, serializer: type[Any]) -> dict[str, Any]:
        from tables.api import check_body_size

        check_body_size(request, MAX_BODY_BYTES)
        found = serializer(data=request.data)
        found.is_valid(raise_exception=True)
        return dict(found.validated_data)


class ChatView(ChatAPIView):
    """The table's chat: the lines you may read and what you may do (GET), or say a line."""

    #: pages poll it while no socket is open: the API's poll scope
    live_reads = True

    @extend_schema(
        parameters=[
            OpenApiParameter("after", int, description="Lines after this id (new ones)."),
            OpenApiParameter("before", int, description="The page before this id."),
            OpenApiParameter("since", int, description="The stamp you have; unchanged: 204."),
        ],
        responses={200: ChatPageSerializer, 204: None},
    )
    def get(self, request: Request, pk: int) -> Response:
        page = selectors.chat_page(
            self.game,
            table_id=pk,
            user=request.user,
            after=int_query_param(request, "after", None),
            before=int_query_param(request, "before", None),
            since=int_query_param(request, "since", None),
        )
        if page is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        response = Response(page)
        response["Cache-Control"] = "no-store"
        return response

    @extend_schema(request=ChatInputSerializer, responses={201: ChatLineSerializer})
    def post(self, request: Request, pk: int) -> Response:
        data = self._body(request, ChatInputSerializer)
        user = signed_in(request)
        line = services.chat_send(
            self.game, table_id=pk, user=user, text=data["text"], whisper_to=data["whisper_to"]
        )
        line.author = user
        return Response(selectors.lines_json([line], user.pk)[0], status=status.HTTP_201_CREATED)


class ChatReactionView(ChatAPIView):
    """React to a line you may read, or take your reaction back."""

    @extend_schema(request=ReactionInputSerializer, responses={200: ChatLineSerializer})
    def post(self, request: Request, pk: int) -> Response:
        data = self._body(request, ReactionInputSerializer)
        user = signed_in(request)
        line = services.chat_react(
            self.game,
            table_id=pk,
            user=user,
            line_id=data["line"],
            reaction=data["reaction"],
            on=data["on"],
        )
        return Response(selectors.lines_json([line], user.pk)[0])


def _settings(room: Any) -> dict[str, Any]:
    from .models import ChatMute

    return {
        "spectators_may_chat": room.spectators_may_chat,
        "muted": [
            {"user_id": m.user_id, "name": m.user.shown_name}
            for m in ChatMute.objects.filter(room=room).select_related("user").order_by("pk")
        ],
    }


class ChatMuteView(ChatAPIView):
    """The host (a GM at a battle) mutes someone at the table, or lets her speak again."""

    @extend_schema(request=MuteInputSerializer, responses={200: ChatSettingsSerializer})
    def post(self, request: Request, pk: int) -> Response:
        data = self._body(request, MuteInputSerializer)
        room = services.chat_mute(
            self.game, table_id=pk, by=signed_in(request), user_id=data["user"], muted=data["muted"]
        )
        return Response(_settings(room))


class ChatSettingsView(ChatAPIView):
    """The host (a GM at a battle) lets spectators chat at the table, or stops them."""

    @extend_schema(request=ChatSettingsInputSerializer, responses={200: ChatSettingsSerializer})
    def patch(self, request: Request, pk: int) -> Response:
        data = self._body(request, ChatSettingsInputSerializer)
        room = services.chat_settings(
            self.game,
            table_id=pk,
            by=signed_in(request),
            spectators_may_chat=data["spectators_may_chat"],
        )
        return Response(_settings(room))


def chat_api_urls(
    slug: str, prefix: str, *, model: type[GameTable] | None = None
) -> list[URLPattern]:
    """The chat endpoints of game ``slug`` under ``<prefix>/<id>/chat/`` (named
    ``api-<slug>-chat``, ``-chat-reactions``, ``-chat-mutes``, ``-chat-settings``); ``model``
    as in :func:`tables.api.table_api_urls`."""
    views: list[tuple[str, str, type[ChatAPIView]]] = [
        ("chat/", "chat", ChatView),
        ("chat/reactions/", "chat-reactions", ChatReactionView),
        ("chat/mutes/", "chat-mutes", ChatMuteView),
        ("chat/settings/", "chat-settings", ChatSettingsView),
    ]
    patterns = []
    for tail, name, view in views:
        attrs = {"game_slug": slug, "table_model": model}
        bound = cast(
            type[ChatAPIView],
            type(f"{slug.title().replace('_', '')}{view.__name__}", (view,), attrs),
        )
        patterns.append(
            path(f"{prefix}/<int:pk>/{tail}", bound.as_view(), name=f"api-{slug}-{name}")
        )
    return patterns
