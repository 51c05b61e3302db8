"""Digests: held non-urgent deliveries go out as one message per channel per interval, never
while quiet mode is on, never twice."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from notifications import notify, notify_campaign
from notifications import tasks as notification_tasks
from notifications.delivery import digest_attempt, digests_build, stale_pending
from notifications.models import (
    CampaignNotificationSettings,
    Delivery,
    Digest,
    NotificationPreference,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def busy_player(player, receiver):
    NotificationPreference.objects.create(
        user=player,
        channels={"level_up": ["email", "webhook"], "loot_awarded": ["email", "webhook"]},
        digest_minutes=15,
        webhook_url=receiver.url,
    )
    return player


def _raise_five(user, campaign):
    for i in range(3):
        notify(recipient=user, event="loot_awarded", campaign=campaign, title=f"Loot {i}")
    for level in (2, 3):
        notify(recipient=user, event="level_up", campaign=campaign, title=f"Level {level}")


def test_a_busy_campaign_becomes_one_message_per_channel(
    busy_player, campaign, receiver, django_capture_on_commit_callbacks
):
    _raise_five(busy_player, campaign)
    assert Delivery.objects.filter(status="held").count() == 10
    assert digests_build() == []  # the oldest has not waited 15 minutes yet
    later = timezone.now() + timedelta(minutes=16)
    with django_capture_on_commit_callbacks(execute=True):
        ids = digests_build(now=later)
    assert len(ids) == 2
    assert set(Digest.objects.values_list("channel", "status")) == {
        ("email", "sent"),
        ("webhook", "sent"),
    }
    assert Delivery.objects.filter(status="sent").count() == 10
    assert len(mail.outbox) == 1
    assert mail.outbox[0].subject == "[Western Roses] 5 updates"
    assert "Loot 0" in mail.outbox[0].body and "Level 3" in mail.outbox[0].body
    (post,) = receiver.requests
    assert [e["title"] for e in post.body["embeds"]] == [
        "Loot 0",
        "Loot 1",
        "Loot 2",
        "Level 2",
        "Level 3",
    ]
    assert post.headers["Idempotency-Key"].startswith("digest-")
    assert digests_build(now=later + timedelta(hours=1)) == []  # nothing left


def test_a_delivery_joins_only_one_digest_and_a_digest_sends_once(busy_player, campaign, receiver):
    _raise_five(busy_player, campaign)
    later = timezone.now() + timedelta(minutes=16)
    ids = digests_build(now=later)
    assert digests_build(now=later) == []
    for digest_id in ids:
        assert digest_attempt(digest_id=digest_id).outcome == "sent"
        assert digest_attempt(digest_id=digest_id).outcome == "noop"
        assert notification_tasks.deliver_digest.apply(args=[digest_id]).get() == "noop"
    assert len(mail.outbox) == 1
    assert len(receiver.requests) == 1


def test_quiet_mode_holds_the_digest_until_it_is_turned_off(busy_player, campaign):
    NotificationPreference.objects.filter(user=busy_player).update(quiet=True)
    _raise_five(busy_player, campaign)
    much_later = timezone.now() + timedelta(days=2)
    assert digests_build(now=much_later) == []
    NotificationPreference.objects.filter(user=busy_player).update(quiet=False)
    assert len(digests_build(now=much_later)) == 2


def test_digest_failure_marks_its_deliveries(busy_player, campaign, receiver):
    receiver.default_status = 410
    notify(recipient=busy_player, event="level_up", campaign=campaign, title="Level 2")
    ids = digests_build(now=timezone.now() + timedelta(minutes=20))
    webhook_digest = Digest.objects.get(pk__in=ids, channel="webhook")
    assert digest_attempt(digest_id=webhook_digest.pk).outcome == "failed"
    assert set(webhook_digest.deliveries.values_list("status", flat=True)) == {"failed"}


def test_campaign_webhook_digest(campaign, receiver, django_capture_on_commit_callbacks):
    CampaignNotificationSettings.objects.create(
        campaign=campaign, webhook_url=receiver.url, events=["loot_awarded"], digest_minutes=60
    )
    for i in range(4):
        notify_campaign(campaign=campaign, event="loot_awarded", title=f"Loot {i}")
    assert receiver.requests == []
    with django_capture_on_commit_callbacks(execute=True):
        digests_build(now=timezone.now() + timedelta(minutes=61))
    (post,) = receiver.requests
    assert post.body["content"] == "**4 updates in Scarlet Mist**"
    assert len(post.body["embeds"]) == 4


def test_more_than_ten_items_fit_in_one_discord_message(busy_player, campaign, receiver):
    for i in range(13):
        notify(recipient=busy_player, event="loot_awarded", campaign=campaign, title=f"Loot {i}")
    ids = digests_build(now=timezone.now() + timedelta(minutes=16))
    for digest_id in ids:
        digest_attempt(digest_id=digest_id)
    (post,) = receiver.requests
    assert len(post.body["embeds"]) == 10
    assert "…and 3 more" in post.body["content"] and "Loot 12" in post.body["content"]


def test_stale_pending_rows_are_found_for_the_sweeper(player, settings):
    settings.NOTIFICATION_STALE_SECONDS = 60
    delivery = notify(recipient=player, event="your_turn", title="Go").deliveries.get()
    assert stale_pending() == ([], [])
    Delivery.objects.filter(pk=delivery.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    assert stale_pending() == ([delivery.pk], [])
    assert notification_tasks.requeue_stale_deliveries.apply().get() == 1
    delivery.refresh_from_db()
    assert delivery.status == "sent"  # eager here: the requeued task ran
