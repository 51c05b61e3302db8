"""API shapes for notifications, preferences and a campaign's webhook."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext

from apibase import serializers
from notifications.models import (
    DIGEST_MINUTES_CHOICES,
    EventType,
    Notification,
    NotificationChannel,
    NotificationPreference,
    PushSubscription,
)

from .selectors import enabled_channels
from .webhooks import MAX_URL_LENGTH, validate_webhook_url


class NotificationSerializer(serializers.ModelSerializer[Notification]):
    event_label = serializers.CharField(source="get_event_display", read_only=True)
    urgent = serializers.BooleanField(read_only=True)
    read = serializers.SerializerMethodField()
    #: In the reader's language (the request's), not the one it was raised in.
    title = serializers.CharField(source="shown_title", read_only=True)
    body = serializers.CharField(source="shown_body", read_only=True)

    class Meta:
        model = Notification
        fields = (
            "id",
            "event",
            "event_label",
            "urgent",
            "campaign",
            "title",
            "body",
            "url",
            "created_at",
            "read",
            "read_at",
        )
        read_only_fields = fields

    def get_read(self, obj: Notification) -> bool:
        return obj.read_at is not None


def _webhook(value: str) -> str:
    if not value:
        return ""
    try:
        return validate_webhook_url(value)
    except DjangoValidationError as exc:
        raise serializers.ValidationError(exc.messages) from None


class PreferenceSerializer(serializers.Serializer[Any]):
    """``channels`` maps event types to the channels switched on; omitted events keep theirs."""

    channels = serializers.DictField(
        child=serializers.ListField(
            child=serializers.ChoiceField(NotificationChannel.choices),
            max_length=len(NotificationChannel.choices),
        ),
        required=False,
    )
    quiet = serializers.BooleanField(required=False)
    digest_minutes = serializers.ChoiceField(DIGEST_MINUTES_CHOICES, required=False)
    webhook_url = serializers.CharField(required=False, allow_blank=True, max_length=MAX_URL_LENGTH)

    def validate_channels(self, value: dict[str, list[str]]) -> dict[str, list[str]]:
        unknown = sorted(set(value) - set(EventType.values))
        if unknown:
            raise serializers.ValidationError(
                gettext("Unknown event type “%(event)s”.") % {"event": unknown[0]}
            )
        return value

    def validate_webhook_url(self, value: str) -> str:
        return _webhook(value)

    @staticmethod
    def represent(pref: NotificationPreference) -> dict[str, Any]:
        return {
            "channels": {e.value: sorted(enabled_channels(pref, e)) for e in EventType},
            "quiet": pref.quiet,
            "digest_minutes": pref.digest_minutes,
            "webhook_url": pref.webhook_url,
        }


class CampaignWebhookSerializer(serializers.Serializer[Any]):
    webhook_url = serializers.CharField(allow_blank=True, max_length=MAX_URL_LENGTH)
    events = serializers.ListField(
        child=serializers.ChoiceField(EventType.choices), max_length=len(EventType.choices)
    )
    digest_minutes = serializers.ChoiceField(DIGEST_MINUTES_CHOICES)

    def validate_webhook_url(self, value: str) -> str:
        return _webhook(value)


class PushDeviceSerializer(serializers.ModelSerializer[PushSubscription]):
    """A subscribed device as its owner sees it (the endpoint and keys are not shown again)."""

    class Meta:
        model = PushSubscription
        fields = ("id", "name", "created_at", "last_sent_at")
        read_only_fields = fields


class PushKeysSerializer(serializers.Serializer[Any]):
    p256dh = serializers.CharField(max_length=200)
    auth = serializers.CharField(max_length=100)


class PushSubscribeSerializer(serializers.Serializer[Any]):
    """What ``PushSubscription.toJSON()`` gives in the browser, and a name for the device."""

    endpoint = serializers.CharField(max_length=MAX_URL_LENGTH)
    keys = PushKeysSerializer()
    name = serializers.CharField(max_length=100, required=False, allow_blank=True)
