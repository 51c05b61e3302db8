"""REST API for campaigns, the roll log, rolling and exact odds.

Every lookup goes through :mod:`campaign.permissions`: a campaign the caller is not in answers
404, exactly like the pages.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.typing import signed_in
from apibase.fields import body_id
from apibase.numbers import ID_PATTERN
from westernroses.house_rules import DEFAULT_HOUSE_RULES

from .. import selectors, services
from ..models import Campaign, Roll
from ..permissions import access_for, campaign_for
from ..registry import roll_checks
from .serializers import (
    CampaignSerializer,
    CampaignUpdateSerializer,
    DiceInputSerializer,
    MemberSerializer,
    OddsSerializer,
    RollInputSerializer,
    RollSerializer,
)


class CampaignViewSet(
    mixins.UpdateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet[Campaign],
):
    """Campaigns you are a member of. Creating one makes you its GM; GMs may PATCH it."""

    serializer_class = CampaignSerializer
    lookup_value_regex = ID_PATTERN  # ASCII digits: "1_0" or "٣" is no id
    http_method_names = ["get", "post", "patch", "head", "options"]

    def get_queryset(self) -> QuerySet[Campaign]:
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return Campaign.objects.none()
        return selectors.campaigns_for_user(signed_in(self.request)).order_by("name", "pk")

    def perform_create(self, serializer: Any) -> None:
        campaign = services.campaign_create(
            name=serializer.validated_data["name"],
            description=serializer.validated_data.get("description", ""),
            gm=signed_in(self.request),
        )
        campaign.my_role = "gm"  # type: ignore[attr-defined]  # as campaigns_for_user annotates
        serializer.instance = campaign

    @extend_schema(request=CampaignUpdateSerializer, responses=CampaignSerializer)
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        """GMs change the name, description or house rules (a partial map is merged)."""
        campaign, access = campaign_for(request.user, pk or "", manage=True)
        serializer = CampaignUpdateSerializer(data=request.data, context={"campaign": campaign})
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        services.campaign_update_settings(
            campaign=campaign,
            by=access,
            name=data.get("name"),
            description=data.get("description"),
            house_rules=data.get("house_rules"),
            reset_house_rules=data.get("reset_house_rules", False),
        )
        campaign.my_role = access.role  # type: ignore[attr-defined]  # as campaigns_for_user annotates
        return Response(CampaignSerializer(campaign).data)

    @extend_schema(responses=MemberSerializer(many=True))
    @action(detail=True, pagination_class=None)  # a party is small: the whole list, unpaged
    def members(self, request: Request, pk: str | None = None) -> Response:
        campaign, _ = campaign_for(request.user, pk or "")
        return Response(MemberSerializer(selectors.campaign_members(campaign), many=True).data)


class RollViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    viewsets.GenericViewSet[Roll],
):
    """The roll log, and rolling. ``?campaign=ID`` lists a campaign's log; without it, yours."""

    serializer_class = RollSerializer
    lookup_value_regex = ID_PATTERN  # ASCII digits: "1_0" or "٣" is no id

    def get_queryset(self) -> QuerySet[Roll]:
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return Roll.objects.none()
        campaign_id = self.request.query_params.get("campaign")
        if campaign_id is not None:  # given but empty names no campaign: 404, as "abc" does
            _, access = campaign_for(self.request.user, campaign_id)
            return selectors.rolls_visible_to(access)
        if self.action == "retrieve":
            return Roll.objects.select_related("user")
        return selectors.personal_rolls(signed_in(self.request))

    def get_object(self) -> Roll:
        roll = super().get_object()
        from django.http import Http404

        if roll.campaign_id is None:
            if roll.user_id != self.request.user.pk:
                raise Http404
        elif not access_for(self.request.user, roll.campaign_id).can_see_roll(roll):
            raise Http404
        return roll

    @extend_schema(
        parameters=[OpenApiParameter("campaign", int, description="A campaign's roll log")]
    )
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(request=RollInputSerializer, responses={201: RollSerializer})
    def create(self, request: Request) -> Response:
        """Roll dice (notation, or a stat's pool) against an optional target and log it."""
        campaign = None
        access = None
        rules = None
        data = request.data if hasattr(request.data, "get") else {}
        campaign_id = data.get("campaign")
        if campaign_id not in (None, ""):
            campaign, access = campaign_for(request.user, body_id("campaign", campaign_id))
            rules = campaign.rules()
        checks = {}
        if data.get("check"):
            checks = {c.value: c for c in roll_checks(request.user, access)}
        serializer = RollInputSerializer(
            data=request.data, context={"rules": rules, "checks": checks}
        )
        serializer.is_valid(raise_exception=True)
        chosen = serializer.validated_data.get("chosen_check")
        label = serializer.validated_data.get("label", "")
        hidden = services.hidden_from_roller(
            check=chosen.value if chosen else None,
            rules=rules or DEFAULT_HOUSE_RULES,
            campaign=campaign,
            is_gm=access is not None and access.is_gm,
        )
        roll = services.roll_make(
            user=signed_in(request),
            dice=serializer.dice_request,
            campaign=campaign,
            label=label or (chosen.name if chosen else ""),
            secret=serializer.validated_data.get("secret", False) and campaign is not None,
            hidden=hidden,
        )
        if hidden:  # she learns that she rolled, never the dice, total or verdict
            return Response(
                {
                    "id": roll.pk,
                    "campaign": roll.campaign_id,
                    "label": roll.label,
                    "notation": roll.notation,
                    "target": roll.target,
                    "secret": True,
                    "hidden": True,
                    "detail": services.HIDDEN_ROLL_NOTE,
                },
                status=status.HTTP_201_CREATED,
            )
        return Response(RollSerializer(roll).data, status=status.HTTP_201_CREATED)


class ProbabilityView(APIView):
    """Exact odds of a roll: the distribution of totals and, with a target, the chances of
    success, critical success and critical failure, as exact fractions and percentages."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("notation", str, description="Dice notation, e.g. 4d+2"),
            OpenApiParameter("stat", int, description="A stat value instead of notation"),
            OpenApiParameter("modifier", int),
            OpenApiParameter("target", int, description="Beat this total to succeed"),
            OpenApiParameter("campaign", int, description="Use this campaign's house rules"),
        ],
        responses=OddsSerializer,
    )
    def get(self, request: Request) -> Response:
        rules = None
        campaign_id = request.query_params.get("campaign")
        if campaign_id is not None:
            campaign, _ = campaign_for(request.user, campaign_id)
            rules = campaign.rules()
        serializer = DiceInputSerializer(data=request.query_params, context={"rules": rules})
        serializer.is_valid(raise_exception=True)
        odds = services.odds_for(serializer.dice_request)
        odds.pop("chart_svg", None)
        return Response(odds)
