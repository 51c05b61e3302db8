"""Generic API views for any game table: the view and cheap poll, sending an action, the log.

A game mounts them with :func:`table_api_urls` (one line in its ``urls.py``); the browser
client ``static/js/table-client.js`` speaks to exactly these:

* ``GET  <prefix>/<id>/state/?since=<version>`` - the table as you may see it (your seat's
  view, whom it waits on, your legal actions, the summary); **204** with no body while it is
  still at ``since`` (one version query).
* ``POST <prefix>/<id>/actions/`` ``{"action": {...}, "expected_version": n}`` - **201** with
  the new version and your view; **409** when someone moved first (nothing changed: reload);
  **400** with field errors for a malformed action or one the rules refuse; **413** for a
  body over :data:`MAX_BODY_BYTES`.
* ``GET  <prefix>/<id>/log/?after=<n>&limit=<m>`` - the log, oldest first, with only the
  events your seat may see; ``next_after`` pages on.
* ``GET/POST <prefix>/<id>/clock/`` - the turn clock; its host or GM pauses and resumes it
  (:mod:`tables.clocks.api`).
* ``GET/POST <prefix>/<id>/undo/`` - undo requests: ask to take back your last move, approve,
  refuse, withdraw (:mod:`tables.undo.api`).
* ``<prefix>/<id>/chat/`` and below - the table's chat (:mod:`tables.chat.api`).
* ``GET  <prefix>/<id>/replay/?step=<n>&moves_after=<k>&limit=<m>`` - the game rebuilt by its
  engine from the log (:mod:`tables.replay`): step ``n`` (default: the last) as your seat saw
  it, the number of steps and a page of the move list in words; **400** for a step the
  replay does not have.

Errors have the project's one shape (``config/api_errors.py``), which maps the core's
:class:`~tables.errors.StaleVersion` to 409 for every table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final, cast

from django.urls import URLPattern, path
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apibase import serializers
from apibase.numbers import int_query_param

from . import replay, selectors, services
from .clocks import api as clock_api
from .errors import BodyTooLarge
from .models import GameTable
from .poll_auth import PollSessionAuthentication, PollTokenAuthentication, table_head
from .registry import TableGame, game_for, game_of, games_of
from .undo import api as undo_api

#: The largest request body a table accepts: an action is a type and a few small fields.
MAX_BODY_BYTES: Final = 16 * 1024


class TableActionInputSerializer(serializers.Serializer[Any]):
    action = serializers.JSONField(help_text="The action: a type and its fields.")
    expected_version = serializers.IntegerField(
        min_value=0, help_text="The version your view showed; a stale one answers 409."
    )


class TableStateSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    seat = serializers.JSONField(allow_null=True)
    view = serializers.JSONField()
    waiting_on = serializers.JSONField()
    legal_actions = serializers.JSONField()
    summary = serializers.CharField()
    finished = serializers.BooleanField()
    result = serializers.JSONField(allow_null=True)
    clock = clock_api.ClockSerializer(allow_null=True, help_text="The turn clock (none: null).")


class TableLogSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    results = serializers.JSONField()
    next_after = serializers.IntegerField(allow_null=True)


class ReplayMoveSerializer(serializers.Serializer[Any]):
    n = serializers.IntegerField(help_text="The step this move leads to.")
    words = serializers.CharField(help_text="The move as your seat saw it, in words.")


class TableReplaySerializer(serializers.Serializer[Any]):
    step = serializers.IntegerField(help_text="The step shown: 0 is the start.")
    steps = serializers.IntegerField(help_text="How many moves the replay holds.")
    version = serializers.IntegerField()
    seat = serializers.JSONField(allow_null=True, help_text="Whose view it is (null: public).")
    finished = serializers.BooleanField(help_text="Whether the table has ended.")
    view = serializers.JSONField(help_text="The engine's view at this step, for your seat.")
    waiting_on = serializers.JSONField()
    summary = serializers.CharField()
    events = serializers.JSONField(help_text="What you may see of this step's move.")
    move = ReplayMoveSerializer(allow_null=True, help_text="This step's move (null at 0).")
    result = serializers.JSONField(allow_null=True, help_text="The result, once the game ends.")
    moves = ReplayMoveSerializer(many=True, help_text="A page of the move list.")
    next_after = serializers.IntegerField(allow_null=True)


class StaleSerializer(serializers.Serializer[Any]):
    detail = serializers.CharField()
    version = serializers.IntegerField()


def check_body_size(request: Request, limit: int = MAX_BODY_BYTES) -> None:
    """Refuse a body over ``limit`` before anything parses it (the header first, then the
    bytes actually sent, so a missing or lying Content-Length does not get past)."""
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    if declared > limit:
        raise BodyTooLarge(limit)
    if len(request._request.body) > limit:
        raise BodyTooLarge(limit)


class TableAPIView(APIView):
    """A view bound to one game (``as_view(game_slug=...)``), or to every game of one model
    (``table_model``: the row read names the game, :func:`tables.registry.game_of`)."""

    game_slug: ClassVar[str] = ""
    table_model: ClassVar[type[GameTable] | None] = None

    @property
    def game(self) -> TableGame:
        if self.table_model is not None:
            return games_of(self.table_model)[0]
        return game_for(self.game_slug)


class TableStateView(TableAPIView):
    """The table as you may see it: your seat's view, whom it waits on, your legal actions and
    the summary. ``?since=<version>`` answers **204** with no body while nothing changed."""

    #: pages poll it: counted in the API's poll scope (apibase.throttles.POLL_SCOPE)
    live_reads = True
    #: the table model's label, for the signed-in poll's one script (tables.poll_session)
    poll_label: ClassVar[str] = ""

    @extend_schema(
        parameters=[
            OpenApiParameter("since", int, description="The version you have; unchanged: 204.")
        ],
        responses={200: TableStateSerializer, 204: None},
    )
    def get(self, request: Request, pk: int) -> Response:
        since = int_query_param(request, "since", None)
        result = selectors.table_view(
            self.game, table_id=pk, user=request.user, since=since, head=table_head(request)
        )
        if result.data is None:
            response = Response(status=status.HTTP_204_NO_CONTENT)
        else:
            response = Response(result.data)
        # the version the answer is at, even with no body; never kept by a cache on the way
        response["X-Table-Version"] = str(result.version)
        response["Cache-Control"] = "no-store"
        return response


class TableActionView(TableAPIView):
    """Play one action: ``{"action": {...}, "expected_version": n}``. **201** with the new
    state; **409** when someone moved first (nothing changed: reload); **400** for an action
    this game does not take or the rules refuse; **413** for a body over 16 kB."""

    @extend_schema(
        request=TableActionInputSerializer,
        responses={201: TableStateSerializer, 409: StaleSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        check_body_size(request)
        serializer = TableActionInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        game, pk, row = self.game, selectors.table_pk(self.game, pk), None
        action = serializer.validated_data["action"]
        expected = serializer.validated_data["expected_version"]
        if game.hooks.move is not None:  # the game's own service, which takes the core's move path
            table, state, seat = game.hooks.move(
                actor=request.user, table_id=pk, action=action, expected_version=expected
            )
        else:
            if self.table_model is not None:  # the row names its game: read once, for the move
                row = services.table_read(game, pk, request.user)
                game = game_of(row)
            table, state, seat = services.table_action_apply(
                game,
                table_id=pk,
                actor=request.user,
                action=action,
                expected_version=expected,
                row=row,
            )
        # the answer from the move's row and state in memory: nothing is read back
        answer = selectors.view_payload(game, table, request.user, seat, state, since=expected)
        return Response(answer, status=status.HTTP_201_CREATED)


class TableLogView(TableAPIView):
    """The log, oldest first, with only the events your seat may see: ``?after=<n>&limit=<m>``
    (default 50, at most 200); ``next_after`` pages on."""

    @extend_schema(
        parameters=[
            OpenApiParameter("after", int, description="Entries after this version."),
            OpenApiParameter("limit", int, description="At most this many (1-200)."),
        ],
        responses=TableLogSerializer,
    )
    def get(self, request: Request, pk: int) -> Response:
        after = int_query_param(request, "after", 0) or 0
        limit = int_query_param(request, "limit", selectors.LOG_PAGE) or selectors.LOG_PAGE
        return Response(
            selectors.table_log(self.game, table_id=pk, user=request.user, after=after, limit=limit)
        )


class TableClockView(TableAPIView):
    """The table's turn clock (``GET``), paused or resumed by its host or GM (``POST``
    ``{"paused": true}``): **403** for anyone else, **400** for a table without a clock."""

    @extend_schema(responses={200: clock_api.ClockAnswerSerializer})
    def get(self, request: Request, pk: int) -> Response:
        return clock_api.clock_get(self.game, request, pk)

    @extend_schema(
        request=clock_api.ClockPauseSerializer, responses={200: clock_api.ClockAnswerSerializer}
    )
    def post(self, request: Request, pk: int) -> Response:
        return clock_api.clock_post(self.game, request, pk)


class TableUndoView(TableAPIView):
    """Undo requests (``GET``: the waiting one and whether you may ask; ``POST``
    ``{"decision": "ask" | "approve" | "refuse" | "withdraw"}``): **400** in words for a
    move that may not be taken back, **403** for who may not decide."""

    @extend_schema(responses={200: undo_api.UndoStateSerializer})
    def get(self, request: Request, pk: int) -> Response:
        return undo_api.undo_get(self.game, request, pk)

    @extend_schema(
        request=undo_api.UndoDecisionSerializer,
        responses={200: undo_api.UndoStateSerializer, 201: undo_api.UndoStateSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        return undo_api.undo_post(self.game, request, pk)


#: Endpoints every table has beside state, actions and log (their schemas are their own).
EXTRA_VIEWS: list[tuple[str, type[TableAPIView]]] = [
    ("clock", TableClockView),
    ("undo", TableUndoView),
]


_REPLAY: Final = [
    OpenApiParameter(
        "step", int, description="The step to show (0: the start; default: the last)."
    ),
    OpenApiParameter("moves_after", int, description="The move list from after this move."),
    OpenApiParameter("limit", int, description="At most this many moves (1-500)."),
]


class TableReplayView(TableAPIView):
    """The game watched again: ``?step=<n>`` (default: the last) as your seat saw it, rebuilt
    by the engine from the log, with the number of steps and a page of the move list in words
    (``moves_after``, ``limit``: default 100, at most 500). **400** for a step it does not
    have or a game not started."""

    @extend_schema(parameters=_REPLAY, responses=TableReplaySerializer)
    def get(self, request: Request, pk: int) -> Response:
        step = int_query_param(request, "step", None)
        moves_after = int_query_param(request, "moves_after", 0) or 0
        limit = int_query_param(request, "limit", replay.MOVES_PAGE) or replay.MOVES_PAGE
        return Response(
            replay.table_replay_step(
                self.game,
                table_id=pk,
                user=request.user,
                step=step,
                moves_after=moves_after,
                limit=limit,
            )
        )


def table_api_urls(
    slug: str,
    prefix: str,
    *,
    model: type[GameTable] | None = None,
    schemas: Mapping[str, Any] | None = None,
) -> list[URLPattern]:
    """The table endpoints of game ``slug`` under ``<prefix>/<id>/`` (named
    ``api-<slug>-state``, ``api-<slug>-actions``, ``api-<slug>-log``, ``api-<slug>-replay``).

    ``model``: the endpoints serve every registered game of that model (the row read names
    the game; ``slug`` then only names the routes: the tavern's four games are ``tavern``).
    ``schemas``: the game's own answer shapes for the OpenAPI schema (``state``, ``log``,
    ``stale``), when its ``payload`` answers more than the core's."""
    shapes = dict(schemas or {})
    state = shapes.get("state", TableStateSerializer)
    views: list[tuple[str, type[TableAPIView], str, dict[str, Any]]] = [
        (
            "state",
            TableStateView,
            "get",
            {"parameters": [_SINCE], "responses": {200: state, 204: None}},
        ),
        (
            "actions",
            TableActionView,
            "post",
            {
                "request": TableActionInputSerializer,
                "responses": {201: state, 409: shapes.get("stale", StaleSerializer)},
            },
        ),
        (
            "log",
            TableLogView,
            "get",
            {"parameters": _PAGE, "responses": {200: shapes.get("log", TableLogSerializer)}},
        ),
        (
            "replay",
            TableReplayView,
            "get",
            {"parameters": _REPLAY, "responses": {200: TableReplaySerializer}},
        ),
    ]
    # the poll's token, the table's head and the user's grant read in one round trip
    table_model = model if model is not None else game_for(slug).table_model
    poll_auth = type(
        f"{slug.title()}PollAuthentication",
        (PollTokenAuthentication,),
        {"table_label": table_model._meta.label_lower},
    )
    patterns = []
    for name, view, method, schema in views:
        attrs: dict[str, Any] = {"game_slug": slug, "table_model": model}
        if view is TableStateView:
            attrs["authentication_classes"] = [poll_auth, PollSessionAuthentication]
            attrs["poll_label"] = table_model._meta.label_lower  # tables.poll_session
        if schemas:
            attrs[method] = extend_schema(**schema)(_same(getattr(view, method)))
        bound = cast(type[TableAPIView], type(f"{slug.title()}{view.__name__}", (view,), attrs))
        patterns.append(
            path(f"{prefix}/<int:pk>/{name}/", bound.as_view(), name=f"api-{slug}-{name}")
        )
    for name, extra in EXTRA_VIEWS:
        bound = cast(
            type[TableAPIView],
            type(
                f"{slug.title()}{extra.__name__}",
                (extra,),
                {"game_slug": slug, "table_model": model},
            ),
        )
        patterns.append(
            path(f"{prefix}/<int:pk>/{name}/", bound.as_view(), name=f"api-{slug}-{name}")
        )
    from .chat.api import chat_api_urls  # the chat's views import this module's helpers

    return patterns + chat_api_urls(slug, prefix, model=model)


_SINCE: Final = OpenApiParameter("since", int, description="The version you have; unchanged: 204.")
_PAGE: Final = [
    OpenApiParameter("after", int, description="Entries after this version."),
    OpenApiParameter("limit", int, description="At most this many (1-200)."),
]


def _same(method: Any) -> Any:
    """A new function doing what ``method`` does (its schema to be described anew)."""

    def same(self: TableAPIView, request: Request, pk: int) -> Response:
        return cast(Response, method(self, request, pk))

    same.__doc__ = method.__doc__
    return same
