"""Admin for the notification tables: read-only, for operators diagnosing a delivery.

Notifications are personal, so only superusers see these pages (staff GMs, whom the campaign
admin scopes to their own campaigns, do not); every change goes through the services.
"""

from __future__ import annotations

from typing import TypeVar

from django.contrib import admin
from django.db import models
from django.http import HttpRequest

from notifications.models import (
    CampaignNotificationSettings,
    Delivery,
    Digest,
    Notification,
    NotificationPreference,
    PushSubscription,
    ScheduledNotification,
    TurnWait,
)

_M = TypeVar("_M", bound=models.Model)


class OperatorOnlyAdmin(admin.ModelAdmin[_M]):
    """Superusers read; nobody edits here (deliveries must go through the locked services)."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_superuser)

    def has_view_permission(self, request: HttpRequest, obj: _M | None = None) -> bool:
        return self.has_module_permission(request)

    def has_add_permission(self, request: HttpRequest, obj: _M | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: _M | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: _M | None = None) -> bool:
        return False


class DeliveryInline(admin.TabularInline[Delivery, Notification]):
    model = Delivery
    extra = 0
    fields = ("channel", "status", "attempts", "last_error", "sent_at")
    readonly_fields = fields
    can_delete = False


@admin.register(Notification)
class NotificationAdmin(OperatorOnlyAdmin[Notification]):
    list_display = ("created_at", "recipient", "campaign", "event", "title", "in_app_at")
    list_filter = ("event",)
    search_fields = ("title", "recipient__username", "campaign__name", "dedupe_key")
    list_select_related = ("recipient", "campaign")
    inlines = (DeliveryInline,)


@admin.register(Delivery)
class DeliveryAdmin(OperatorOnlyAdmin[Delivery]):
    list_display = ("notification", "channel", "status", "attempts", "sent_at", "updated_at")
    list_filter = ("channel", "status")
    search_fields = ("notification__title", "last_error")
    list_select_related = ("notification",)


@admin.register(Digest)
class DigestAdmin(OperatorOnlyAdmin[Digest]):
    list_display = ("created_at", "recipient", "campaign", "channel", "status", "attempts")
    list_filter = ("channel", "status")


@admin.register(NotificationPreference)
class NotificationPreferenceAdmin(OperatorOnlyAdmin[NotificationPreference]):
    list_display = ("user", "quiet", "digest_minutes", "updated_at")
    list_filter = ("quiet",)
    search_fields = ("user__username",)


@admin.register(CampaignNotificationSettings)
class CampaignNotificationSettingsAdmin(OperatorOnlyAdmin[CampaignNotificationSettings]):
    list_display = ("campaign", "digest_minutes", "updated_at")
    search_fields = ("campaign__name",)


@admin.register(TurnWait)
class TurnWaitAdmin(OperatorOnlyAdmin[TurnWait]):
    list_display = ("key", "campaign", "user", "started_at", "ended_at", "reminded_at")
    search_fields = ("key", "user__username")


@admin.register(ScheduledNotification)
class ScheduledNotificationAdmin(OperatorOnlyAdmin[ScheduledNotification]):
    list_display = ("key", "campaign", "recipient", "event", "due_at", "sent_at")
    list_filter = ("event",)
    search_fields = ("key", "title")


@admin.register(PushSubscription)
class PushSubscriptionAdmin(OperatorOnlyAdmin[PushSubscription]):
    """Devices subscribed to push (their endpoints and keys are not shown: the user removes a
    device from her settings, and a push service's 404/410 removes it by itself)."""

    list_display = ("user", "name", "created_at", "last_sent_at")
    fields = ("user", "name", "created_at", "last_sent_at")
    readonly_fields = fields
    search_fields = ("user__username", "name")
    list_select_related = ("user",)
