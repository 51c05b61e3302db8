"""REST API for battles. Every answer about the game is ``engine.view`` (or legal actions)
for the caller; permissions come from :mod:`campaign.permissions` (outsiders 404, players 403
for GM-only things and for combatants that are not theirs); a stale move is a 409 with the
current version (config/api_errors.py answers it for every game table); the engine's refusal
is a 400 naming the reason.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apibase.numbers import int_query_param
from campaign.permissions import campaign_for
from tables.api import check_body_size
from tables.poll_auth import PollTokenAuthentication, table_head

from . import selectors, services
from .models import Battle
from .serializers import (
    ActionInputSerializer,
    BattleCreateSerializer,
    BattleDetailSerializer,
    BattleSerializer,
    BattleUpdateSerializer,
    BattleViewSerializer,
    ChangeResultSerializer,
    CombatantSerializer,
    CombatantUpdateSerializer,
    LegalActionsSerializer,
    LogPageSerializer,
    PlaceInputSerializer,
    SquareInputSerializer,
    StaleSerializer,
    npc_spec,
)

STALE = OpenApiResponse(StaleSerializer, description="Someone else moved first (stale version).")


def _changed(result: services.Applied, since: int, code: int = status.HTTP_200_OK) -> Response:
    """A write's answer: the new version and the view for the writer (log after ``since``)."""
    view = selectors.view_of(result.state, result.player, since=since, map_id=result.battle.map_id)
    return Response({"version": result.state.version, "view": view}, status=code)


class CampaignBattleListView(APIView):
    """A campaign's battles (members); GMs create one (POST): an empty arena in setup."""

    @extend_schema(responses=BattleSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        _, access = campaign_for(request.user, pk)
        return Response(BattleSerializer(selectors.battles_of(access), many=True).data)

    @extend_schema(request=BattleCreateSerializer, responses={201: BattleSerializer})
    def post(self, request: Request, pk: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        serializer = BattleCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        battle = services.battle_create(
            campaign=campaign, by=access, created_by=request.user, **serializer.validated_data
        )
        return Response(BattleSerializer(battle).data, status=status.HTTP_201_CREATED)


class BattleDetailView(APIView):
    """One battle with ``view``: the battle as you may see it. GMs rename it or resize the
    arena while setting up (PATCH), or delete a battle that never started (DELETE)."""

    @extend_schema(responses=BattleDetailSerializer)
    def get(self, request: Request, pk: int) -> Response:
        battle, _ = selectors.battle_for(request.user, pk)
        data = dict(BattleSerializer(battle).data)
        data["view"] = selectors.battle_view(
            battle_id=battle.pk, user=request.user, since=None
        ).data
        return Response(data)

    @extend_schema(
        request=BattleUpdateSerializer, responses={200: ChangeResultSerializer, 409: STALE}
    )
    def patch(self, request: Request, pk: int) -> Response:
        selectors.battle_for(request.user, pk, manage=True)
        serializer = BattleUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        result = services.battle_setup_update(
            battle_id=pk, by=request.user, **serializer.validated_data
        )
        return _changed(result, result.state.version)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int) -> Response:
        selectors.battle_for(request.user, pk, manage=True)
        services.battle_delete(battle_id=pk, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class _BattlePollAuthentication(PollTokenAuthentication):
    table_label = Battle._meta.label_lower


class BattleViewView(APIView):
    """The live view, for polling: ``?since=<version>`` answers **204** with no body while
    the battle is still at that version (from Redis: the token, the battle's head and the
    viewer's role in one round trip; else one version query), else the view with the log
    entries after it."""

    #: pages poll it: counted in the API's poll scope (apibase.throttles.POLL_SCOPE)
    live_reads = True

    authentication_classes = [_BattlePollAuthentication, SessionAuthentication]
    # the view comes from the cache already encoded: the API's default renderer sends it as
    # it is (apibase/renderers.py)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "since", int, description="The version you have; unchanged answers 204."
            )
        ],
        responses={200: BattleViewSerializer, 204: OpenApiResponse(description="Unchanged.")},
    )
    def get(self, request: Request, pk: int) -> Response:
        since = int_query_param(request, "since", None)
        result = selectors.battle_view(
            battle_id=pk, user=request.user, since=since, head=table_head(request), rendered=True
        )
        if result.data is None:
            response = Response(status=status.HTTP_204_NO_CONTENT)
        else:
            response = Response(result.data)
        response["X-Battle-Version"] = str(result.version)
        response["Cache-Control"] = "no-store"
        return response


class BattleLegalActionsView(APIView):
    """What you may do now: action templates with the choices to fill in (reachable
    squares, targets, a card's target squares and AOE shape). GM overrides are not listed."""

    @extend_schema(responses=LegalActionsSerializer)
    def get(self, request: Request, pk: int) -> Response:
        result = selectors.battle_legal_actions(battle_id=pk, user=request.user)
        assert result.data is not None  # noqa: S101 - always computed
        return Response({"version": result.version, "player": result.player, **result.data})


