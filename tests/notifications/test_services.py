"""notify(): rows per preference, enqueue on commit only, dedupe, urgency, quiet mode, and the
delivery attempt's idempotency, retries with backoff and bounds (tasks run eagerly here)."""

from __future__ import annotations

import random

import pytest
from django.core import mail
from django.db import transaction

from notifications import notify, notify_campaign
from notifications import tasks as notification_tasks
from notifications.delivery import backoff_seconds, delivery_attempt
from notifications.models import (
    CampaignNotificationSettings,
    Delivery,
    EventType,
    Notification,
    NotificationPreference,
)
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _channels(notification: Notification) -> dict[str, str]:
    return dict(notification.deliveries.values_list("channel", "status"))


def _prefs(user, **fields) -> NotificationPreference:
    return NotificationPreference.objects.update_or_create(user=user, defaults=fields)[0]


def test_event_types_and_urgency():
    assert set(EventType.values) == {
        "your_turn",
        "turn_reminder",
        "invitation",
        "session_scheduled",
        "session_reminder",
        "level_up",
        "loot_awarded",
    }
    urgent = {e for e in EventType if e.urgent}
    assert urgent == {EventType.YOUR_TURN, EventType.TURN_REMINDER, EventType.SESSION_REMINDER}


def test_defaults_pick_channels_that_have_a_target(player, campaign):
    n = notify(recipient=player, event="turn_reminder", campaign=campaign, title="Still your turn")
    # No webhook URL set: the webhook channel is not used; email and in-app are.
    assert _channels(n) == {"in_app": "pending", "email": "pending"}
    quiet = notify(recipient=player, event=EventType.YOUR_TURN, campaign=campaign, title="Go")
    assert _channels(quiet) == {"in_app": "pending"}


