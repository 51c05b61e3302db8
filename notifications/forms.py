"""Forms for notification preferences and a campaign's webhook. Webhook URLs are checked for
SSRF here (a form error, 400) and again when anything is sent."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from notifications.models import (
    DIGEST_MINUTES_CHOICES,
    EventType,
    NotificationChannel,
    NotificationPreference,
)

from .selectors import enabled_channels
from .webhooks import MAX_URL_LENGTH, validate_webhook_url


def channel_field_name(event: str, channel: str) -> str:
    return f"ch__{event}__{channel}"


def _check_webhook_url(value: str) -> None:
    """A field validator (returns nothing): the URL must be one we may post to."""
    validate_webhook_url(value)


class PreferencesForm(forms.Form):
    """One checkbox per event and channel, quiet mode, the digest interval and a webhook."""

    quiet = forms.BooleanField(
        required=False,
        label=_("Quiet mode"),
        help_text=_(
            "Hold every non-urgent email and webhook until you turn it off "
            "(urgent ones — your turn, reminders — still arrive)."
        ),
    )
    digest_minutes = forms.TypedChoiceField(
        choices=DIGEST_MINUTES_CHOICES,
        coerce=int,
        label=_("Digest"),
        help_text=_("Non-urgent emails and webhooks are batched into one message per interval."),
    )
    webhook_url = forms.CharField(
        required=False,
        max_length=MAX_URL_LENGTH,
        label=_("Your webhook URL"),
        help_text=_("A Discord-compatible webhook (https://discord.com/api/webhooks/…)."),
        validators=[_check_webhook_url],
    )
    channel_labels = NotificationChannel.labels

    def __init__(self, *args: Any, preference: NotificationPreference, **kwargs: Any) -> None:
        initial = {
            "quiet": preference.quiet,
            "digest_minutes": preference.digest_minutes,
            "webhook_url": preference.webhook_url,
        }
        for event in EventType:
            on = enabled_channels(preference, event)
            for channel in NotificationChannel:
                initial[channel_field_name(event, channel)] = channel in on
        kwargs["initial"] = initial
        super().__init__(*args, **kwargs)
        for event in EventType:
            for channel in NotificationChannel:
                self.fields[channel_field_name(event, channel)] = forms.BooleanField(
                    required=False,
                    label=_("%(event)s: %(channel)s")
                    % {"event": event.label, "channel": channel.label},
                )

    def grid(self) -> list[dict[str, Any]]:
        """Rows for the template: each event with its bound checkbox per channel (``cells``)
        and the same with each channel's name (``choices``: the phone layout names them)."""
        return [
            {
                "event": event,
                "urgent": event.urgent,
                "cells": [self[channel_field_name(event, c)] for c in NotificationChannel],
                "choices": [
                    {"field": self[channel_field_name(event, c)], "channel": c.label}
                    for c in NotificationChannel
                ],
            }
            for event in EventType
        ]

    def channels(self) -> dict[str, list[str]]:
        return {
            event.value: [
                c.value
                for c in NotificationChannel
                if self.cleaned_data.get(channel_field_name(event, c))
            ]
            for event in EventType
        }


class CampaignWebhookForm(forms.Form):
    """A campaign's own webhook (e.g. the table's Discord channel); GMs only."""

    webhook_url = forms.CharField(
        required=False,
        max_length=MAX_URL_LENGTH,
        label=_("Campaign webhook URL"),
        help_text=_("Leave empty to post nothing."),
        validators=[_check_webhook_url],
    )
    events = forms.MultipleChoiceField(
        choices=EventType.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=_("Post these events"),
    )
    digest_minutes = forms.TypedChoiceField(
        choices=DIGEST_MINUTES_CHOICES,
        coerce=int,
        label=_("Digest"),
        help_text=_("Non-urgent events are batched into one post per interval."),
    )
