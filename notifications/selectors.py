"""Reads for notifications: a user's inbox and unread count, and effective preferences.

A user only ever reads their own notifications: every query here filters on the recipient, and
pages and the API look single notifications up through :func:`inbox` (others' ids answer 404).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import QuerySet

from notifications.models import (
    CampaignNotificationSettings,
    EventType,
    Notification,
    NotificationChannel,
    NotificationPreference,
    PushSubscription,
)

from . import webpush

if TYPE_CHECKING:
    from accounts.models import User
    from campaign.models import Campaign

_ALL = frozenset(NotificationChannel.values)
_QUIETER = frozenset(
    {NotificationChannel.IN_APP, NotificationChannel.WEBHOOK, NotificationChannel.PUSH}
)

#: Channels per event for users who have not chosen. The webhook only counts once a URL is set,
#: push once a device is subscribed (subscribing a device is opting in);
#: email is kept for what a player would want to read away from the table.
DEFAULT_CHANNELS: dict[str, frozenset[str]] = {
    EventType.YOUR_TURN: _QUIETER,
    EventType.TURN_REMINDER: _ALL,
    EventType.INVITATION: _ALL,
    EventType.SESSION_SCHEDULED: _ALL,
    EventType.SESSION_REMINDER: _ALL,
    EventType.LEVEL_UP: _QUIETER,
    EventType.LOOT_AWARDED: _QUIETER,
    EventType.THREAD_MENTION: _QUIETER,
    EventType.THREAD_DIGEST: _ALL,
    EventType.WIKI_UPDATE: _QUIETER,
}

#: What a campaign webhook posts until its GMs choose: table-wide news, not per-player turns.
DEFAULT_CAMPAIGN_EVENTS: tuple[str, ...] = (
    EventType.SESSION_SCHEDULED,
    EventType.SESSION_REMINDER,
    EventType.LEVEL_UP,
    EventType.LOOT_AWARDED,
)


def inbox(user: User) -> QuerySet[Notification]:
    """The user's notifications that the in-app channel delivered, newest first."""
    return Notification.objects.filter(recipient=user, in_app_at__isnull=False).select_related(
        "campaign"
    )


def unread_count(user: User) -> int:
    """The bell's number: one indexed COUNT (a partial index covers exactly these rows)."""
    return Notification.objects.filter(
        recipient=user, in_app_at__isnull=False, read_at__isnull=True
    ).count()


def preference_for(user: User) -> NotificationPreference:
    """The user's preferences; an unsaved row with the defaults when they never chose."""
    pref = NotificationPreference.objects.filter(user=user).first()
    return pref if pref is not None else NotificationPreference(user=user)


def enabled_channels(pref: NotificationPreference, event: str) -> frozenset[str]:
    """Channels switched on for ``event``: the user's choice, else :data:`DEFAULT_CHANNELS`."""
    chosen = (pref.channels or {}).get(str(event))
    if isinstance(chosen, list):
        return frozenset(c for c in chosen if c in _ALL)
    return DEFAULT_CHANNELS.get(str(event), frozenset({NotificationChannel.IN_APP}))


def campaign_settings_for(campaign: Campaign) -> CampaignNotificationSettings:
    """The campaign's webhook settings; an unsaved row with the defaults when never set."""
    found = CampaignNotificationSettings.objects.filter(campaign=campaign).first()
    if found is not None:
        return found
    return CampaignNotificationSettings(campaign=campaign, events=list(DEFAULT_CAMPAIGN_EVENTS))


def push_devices(user: User) -> QuerySet[PushSubscription]:
    """The devices the user subscribed to push, oldest first."""
    return PushSubscription.objects.filter(user=user).order_by("created_at", "pk")


def push_ready(user: User) -> bool:
    """Whether a push to the user can go anywhere: the site has VAPID keys and she a device."""
    return webpush.available() and PushSubscription.objects.filter(user=user).exists()
