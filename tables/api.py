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

Errors have the project's one shape (``config/api_errors.py``), which maps the core's
:class:`~tables.errors.StaleVersion` to 409 for every table.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, cast

from django.urls import URLPattern, path
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apibase.numbers import int_query_param

from . import selectors, services
from .errors import BodyTooLarge
from .registry import TableGame, game_for

#: The largest request body a table accepts: an action is a type and a few small fields.
MAX_BODY_BYTES: Final = 16 * 1024


class ActionInputSerializer(serializers.Serializer):
    action = serializers.JSONField(help_text="The action: a type and its fields.")
    expected_version = serializers.IntegerField(
        min_value=0, help_text="The version your view showed; a stale one answers 409."
    )


class TableStateSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    seat = serializers.JSONField(allow_null=True)
    view = serializers.JSONField()
    waiting_on = serializers.JSONField()
    legal_actions = serializers.JSONField()
    summary = serializers.CharField()
    finished = serializers.BooleanField()
    result = serializers.JSONField(allow_null=True)


class TableLogSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    results = serializers.JSONField()
    next_after = serializers.IntegerField(allow_null=True)


class StaleSerializer(serializers.Serializer):
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


def state_payload(result: selectors.TableView) -> dict[str, Any]:
    return {"version": result.version, "seat": result.seat, **(result.data or {})}


class TableAPIView(APIView):
    """A view bound to one game (``as_view(game_slug=...)``)."""

    game_slug: ClassVar[str] = ""

    @property
    def game(self) -> TableGame:
        return game_for(self.game_slug)


class TableStateView(TableAPIView):
    """The table as you may see it: your seat's view, whom it waits on, your legal actions and
    the summary. ``?since=<version>`` answers **204** with no body while nothing changed."""

    #: pages poll it: counted in the API's poll scope (apibase.throttles.POLL_SCOPE)
    live_reads = True

    @extend_schema(
        parameters=[
            OpenApiParameter("since", int, description="The version you have; unchanged: 204.")
        ],
        responses={200: TableStateSerializer, 204: None},
    )
    def get(self, request: Request, pk: int) -> Response:
        since = int_query_param(request, "since", None)
        result = selectors.table_view(self.game, table_id=pk, user=request.user, since=since)
        if result.data is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(state_payload(result))


class TableActionView(TableAPIView):
    """Play one action: ``{"action": {...}, "expected_version": n}``. **201** with the new
    state; **409** when someone moved first (nothing changed: reload); **400** for an action
    this game does not take or the rules refuse; **413** for a body over 16 kB."""

    @extend_schema(
        request=ActionInputSerializer,
        responses={201: TableStateSerializer, 409: StaleSerializer},
    )
    def post(self, request: Request, pk: int) -> Response:
        check_body_size(request)
        serializer = ActionInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        table, _, _ = services.table_action_apply(
            self.game,
            table_id=selectors.table_pk(self.game, pk),
            actor=request.user,
            action=serializer.validated_data["action"],
            expected_version=serializer.validated_data["expected_version"],
        )
        result = selectors.table_view(self.game, table_id=table.pk, user=request.user)
        return Response(state_payload(result), status=status.HTTP_201_CREATED)


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


def table_api_urls(slug: str, prefix: str) -> list[URLPattern]:
    """The three table endpoints of game ``slug`` under ``<prefix>/<id>/`` (named
    ``api-<slug>-state``, ``api-<slug>-actions``, ``api-<slug>-log``)."""
    views: list[tuple[str, type[TableAPIView]]] = [
        ("state", TableStateView),
        ("actions", TableActionView),
        ("log", TableLogView),
    ]
    patterns = []
    for name, view in views:
        bound = cast(
            type[TableAPIView], type(f"{slug.title()}{view.__name__}", (view,), {"game_slug": slug})
        )
        patterns.append(
            path(f"{prefix}/<int:pk>/{name}/", bound.as_view(), name=f"api-{slug}-{name}")
        )
    return patterns
