"""REST API for what is truly a battle's: a campaign's battles, setting up the arena and its
combatants, legal actions. The view, its poll, moves and the log are the table core's
(``tables.api.table_api_urls``, mounted in ``battles/urls.py``), answered through the battle's
payload hook (:func:`battles.selectors.battle_payload`). Every answer about the game is
``engine.view`` (or legal actions) for the caller; permissions come from
:mod:`campaign.permissions` (outsiders 404, players 403 for GM-only things and for combatants
that are not theirs); a stale change is a 409 with the current version (config/api_errors.py
answers it for every game table); the engine's refusal is a 400 naming the reason.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.typing import signed_in
from apibase.numbers import int_query_param
from campaign.permissions import campaign_for

from . import selectors, services
from .serializers import (
    BattleCreateSerializer,
    BattleDetailSerializer,
    BattleSerializer,
    BattleUpdateSerializer,
    ChangeResultSerializer,
    CombatantSerializer,
    CombatantUpdateSerializer,
    LegalActionsSerializer,
    PlaceInputSerializer,
    SquareInputSerializer,
    StaleSerializer,
    npc_spec,
)
from .wiki_npcs import battle_wiki_npc_place

STALE = OpenApiResponse(StaleSerializer, description="Someone else moved first (stale version).")


def _changed(result: services.Applied, since: int, code: int = status.HTTP_200_OK) -> Response:
    """A write's answer, as a move's (the core's payload): the new version, the writer's
    engine player and her view (log after ``since``)."""
    answer = selectors.battle_payload(result.battle, None, result.player, result.state, since)
    return Response(answer, status=code)


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
            campaign=campaign, by=access, created_by=signed_in(request), **serializer.validated_data
        )
        return Response(BattleSerializer(battle).data, status=status.HTTP_201_CREATED)


class BattleDetailView(APIView):
    """One battle with ``view``: the battle as you may see it. GMs rename it or resize the
    arena while setting up (PATCH), or delete a battle that never started (DELETE)."""

    @extend_schema(responses=BattleDetailSerializer)
    def get(self, request: Request, pk: int) -> Response:
        battle, _ = selectors.battle_for(request.user, pk)
        data = dict(BattleSerializer(battle).data)
        data["view"] = selectors.battle_state(battle.pk, request.user)["view"]
        return Response(data)

    @extend_schema(
        request=BattleUpdateSerializer, responses={200: ChangeResultSerializer, 409: STALE}
    )
    def patch(self, request: Request, pk: int) -> Response:
        selectors.battle_for(request.user, pk, manage=True)
        serializer = BattleUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        result = services.battle_setup_update(
            battle_id=pk, by=signed_in(request), **serializer.validated_data
        )
        return _changed(result, result.state.version)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int) -> Response:
        selectors.battle_for(request.user, pk, manage=True)
        services.battle_delete(battle_id=pk, by=signed_in(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class BattleLegalActionsView(APIView):
    """What you may do now: action templates with the choices to fill in (reachable
    squares, targets, a card's target squares and AOE shape). GM overrides are not listed."""

    @extend_schema(responses=LegalActionsSerializer)
    def get(self, request: Request, pk: int) -> Response:
        result = selectors.battle_legal_actions(battle_id=pk, user=request.user)
        assert result.data is not None  # noqa: S101 - always computed
        return Response({"version": result.version, "player": result.player, **result.data})


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
            battle_id=pk, by=signed_in(request), **serializer.validated_data
        )
        return _changed(result, result.state.version)


class BattleCombatantListView(APIView):
    """Who controls whom (members). GMs place a campaign character, an NPC from typed-in
    numbers or an NPC of the campaign's wiki with a stat block (POST): in setup directly, in a
    running battle as a logged reinforcement (``gm_add_combatant``)."""

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
        common: dict[str, Any] = {  # the request's JSON, checked by PlaceInputSerializer
            "battle_id": battle.pk,
            "by": signed_in(request),
            "position": data.get("position"),
            "expected_version": data.get("expected_version"),
        }
        if "wiki_entry" in data:
            result = battle_wiki_npc_place(
                entry_id=data["wiki_entry"], side=data.get("side"), name=data.get("name"), **common
            )
        elif "character" in data:
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
            battle_id=pk, by=signed_in(request), combatant=combatant, **data
        )
        return _changed(result, result.state.version)

    @extend_schema(request=None, responses={200: ChangeResultSerializer, 409: STALE})
    def delete(self, request: Request, pk: int, combatant: str) -> Response:
        selectors.battle_for(request.user, pk, manage=True)
        version = int_query_param(request, "expected_version", None)
        result = services.battle_combatant_remove(
            battle_id=pk, by=signed_in(request), combatant=combatant, expected_version=version
        )
        return _changed(result, result.state.version)
