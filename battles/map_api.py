"""REST API for the campaign's map library and a battle's map (``battles.maps``).

Members read the library (the image itself comes from ``battles:map-image``); GMs upload
(multipart, checked by content: PNG, JPEG or WebP, 8 MB at most: a 400 naming ``image``
otherwise), align, rename and delete maps, and lay one under a battle.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.typing import signed_in
from campaign.permissions import campaign_for
from tables.api import check_body_size

from . import maps, selectors
from .api import STALE, _changed
from .serializers import (
    BattleMapChoiceSerializer,
    BattleMapSerializer,
    ChangeResultSerializer,
    MapCreateSerializer,
    MapUpdateSerializer,
)

FIELD_ERRORS = OpenApiResponse(description="Field errors, e.g. {'image': ['…']}.")


class CampaignMapListView(APIView):
    """A campaign's maps (members); GMs upload one (POST, ``multipart/form-data``)."""

    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(responses=BattleMapSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        _, access = campaign_for(request.user, pk)
        return Response(BattleMapSerializer(maps.maps_of(access), many=True).data)

    @extend_schema(
        request={"multipart/form-data": MapCreateSerializer},
        responses={201: BattleMapSerializer, 400: FIELD_ERRORS},
    )
    def post(self, request: Request, pk: int) -> Response:
        campaign, _ = campaign_for(request.user, pk, manage=True)
        # The body is bounded by config.body_limit (MAX_REQUEST_BODY_BYTES, a 413); the file
        # streams to disk and an image over MAP_MAX_BYTES is a 400 naming ``image``.
        serializer = MapCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        name, image = data.pop("name"), data.pop("image")
        battle_map = maps.battle_map_create(
            campaign_id=campaign.pk, by=signed_in(request), name=name, image=image, alignment=data
        )
        return Response(BattleMapSerializer(battle_map).data, status=status.HTTP_201_CREATED)


class MapDetailView(APIView):
    """One map (members); GMs rename it or align its grid (PATCH) or delete it (DELETE:
    battles on it go back to a drawn grid)."""

    parser_classes = [JSONParser]

    @extend_schema(responses=BattleMapSerializer)
    def get(self, request: Request, pk: int) -> Response:
        battle_map, _ = maps.map_for(request.user, pk)
        return Response(BattleMapSerializer(battle_map).data)

    @extend_schema(
        request=MapUpdateSerializer, responses={200: BattleMapSerializer, 400: FIELD_ERRORS}
    )
    def patch(self, request: Request, pk: int) -> Response:
        check_body_size(request)
        maps.map_for(request.user, pk, manage=True)
        serializer = MapUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        name = data.pop("name", None)
        battle_map = maps.battle_map_update(
            map_id=pk, by=signed_in(request), name=name, alignment=data
        )
        return Response(BattleMapSerializer(battle_map).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int) -> Response:
        maps.battle_map_delete(map_id=pk, by=signed_in(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class BattleMapView(APIView):
    """GMs: lay a map of the campaign's library under this battle (``map`` null: a drawn
    grid). In setup the arena takes the map's squares per side; a running battle accepts only
    a map of its own size."""

    parser_classes = [JSONParser]

    @extend_schema(
        request=BattleMapChoiceSerializer,
        responses={200: ChangeResultSerializer, 400: FIELD_ERRORS, 409: STALE},
    )
    def put(self, request: Request, pk: int) -> Response:
        check_body_size(request)
        battle, _ = selectors.battle_for(request.user, pk, manage=True)
        serializer = BattleMapChoiceSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        result = maps.battle_map_set(
            battle_id=battle.pk,
            by=signed_in(request),
            map_id=serializer.validated_data["map"],
            expected_version=serializer.validated_data.get("expected_version"),
        )
        return _changed(result, result.state.version)
