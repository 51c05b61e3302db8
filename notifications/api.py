"""REST API for notifications: your own list, mark read, preferences, a campaign's webhook.

Only the caller's own notifications exist for them: someone else's id answers 404.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.typing import signed_in
from apibase.numbers import ID_PATTERN
from campaign.permissions import campaign_for
from notifications.models import Notification, PushSubscription

from . import selectors, services, webpush
from .serializers import (
    CampaignWebhookSerializer,
    NotificationSerializer,
    PreferenceSerializer,
    PushDeviceSerializer,
    PushSubscribeSerializer,
)


def _flag(raw: str | None) -> bool:
    """A yes/no query parameter; anything else is refused (400) rather than ignored."""
    if raw is None or raw == "":
        return False
    value = raw.strip().lower()
    if value in ("1", "true", "yes"):
        return True
    if value in ("0", "false", "no"):
        return False
    raise DRFValidationError({"unread": ["Must be true or false."]})


class NotificationViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Notification]
):
    """Your notifications (in-app channel), newest first. ``?unread=true`` lists unread ones."""

    #: pages poll it: counted in the API's poll scope (apibase.throttles.POLL_SCOPE)
    live_reads = True

    serializer_class = NotificationSerializer
    lookup_value_regex = ID_PATTERN  # ASCII digits: "1_0" or "٣" is no id

    def get_queryset(self) -> QuerySet[Notification]:
        if getattr(self, "swagger_fake_view", False):  # schema generation
            return Notification.objects.none()
        notifications = selectors.inbox(signed_in(self.request))
        if _flag(self.request.query_params.get("unread")):
            notifications = notifications.filter(read_at__isnull=True)
        return notifications

    @extend_schema(parameters=[OpenApiParameter("unread", bool, description="Only unread")])
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(request=None, responses=NotificationSerializer)
    @action(detail=True, methods=["post"])
    def read(self, request: Request, pk: str | None = None) -> Response:
        """Mark one of your notifications read."""
        try:
            notification = services.notification_mark_read(
                user=signed_in(request), notification_id=int(pk or 0)
            )
        except (Notification.DoesNotExist, ValueError):
            raise Http404 from None
        return Response(NotificationSerializer(notification).data)

    @extend_schema(request=None, responses={200: dict})
    @action(detail=False, methods=["post"], url_path="read-all")
    def read_all(self, request: Request) -> Response:
        """Mark all your notifications read; answers how many changed."""
        return Response({"marked": services.notifications_mark_all_read(user=signed_in(request))})


class PreferenceView(APIView):
    """Your notification preferences. PATCH changes only the fields sent."""

    @extend_schema(responses=PreferenceSerializer)
    def get(self, request: Request) -> Response:
        return Response(
            PreferenceSerializer.represent(selectors.preference_for(signed_in(request)))
        )

    @extend_schema(request=PreferenceSerializer, responses=PreferenceSerializer)
    def patch(self, request: Request) -> Response:
        serializer = PreferenceSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        pref = services.preferences_update(user=signed_in(request), **serializer.validated_data)
        return Response(PreferenceSerializer.represent(pref))


class CampaignWebhookView(APIView):
    """A campaign's webhook: members other than GMs get 403, outsiders 404."""

    @extend_schema(responses=CampaignWebhookSerializer)
    def get(self, request: Request, pk: int) -> Response:
        campaign, _ = campaign_for(request.user, pk, manage=True)
        config = selectors.campaign_settings_for(campaign)
        return Response(CampaignWebhookSerializer(config).data)

    @extend_schema(request=CampaignWebhookSerializer, responses=CampaignWebhookSerializer)
    def put(self, request: Request, pk: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        serializer = CampaignWebhookSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        config = services.campaign_settings_update(
            campaign=campaign, by=access, **serializer.validated_data
        )
        return Response(CampaignWebhookSerializer(config).data)


class PushDevicesView(APIView):
    """Your devices subscribed to push notifications. GET answers whether push is available on
    this site, the VAPID public key a browser subscribes with, and your devices; POST subscribes
    one (the browser's ``PushSubscription`` as JSON, and a name)."""

    @extend_schema(responses={200: dict})
    def get(self, request: Request) -> Response:
        devices = selectors.push_devices(signed_in(request))
        return Response(
            {
                "available": webpush.available(),
                "public_key": webpush.public_key(),
                "devices": PushDeviceSerializer(devices, many=True).data,
            }
        )

    @extend_schema(request=PushSubscribeSerializer, responses={201: PushDeviceSerializer})
    def post(self, request: Request) -> Response:
        serializer = PushSubscribeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        device = services.push_subscription_add(
            user=signed_in(request),
            endpoint=data["endpoint"],
            p256dh=data["keys"]["p256dh"],
            auth=data["keys"]["auth"],
            name=data.get("name", ""),
            session_key=request.session.session_key if hasattr(request, "session") else None,
        )
        return Response(PushDeviceSerializer(device).data, status=201)


class PushDeviceView(APIView):
    """One of your devices: DELETE stops push notifications to it (someone else's: 404)."""

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int) -> Response:
        try:
            services.push_subscription_remove(user=signed_in(request), subscription_id=pk)
        except PushSubscription.DoesNotExist:
            raise Http404 from None
        return Response(status=204)