class BattleActionView(APIView):
    """Apply one action: ``{"action": {...}, "expected_version": n}``. **201** with the new
    version and your view; **409** when the battle moved on (someone else moved first:
    nothing changed, reload); **400** when the rules refuse it (``errors.action`` says why);
    **403** for a combatant that is not yours or a GM-only action."""

    @extend_schema(
        request=ActionInputSerializer,
        responses={201: ChangeResultSerializer, 409: STALE},
    )
    def post(self, request: Request, pk: int) -> Response:
        check_body_size(request)  # 413 before anything parses a giant body
        # The service checks access with the row it reads (one read of the row for both).
        serializer = ActionInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        expected = serializer.validated_data["expected_version"]
        result = services.battle_action_apply(
            battle_id=pk,
            actor=request.user,
            action=serializer.validated_data["action"],
            expected_version=expected,
        )
        return _changed(result, expected, status.HTTP_201_CREATED)


class BattleLogView(APIView):
    """The action log, oldest first, as you may see it: ``?after=<n>&limit=<m>`` (default
    50, at most 200); ``next_after`` pages on."""

    @extend_schema(
        parameters=[
            OpenApiParameter("after", int, description="Entries after this version."),
            OpenApiParameter("limit", int, description="At most this many (1–200)."),
        ],
        responses=LogPageSerializer,
    )
    def get(self, request: Request, pk: int) -> Response:
        after = int_query_param(request, "after", 0) or 0
        limit = int_query_param(request, "limit", selectors.LOG_PAGE) or selectors.LOG_PAGE
        return Response(
            selectors.battle_log(battle_id=pk, user=request.user, after=after, limit=limit)
        )


class BattleSquareView(APIView):
    """GMs, setup: make a square open, blocking or difficult."""

    @extend_schema(
        request=SquareInputSerializer, responses={200: ChangeResultSerializer, 409: STALE}
    )
    def post(self, request: Request, pk: int) -> Response:
        selectors.battle_for(request.user, pk, manage=True)
        serializer = SquareInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        result = services.battle_square_set(
            battle_id=pk, by=request.user, **serializer.validated_data
        )
        return _changed(result, result.state.version)


class BattleCombatantListView(APIView):
    """Who controls whom (members). GMs place a campaign character or an NPC (POST): in
    setup directly, in a running battle as a logged reinforcement (``gm_add_combatant``)."""

    @extend_schema(responses=CombatantSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        battle, access = selectors.battle_for(request.user, pk)
        rows = selectors.combatants_of(battle, access)
        return Response(CombatantSerializer(rows, many=True).data)

    @extend_schema(
        request=PlaceInputSerializer, responses={201: ChangeResultSerializer, 409: STALE}
    )
    def post(self, request: Request, pk: int) -> Response:
        battle, _ = selectors.battle_for(request.user, pk, manage=True)
        serializer = PlaceInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data: dict[str, Any] = serializer.validated_data
        common = {
            "battle_id": battle.pk,
            "by": request.user,
            "position": data.get("position"),
            "expected_version": data.get("expected_version"),
        }
        if "character" in data:
            result = services.battle_character_place(
                character_id=data["character"],
                side=data.get("side") or "heroes",
                controller=data["controller"],
                **common,
            )
        else:
            npc = npc_spec(data["npc"])
            result = services.battle_npc_place(
                npc=npc, side=data.get("side") or "enemies", **common
            )
        return _changed(result, battle.version, status.HTTP_201_CREATED)


class BattleCombatantView(APIView):
    """GMs, setup: move a piece (``position`` null: off the board) or change its side
    (PATCH), or take it out (DELETE). In a running battle use the ``gm_*`` actions."""

    @extend_schema(
        request=CombatantUpdateSerializer, responses={200: ChangeResultSerializer, 409: STALE}
    )
    def patch(self, request: Request, pk: int, combatant: str) -> Response:
        selectors.battle_for(request.user, pk, manage=True)
        serializer = CombatantUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        result = services.battle_combatant_update(
            battle_id=pk, by=request.user, combatant=combatant, **data
        )
        return _changed(result, result.state.version)

    @extend_schema(request=None, responses={200: ChangeResultSerializer, 409: STALE})
    def delete(self, request: Request, pk: int, combatant: str) -> Response:
        selectors.battle_for(request.user, pk, manage=True)
        version = int_query_param(request, "expected_version", None)
        result = services.battle_combatant_remove(
            battle_id=pk, by=request.user, combatant=combatant, expected_version=version
        )
        return _changed(result, result.state.version)
