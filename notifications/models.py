"""The notification service's tables (moved from ``campaign``; the tables keep their names).

A :class:`Notification` is one event for one user (or, with no recipient, for a campaign's own
webhook); each channel it goes out on has one :class:`Delivery` row whose status is the source
of truth, so a redelivered Celery task never sends twice. Campaigns are referred to by the
``"campaign.Campaign"`` model string: the notification service sits above the campaign core.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# --------------------------------------------------------------------------- notifications
# The notification service lives in ``campaign/notifications/``; these are its tables. A
# :class:`Notification` is one event for one user (or, with no recipient, for a campaign's own
# webhook); each channel it goes out on has one :class:`Delivery` row whose status is the source
# of truth, so a redelivered Celery task never sends twice.


class EventType(models.TextChoices):
    """What happened. Urgent events always go out at once; the others may wait for a digest."""

    YOUR_TURN = "your_turn", _("Your turn")
    TURN_REMINDER = "turn_reminder", _("Turn reminder")
    INVITATION = "invitation", _("Invitation")
    SESSION_SCHEDULED = "session_scheduled", _("Session scheduled")
    SESSION_REMINDER = "session_reminder", _("Session reminder")
    LEVEL_UP = "level_up", _("Level up")
    LOOT_AWARDED = "loot_awarded", _("Loot awarded")
    THREAD_MENTION = "thread_mention", _("Mentioned in a thread")
    THREAD_DIGEST = "thread_digest", _("The day's posts in your campaigns")
    WIKI_UPDATE = "wiki_update", _("News in the campaign wiki")

    @property
    def urgent(self) -> bool:
        """Urgent events are time-bound: quiet mode and digests never hold them back."""
        return self in URGENT_EVENTS


URGENT_EVENTS = frozenset(
    {EventType.YOUR_TURN, EventType.TURN_REMINDER, EventType.SESSION_REMINDER}
)


class NotificationChannel(models.TextChoices):
    IN_APP = "in_app", _("In the app")
    EMAIL = "email", _("Email")
    WEBHOOK = "webhook", _("Webhook")
    PUSH = "push", _("Push")


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    HELD = "held", "Held for the digest"
    SENT = "sent", "Sent"
    FAILED = "failed", "Failed"
    SKIPPED = "skipped", "Skipped"


class Notification(models.Model):
    """One event for one user; with no recipient, an event for the campaign's own webhook."""

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notifications",
        null=True,
        blank=True,
    )
    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        related_name="notifications",
        null=True,
        blank=True,
    )
    event = models.CharField(max_length=32, choices=EventType.choices)
    title = models.CharField(max_length=200)
    body = models.TextField(blank=True)
    url = models.CharField(max_length=500, blank=True)
    #: The title's and body's message ids and parameters (notifications/texts.py), rendered in
    #: each reader's language; ``title`` and ``body`` keep the English rendering.
    texts = models.JSONField(default=dict, blank=True)
    # NULL, not "": notifications without a key must not collide in the unique constraint.
    dedupe_key = models.CharField(  # noqa: DJ001
        max_length=200,
        null=True,
        blank=True,
        help_text="Raising the same event again with this key is a no-op.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    in_app_at = models.DateTimeField(
        null=True, blank=True, help_text="When the in-app channel delivered it (shown in the list)."
    )
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "campaign_notification"
        ordering = ("-created_at", "-pk")
        constraints = [
            models.UniqueConstraint(
                fields=("recipient", "dedupe_key"), name="notification_dedupe_per_recipient"
            ),
            models.UniqueConstraint(
                fields=("campaign", "dedupe_key"),
                condition=models.Q(recipient__isnull=True),
                name="notification_dedupe_per_campaign_channel",
            ),
            models.CheckConstraint(
                condition=models.Q(recipient__isnull=False) | models.Q(campaign__isnull=False),
                name="notification_has_recipient_or_campaign",
            ),
        ]
        indexes = [
            models.Index(
                fields=("recipient", "-created_at"),
                condition=models.Q(in_app_at__isnull=False),
                name="notification_inbox",
            ),
            models.Index(
                fields=("recipient",),
                condition=models.Q(in_app_at__isnull=False, read_at__isnull=True),
                name="notification_unread",
            ),
            # the retention task's (config/retention.py): notifications past their days
            models.Index(fields=("created_at",), name="notification_created"),
        ]

    def __str__(self) -> str:
        return f"{self.get_event_display()}: {self.title}"

    @property
    def urgent(self) -> bool:
        return EventType(self.event).urgent

    @property
    def shown_title(self) -> str:
        """The title in the active language (a page's reader's, a delivery's recipient's)."""
        from .texts import stored

        return stored(self.texts, "title", self.title)

    @property
    def shown_body(self) -> str:
        from .texts import stored

        return stored(self.texts, "body", self.body)