def test_nothing_is_sent_before_commit_and_everything_after(
    player, campaign, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        n = notify(
            recipient=player,
            event="invitation",
            campaign=campaign,
            title="Join the Scarlet Mist",
            body="The GM invites you.",
            url="/campaigns/1/",
        )
        assert mail.outbox == []
        assert n.deliveries.filter(status="sent").count() == 0
    assert len(callbacks) == 1
    n.refresh_from_db()
    assert _channels(n) == {"in_app": "sent", "email": "held"}  # invitation is not urgent
    assert n.in_app_at is not None


def test_rolled_back_event_enqueues_nothing(player, campaign, django_capture_on_commit_callbacks):
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        notify(recipient=player, event="your_turn", campaign=campaign, title="Go")
        raise RuntimeError("the move was refused")
    assert callbacks == []
    assert not Notification.objects.exists()
    assert not Delivery.objects.exists()


def test_urgent_events_go_out_at_once_others_wait_for_the_digest(
    player, campaign, django_capture_on_commit_callbacks
):
    _prefs(player, channels={"your_turn": ["email"], "loot_awarded": ["email"]}, digest_minutes=60)
    with django_capture_on_commit_callbacks(execute=True):
        urgent = notify(recipient=player, event="your_turn", campaign=campaign, title="Go")
        later = notify(recipient=player, event="loot_awarded", campaign=campaign, title="Gold")
    assert _channels(urgent) == {"email": "sent"}
    assert _channels(later) == {"email": "held"}
    assert [m.subject for m in mail.outbox] == ["[Western Roses] Go"]


def test_without_a_digest_non_urgent_events_go_out_at_once(
    player, campaign, django_capture_on_commit_callbacks
):
    _prefs(player, channels={"level_up": ["email"]}, digest_minutes=0)
    with django_capture_on_commit_callbacks(execute=True):
        n = notify(recipient=player, event="level_up", campaign=campaign, title="Level 3")
    assert _channels(n) == {"email": "sent"}


def test_quiet_mode_holds_non_urgent_but_not_urgent(
    player, campaign, django_capture_on_commit_callbacks
):
    _prefs(player, channels={"level_up": ["email"], "your_turn": ["email"]}, quiet=True)
    player_pref = NotificationPreference.objects.get(user=player)
    player_pref.digest_minutes = 0
    player_pref.save()
    with django_capture_on_commit_callbacks(execute=True):
        held = notify(recipient=player, event="level_up", campaign=campaign, title="Level 3")
        sent = notify(recipient=player, event="your_turn", campaign=campaign, title="Go")
    assert _channels(held) == {"email": "held"}
    assert _channels(sent) == {"email": "sent"}


def test_all_channels_off_stores_the_event_but_sends_nothing(player, campaign):
    _prefs(player, channels={"level_up": []})
    n = notify(recipient=player, event="level_up", campaign=campaign, title="Level 3")
    assert n is not None
    assert _channels(n) == {}


def test_same_dedupe_key_is_a_no_op_per_recipient(player, other_player, campaign):
    first = notify(
        recipient=player, event="loot_awarded", campaign=campaign, title="Gold", dedupe_key="loot:1"
    )
    again = notify(
        recipient=player, event="loot_awarded", campaign=campaign, title="Gold", dedupe_key="loot:1"
    )
    other = notify(
        recipient=other_player,
        event="loot_awarded",
        campaign=campaign,
        title="Gold",
        dedupe_key="loot:1",
    )
    assert first is not None and again is None and other is not None
    assert Notification.objects.filter(recipient=player).count() == 1
    assert Delivery.objects.filter(notification__recipient=player).count() == 1


def test_a_duplicate_leaves_the_callers_transaction_usable(player, campaign):
    with transaction.atomic():
        notify(recipient=player, event="level_up", title="L2", dedupe_key="lvl:2")
        assert notify(recipient=player, event="level_up", title="L2", dedupe_key="lvl:2") is None
        notify(recipient=player, event="level_up", title="L3", dedupe_key="lvl:3")
    assert Notification.objects.filter(recipient=player).count() == 2


def test_unknown_event_is_refused(player):
    with pytest.raises(ValueError):
        notify(recipient=player, event="dragon_sighted", title="?")


def test_delivery_attempt_is_idempotent(player, campaign):
    _prefs(player, channels={"your_turn": ["email", "in_app"]})
    n = notify(recipient=player, event="your_turn", campaign=campaign, title="Go")
    for delivery in n.deliveries.all():
        assert delivery_attempt(delivery_id=delivery.pk).outcome == "sent"
        assert delivery_attempt(delivery_id=delivery.pk).outcome == "noop"
        assert notification_tasks.deliver.apply(args=[delivery.pk]).get() == "noop"
    assert len(mail.outbox) == 1
    assert mail.outbox[0].extra_headers["Message-ID"].startswith("<delivery-")
    assert list(n.deliveries.values_list("attempts", flat=True)) == [1, 1]
    assert delivery_attempt(delivery_id=999_999).outcome == "noop"


def test_webhook_delivery_posts_discord_json_once(player, campaign, receiver):
    _prefs(player, channels={"your_turn": ["webhook"]}, webhook_url=receiver.url)
    n = notify(
        recipient=player,
        event="your_turn",
        campaign=campaign,
        title="Your turn in the Scarlet Mist",
        body="Reimu is waiting.",
        url="/campaigns/7/",
    )
    delivery = n.deliveries.get()
    assert delivery_attempt(delivery_id=delivery.pk).outcome == "sent"
    assert delivery_attempt(delivery_id=delivery.pk).outcome == "noop"
    assert len(receiver.requests) == 1
    body = receiver.requests[0].body
    assert body["content"] == "Your turn in the Scarlet Mist"
    assert body["embeds"] == [
        {
            "title": "Your turn in the Scarlet Mist",
            "description": "Reimu is waiting.",
            "url": "http://127.0.0.1:8000/campaigns/7/",
        }
    ]
    assert body["allowed_mentions"] == {"parse": []}
    assert receiver.keys() == [f"delivery-{delivery.pk}"]


def test_transient_failures_retry_with_backoff_then_fail(player, campaign, receiver, settings):
    settings.NOTIFICATION_MAX_ATTEMPTS = 3
    receiver.default_status = 503
    _prefs(player, channels={"your_turn": ["webhook"]}, webhook_url=receiver.url)
    delivery = notify(recipient=player, event="your_turn", title="Go").deliveries.get()
    first = delivery_attempt(delivery_id=delivery.pk)
    second = delivery_attempt(delivery_id=delivery.pk)
    third = delivery_attempt(delivery_id=delivery.pk)
    assert (first.outcome, second.outcome, third.outcome) == ("retry", "retry", "failed")
    assert first.retry_in is not None and second.retry_in is not None
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("failed", 3)
    assert "503" in delivery.last_error
    assert delivery_attempt(delivery_id=delivery.pk).outcome == "noop"
    assert len(receiver.requests) == 3


def test_a_transient_failure_then_success(player, receiver):
    receiver.statuses.extend([500])
    _prefs(player, channels={"your_turn": ["webhook"]}, webhook_url=receiver.url)
    delivery = notify(recipient=player, event="your_turn", title="Go").deliveries.get()
    assert delivery_attempt(delivery_id=delivery.pk).outcome == "retry"
    assert delivery_attempt(delivery_id=delivery.pk).outcome == "sent"
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_error) == ("sent", 2, "")
    assert receiver.keys() == [f"delivery-{delivery.pk}"] * 2


