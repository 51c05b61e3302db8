from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    """The notification service: in-app, email and webhook channels, digests, reminders."""

    name = "notifications"