class Digest(models.Model):
    """One batched message of held non-urgent deliveries, for one user's (or campaign's) channel."""

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notification_digests",
        null=True,
        blank=True,
    )
    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        related_name="notification_digests",
        null=True,
        blank=True,
    )
    channel = models.CharField(max_length=16, choices=NotificationChannel.choices)
    status = models.CharField(
        max_length=16, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    retry_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the scheduled retry is due: the stale sweeper leaves the row until then.",
    )

    class Meta:
        db_table = "campaign_digest"
        ordering = ("-created_at", "-pk")
        indexes = [
            models.Index(
                fields=("updated_at",),
                condition=models.Q(status="pending"),
                name="digest_pending",
            )
        ]

    def __str__(self) -> str:
        return f"digest {self.pk} ({self.channel}, {self.status})"


class Delivery(models.Model):
    """A notification on one channel. Its status is the truth a redelivered task checks first."""

    notification = models.ForeignKey(
        Notification, on_delete=models.CASCADE, related_name="deliveries"
    )
    channel = models.CharField(max_length=16, choices=NotificationChannel.choices)
    status = models.CharField(
        max_length=16, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    digest = models.ForeignKey(
        Digest, on_delete=models.SET_NULL, related_name="deliveries", null=True, blank=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    retry_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the scheduled retry is due: the stale sweeper leaves the row until then.",
    )

    class Meta:
        db_table = "campaign_delivery"
        verbose_name_plural = "deliveries"
        ordering = ("pk",)
        constraints = [
            models.UniqueConstraint(
                fields=("notification", "channel"), name="one_delivery_per_channel"
            )
        ]
        indexes = [
            models.Index(
                fields=("updated_at",),
                condition=models.Q(status="pending"),
                name="delivery_pending",
            ),
            models.Index(
                fields=("created_at",),
                condition=models.Q(status="held", digest__isnull=True),
                name="delivery_held",
            ),
            # the retention task's: deliveries done for their days (config/retention.py)
            models.Index(
                fields=("updated_at",),
                condition=models.Q(status__in=("sent", "failed", "skipped")),
                name="delivery_done",
            ),
            # the metrics' failures of the last day (config/metrics.py): a few rows
            models.Index(
                fields=("updated_at",), condition=models.Q(status="failed"), name="delivery_failed"
            ),
        ]

    def __str__(self) -> str:
        return f"delivery {self.pk} ({self.channel}, {self.status})"


DIGEST_MINUTES_CHOICES = [
    (0, _("Send each one at once")),
    (15, _("Every 15 minutes")),
    (60, _("Every hour")),
    (360, _("Every 6 hours")),
    (1440, _("Once a day")),
]


class NotificationPreference(models.Model):
    """One user's choices: channels per event, quiet mode, the digest interval, a webhook."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preference"
    )
    channels = models.JSONField(
        default=dict, blank=True, help_text="Event type → list of channels; missing = defaults."
    )
    quiet = models.BooleanField(
        default=False,
        help_text="Quiet mode: hold every non-urgent email and webhook until it is turned off.",
    )
    digest_minutes = models.PositiveIntegerField(default=60, choices=DIGEST_MINUTES_CHOICES)
    webhook_url = models.CharField(max_length=500, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "campaign_notificationpreference"

    def __str__(self) -> str:
        return f"notification preferences of {self.user}"


class CampaignNotificationSettings(models.Model):
    """A campaign's own webhook (e.g. the table's Discord channel), set by its GMs."""

    campaign = models.OneToOneField(
        "campaign.Campaign", on_delete=models.CASCADE, related_name="notification_settings"
    )
    webhook_url = models.CharField(max_length=500, blank=True)
    events = models.JSONField(default=list, blank=True, help_text="Event types posted there.")
    digest_minutes = models.PositiveIntegerField(default=60, choices=DIGEST_MINUTES_CHOICES)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "campaign_campaignnotificationsettings"
        verbose_name_plural = "campaign notification settings"

    def __str__(self) -> str:
        return f"notification settings of {self.campaign}"


class TurnWait(models.Model):
    """A user's turn that has started and is waiting for them (battles, tavern games).

    Features register a turn with ``turn_wait_start`` and end it with ``turn_wait_end``; the
    ``send_turn_reminders`` beat task reminds once when it waits past the campaign's delay.
    """

    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        related_name="turn_waits",
        null=True,
        blank=True,
        help_text="Whose reminder delay applies; empty for a table outside any campaign.",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="turn_waits"
    )
    key = models.CharField(max_length=200, help_text="Names the turn, e.g. battle:12:round:3.")
    title = models.CharField(max_length=200)
    texts = models.JSONField(default=dict, blank=True, help_text="The title's message id.")
    url = models.CharField(max_length=500, blank=True)
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    reminded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "campaign_turnwait"
        ordering = ("started_at", "pk")
        constraints = [
            models.UniqueConstraint(fields=("key", "user"), name="one_turn_wait_per_key_and_user")
        ]
        indexes = [
            models.Index(
                fields=("started_at",),
                condition=models.Q(ended_at__isnull=True, reminded_at__isnull=True),
                name="turn_wait_open",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user}'s turn {self.key}"


class ScheduledNotification(models.Model):
    """A notification due later (session reminders), sent once by a beat task.

    With no recipient it goes to the whole campaign (every member and the campaign webhook) as
    the membership stands when it fires.
    """

    key = models.CharField(max_length=200, unique=True)
    campaign = models.ForeignKey(
        "campaign.Campaign",
        on_delete=models.CASCADE,
        related_name="scheduled_notifications",
        null=True,
        blank=True,
    )
    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="scheduled_notifications",
        null=True,
        blank=True,
    )
    event = models.CharField(max_length=32, choices=EventType.choices)
    title = models.CharField(max_length=200)
    body = models.TextField(blank=True)
    texts = models.JSONField(default=dict, blank=True, help_text="Message ids of title and body.")
    url = models.CharField(max_length=500, blank=True)
    due_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "campaign_schedulednotification"
        ordering = ("due_at", "pk")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(recipient__isnull=False) | models.Q(campaign__isnull=False),
                name="scheduled_notification_has_recipient_or_campaign",
            )
        ]
        indexes = [
            models.Index(
                fields=("due_at",),
                condition=models.Q(sent_at__isnull=True),
                name="scheduled_notification_due",
            )
        ]

    def __str__(self) -> str:
        return f"{self.key} at {self.due_at}"


class PushSubscription(models.Model):
    """One device's Web Push subscription: where the browser's push service takes messages for
    it and the keys its payloads are encrypted to (RFC 8291). The push channel sends to every
    one of the user's devices; a push service answering 404 or 410 deletes the row."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.CharField(max_length=500, unique=True)
    p256dh = models.CharField(max_length=200, help_text="The device's public key (base64url).")
    auth = models.CharField(max_length=100, help_text="The device's auth secret (base64url).")
    name = models.CharField(max_length=100, help_text="What the device is called in the list.")
    #: A digest of the sign-in session the device subscribed from (none through a token):
    #: signing out of that session removes the device, so a shared browser stops receiving
    #: the previous user's notifications (notifications/apps.py).
    session_digest = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("created_at", "pk")

    def __str__(self) -> str:
        return f"{self.user}'s device {self.name}"