def test_permanent_failure_is_not_retried(player, receiver):
    receiver.default_status = 404
    _prefs(player, channels={"your_turn": ["webhook"]}, webhook_url=receiver.url)
    delivery = notify(recipient=player, event="your_turn", title="Go").deliveries.get()
    assert delivery_attempt(delivery_id=delivery.pk).outcome == "failed"
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("failed", 1)


def test_target_removed_after_the_event_is_skipped(player, receiver):
    pref = _prefs(player, channels={"your_turn": ["webhook"]}, webhook_url=receiver.url)
    delivery = notify(recipient=player, event="your_turn", title="Go").deliveries.get()
    pref.webhook_url = ""
    pref.save()
    assert delivery_attempt(delivery_id=delivery.pk).outcome == "skipped"
    delivery.refresh_from_db()
    assert delivery.status == "skipped"
    assert receiver.requests == []


def test_attempts_that_never_finished_are_bounded(player, settings):
    """A message that keeps killing its worker is redelivered (reject_on_worker_lost) but runs
    out of attempts, because each attempt is counted before the send."""
    settings.NOTIFICATION_MAX_ATTEMPTS = 2
    _prefs(player, channels={"your_turn": ["email"]})
    delivery = notify(recipient=player, event="your_turn", title="Go").deliveries.get()
    Delivery.objects.filter(pk=delivery.pk).update(attempts=2)
    assert delivery_attempt(delivery_id=delivery.pk).outcome == "noop"
    delivery.refresh_from_db()
    assert delivery.status == "failed"
    assert "did not finish" in delivery.last_error
    assert mail.outbox == []


def test_backoff_is_exponential_jittered_and_capped(settings):
    settings.NOTIFICATION_RETRY_BASE_SECONDS = 10
    settings.NOTIFICATION_RETRY_MAX_SECONDS = 600
    rng = random.Random(3)
    for attempt, ceiling in ((1, 10), (2, 20), (3, 40), (6, 320), (7, 600), (12, 600)):
        delays = [backoff_seconds(attempt, rng=rng) for _ in range(50)]
        assert all(ceiling / 2 <= d <= ceiling for d in delays)
        assert len(set(delays)) > 1  # jitter
    assert backoff_seconds(1, retry_after=120, rng=rng) == 120  # Retry-After honoured
    assert backoff_seconds(1, retry_after=10_000, rng=rng) == 600  # …up to the cap


def test_task_retries_through_celery_with_the_backoff(player, receiver, monkeypatch):
    """Outside eager mode a transient failure becomes ``self.retry(countdown=backoff)``."""
    receiver.default_status = 502
    _prefs(player, channels={"your_turn": ["webhook"]}, webhook_url=receiver.url)
    delivery = notify(recipient=player, event="your_turn", title="Go").deliveries.get()
    calls = []

    class Retried(Exception):
        pass

    def fake_retry(**kwargs):
        calls.append(kwargs)
        return Retried()

    task = notification_tasks.deliver
    monkeypatch.setattr(task, "retry", fake_retry)
    task.push_request(is_eager=False, retries=0)
    try:
        with pytest.raises(Retried):
            task.run(delivery.pk)
    finally:
        task.pop_request()
    assert len(calls) == 1 and 5 <= calls[0]["countdown"] <= 10
    assert task.acks_late and task.reject_on_worker_lost
    assert task.soft_time_limit and task.time_limit > task.soft_time_limit


def test_eager_mode_leaves_a_transient_failure_pending(player, receiver):
    receiver.default_status = 500
    _prefs(player, channels={"your_turn": ["webhook"]}, webhook_url=receiver.url)
    delivery = notify(recipient=player, event="your_turn", title="Go").deliveries.get()
    assert notification_tasks.deliver.apply(args=[delivery.pk]).get() == "retry-later"
    delivery.refresh_from_db()
    assert delivery.status == "pending"


