"""API: awards, level-ups, the party quick actions (heal, status), the timeline and the GM
dashboard's state (with an ETag: an unchanged dashboard answers 304)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.typing import signed_in
from apibase.numbers import whole_number
from campaign.models import Campaign
from campaign.permissions import campaign_for
from campaign.registry import timeline_sources
from characters import party as character_party
from characters.models import Character

from .. import awards, party
from ..dashboard_state import dashboard_data, dashboard_state, dashboard_version, party_row_for
from ..models import LevelUp
from ..timeline import PER_PAGE, timeline_page
from .play import session_in
from .serializers import (
    AwardInputSerializer,
    AwardSerializer,
    DashboardSerializer,
    HealInputSerializer,
    LevelUpInputSerializer,
    LevelUpSerializer,
    PartyRowSerializer,
    StatusInputSerializer,
    TimelinePageSerializer,
)


def _characters(campaign: Campaign, ids: list[int], field: str = "characters") -> list[Any]:
    """The campaign's characters with these ids; any other id is a 400 on ``field``."""
    found = list(Character.objects.filter(campaign=campaign, pk__in=ids).order_by("pk"))
    missing = sorted(set(ids) - {c.pk for c in found})
    if missing:
        raise ValidationError(
            {
                field: [
                    gettext("Not characters of this campaign: %(ids)s.")
                    % {"ids": ", ".join(map(str, missing))}
                ]
            }
        )
    return found


class AwardListView(APIView):
    """A campaign's awards (members: loot is public at the table); GMs award (POST): yen
    and/or items per character, all or nothing, and the campaign hears ``loot_awarded``."""

    @extend_schema(responses=AwardSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        campaign, _ = campaign_for(request.user, pk)
        return Response(AwardSerializer(awards.awards_of(campaign.pk), many=True).data)

    @extend_schema(request=AwardInputSerializer, responses={201: AwardSerializer})
    def post(self, request: Request, pk: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        serializer = AwardInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        award = awards.award_grant(
            campaign=campaign,
            by=access,
            awarded_by=signed_in(request),
            characters=_characters(campaign, data["characters"]),
            yen=data["yen"],
            items=data["items"],
            reason=data["reason"],
            session=session_in(campaign, data.get("session")),
        )
        award = awards.awards_of(campaign.pk).get(pk=award.pk)
        return Response(AwardSerializer(award).data, status=status.HTTP_201_CREATED)


class LevelUpListView(APIView):
    """Level-ups raised in the campaign (members); GMs raise one (POST)."""

    @extend_schema(responses=LevelUpSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        campaign, _ = campaign_for(request.user, pk)
        level_ups = LevelUp.objects.filter(campaign=campaign).select_related("raised_by")
        return Response(LevelUpSerializer(level_ups, many=True).data)

    @extend_schema(request=LevelUpInputSerializer, responses={201: LevelUpSerializer})
    def post(self, request: Request, pk: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        serializer = LevelUpInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        (character,) = _characters(campaign, [data["character"]], "character")
        level_up = party.level_up_grant(
            character=character, by=access, raised_by=signed_in(request), levels=data["levels"]
        )
        return Response(LevelUpSerializer(level_up).data, status=status.HTTP_201_CREATED)


class HealView(APIView):
    """GMs heal a character (``amount`` HP, or fully); answers the character's party row."""

    @extend_schema(request=HealInputSerializer, responses=PartyRowSerializer)
    def post(self, request: Request, pk: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        serializer = HealInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        (character,) = _characters(campaign, [data["character"]], "character")
        character_party.character_heal(character=character, by=access, amount=data.get("amount"))
        return Response(party_row_for(campaign, character.pk))


class StatusView(APIView):
    """GMs apply (or clear) a catalog status effect; answers the character's party row."""

    @extend_schema(request=StatusInputSerializer, responses=PartyRowSerializer)
    def post(self, request: Request, pk: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        serializer = StatusInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        (character,) = _characters(campaign, [data["character"]], "character")
        act = (
            character_party.character_status_clear
            if data["action"] == "clear"
            else (character_party.character_status_apply)
        )
        act(character=character, by=access, status=data["status"])
        return Response(party_row_for(campaign, character.pk))


class TimelineView(APIView):
    """Everything that happened, newest first, as you may see it (``page`` from 1, 25 a page;
    ``kind`` to show one kind: session, award, level_up, roll, handout, and what later apps add)."""

    @extend_schema(
        parameters=[
            OpenApiParameter("page", int, description="Page number, from 1"),
            OpenApiParameter("kind", str, description="Only entries of this kind"),
        ],
        responses=TimelinePageSerializer,
    )
    def get(self, request: Request, pk: int) -> Response:
        _, access = campaign_for(request.user, pk)
        page_number = whole_number(request.query_params.get("page", "1"))
        if page_number is None or page_number < 1:
            raise ValidationError({"page": [gettext("A page number from 1.")]})
        kind = request.query_params.get("kind") or None
        if kind is not None and kind not in timeline_sources():
            choices = ", ".join(sorted(timeline_sources()))
            raise ValidationError(
                {"kind": [gettext("One of: %(choices)s.") % {"choices": choices}]}
            )
        page = timeline_page(access, page=page_number, kinds={kind} if kind else None)
        return Response(
            {
                "page": page.page,
                "per_page": PER_PAGE,
                "has_next": page.has_next,
                "results": [e.to_dict() for e in page.entries],
            }
        )


class DashboardView(APIView):
    """The GM dashboard's state (GMs only). Send the last ``ETag`` as ``If-None-Match``: an
    unchanged dashboard answers 304 after one cheap query."""

    @extend_schema(responses=DashboardSerializer)
    def get(self, request: Request, pk: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        version = dashboard_version(campaign, access)
        if version in request.headers.get("If-None-Match", ""):
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
        else:
            data = dashboard_data(dashboard_state(campaign, access))
            response = Response({"version": version, **data})
        response["ETag"] = version
        response["Cache-Control"] = "private, no-cache"
        return response