def test_notify_campaign_reaches_members_and_the_campaign_webhook_once(
    gm, player, other_player, campaign, receiver, django_capture_on_commit_callbacks
):
    CampaignNotificationSettings.objects.create(
        campaign=campaign, webhook_url=receiver.url, events=["session_reminder"]
    )
    for user in (gm, player, other_player):
        _prefs(user, channels={"session_reminder": ["in_app"]})
    with django_capture_on_commit_callbacks(execute=True):
        created = notify_campaign(
            campaign=campaign,
            event="session_reminder",
            title="Session in an hour",
            dedupe_key="session:1:hour",
            exclude=[gm],
        )
        again = notify_campaign(
            campaign=campaign,
            event="session_reminder",
            title="Session in an hour",
            dedupe_key="session:1:hour",
        )
    assert {n.recipient for n in created} == {player, other_player}
    assert [n.recipient for n in again] == [gm]
    assert len(receiver.requests) == 1
    assert receiver.requests[0].body["content"] == "Session in an hour"
    campaign_note = Notification.objects.get(recipient__isnull=True)
    assert _channels(campaign_note) == {"webhook": "sent"}


def test_campaign_webhook_only_takes_its_chosen_events(campaign, receiver):
    CampaignNotificationSettings.objects.create(
        campaign=campaign, webhook_url=receiver.url, events=["level_up"]
    )
    notify_campaign(campaign=campaign, event="your_turn", title="Go")
    assert not Notification.objects.filter(recipient__isnull=True).exists()


def test_user_without_email_gets_no_email_delivery(campaign):
    user = UserFactory(username="no-mail", email="")
    n = notify(recipient=user, event="turn_reminder", campaign=campaign, title="Still your turn")
    assert _channels(n) == {"in_app": "pending"}


@pytest.mark.parametrize("url", ["javascript:alert(1)", "//evil.example/x", "data:text/html,x"])
def test_links_must_be_site_paths_or_http(player, url):
    with pytest.raises(ValueError, match="site path"):
        notify(recipient=player, event="level_up", title="x", url=url)
    assert not Notification.objects.exists()


def test_site_paths_and_http_links_are_kept(player):
    for url in ("/campaigns/3/", "https://discord.com/channels/1", ""):
        assert notify(recipient=player, event="level_up", title="x", url=url).url == url


def test_a_soft_time_limit_becomes_a_retry(monkeypatch):
    from celery.exceptions import SoftTimeLimitExceeded

    def too_slow(**ids):
        raise SoftTimeLimitExceeded()

    calls = []

    class Retried(Exception):
        pass

    def fake_retry(**kwargs):
        calls.append(kwargs)
        return Retried()

    task = notification_tasks.deliver
    monkeypatch.setattr(notification_tasks.delivery, "delivery_attempt", too_slow)
    monkeypatch.setattr(task, "retry", fake_retry)
    task.push_request(is_eager=False, retries=2)
    try:
        with pytest.raises(Retried):
            task.run(1)
    finally:
        task.pop_request()
    assert calls and calls[0]["countdown"] > 0


def test_in_app_deliveries_of_one_transaction_share_one_batch(
    player, campaign, django_capture_on_commit_callbacks
):
    """One on-commit batch per transaction for its in-app deliveries; one inside a rolled-back
    savepoint is not delivered (its row is gone), the others are, once each."""
    _prefs(player, channels={"loot_awarded": ["in_app"]})
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        kept = notify(recipient=player, event="loot_awarded", title="Kept")
        with pytest.raises(RuntimeError), transaction.atomic():
            notify(recipient=player, event="loot_awarded", title="Rolled back")
            raise RuntimeError("refused")
        also = notify(recipient=player, event="loot_awarded", title="Also kept")
    assert len(callbacks) == 1
    assert sorted(Notification.objects.values_list("title", flat=True)) == ["Also kept", "Kept"]
    for n in (kept, also):
        n.refresh_from_db()
        assert n.in_app_at is not None
        assert _channels(n) == {"in_app": "sent"}
        assert n.deliveries.get().attempts == 1
    ids = list(Delivery.objects.values_list("pk", flat=True))
    assert notification_tasks.deliver_in_app.apply(args=[ids]).get() == "noop"
    assert list(Delivery.objects.values_list("attempts", flat=True)) == [1, 1]
