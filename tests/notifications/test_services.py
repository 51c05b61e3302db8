"""notify(): rows per preference, enqueue on commit only, dedupe, urgency, quiet mode, and the
delivery attempt's idempotency, retries with backoff and bounds (tasks run eagerly here, except
the tests marked ``integration``, which retry through a real worker)."""

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
from tests.notifications.celery_worker import CeleryWorker, real_publishing, wait_for

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
        "thread_mention",
        "thread_digest",
        "wiki_update",
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
    assert len(_batches(callbacks)) == 1
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


RETRY_BASE = 2.0  # NOTIFICATION_RETRY_BASE_SECONDS for the real-worker tests: waits of 1-2 s


@pytest.fixture
def fast_retrying_worker(django_db_setup):
    """A real worker whose notification backoff starts at RETRY_BASE seconds, logging every
    task it runs and retries; this process publishes to it for the test's length."""
    with real_publishing():
        worker = CeleryWorker(
            environ={"NOTIFICATION_RETRY_BASE_SECONDS": str(RETRY_BASE)}, loglevel="INFO"
        )
        try:
            yield worker.start()
        finally:
            worker.stop()


def _sent(delivery: Delivery, worker: CeleryWorker) -> Delivery:
    wait_for(
        lambda: Delivery.objects.get(pk=delivery.pk).status == "sent",
        timeout=60,
        what=f"the delivery sent:\n{worker.output()}",
    )
    worker.wait_ready(20)  # a ping behind it in the queue: anything duplicated ran by now
    delivery.refresh_from_db()
    return delivery


@pytest.mark.integration
@pytest.mark.xdist_group("celery-worker")
@pytest.mark.django_db(transaction=True)
def test_task_retries_through_celery_with_the_backoff(player, receiver, fast_retrying_worker):
    """A real worker and a receiver that answers 502, then 200: the task retries through
    Celery after the first attempt's backoff (the upper half of base·2⁰) and sends once."""
    worker = fast_retrying_worker
    receiver.statuses.append(502)
    receiver.default_status = 200
    _prefs(player, channels={"your_turn": ["webhook"]}, webhook_url=receiver.url)
    with transaction.atomic():
        notification = notify(recipient=player, event="your_turn", title="Go")
    delivery = _sent(notification.deliveries.get(), worker)
    assert (delivery.attempts, delivery.last_error, delivery.retry_at) == (2, "", None)
    assert receiver.keys() == [f"delivery-{delivery.pk}"] * 2
    (countdown,) = worker.retry_countdowns("notifications.deliver")
    assert RETRY_BASE / 2 <= countdown <= RETRY_BASE
    task = notification_tasks.deliver
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


@pytest.mark.integration
@pytest.mark.xdist_group("celery-worker")
@pytest.mark.django_db(transaction=True)
def test_a_soft_time_limit_becomes_a_retry(player, receiver, fast_retrying_worker):
    """A real slow delivery: the receiver holds the first POST longer than the soft time
    limit this message carries (Celery's per-call ``soft_time_limit``), so the worker's soft
    limit interrupts the send; the task retries after the backoff, and the receiver answers
    the retry at once. Nothing fails or hangs, and the delivery is sent once."""
    worker = fast_retrying_worker
    receiver.hold_first = True  # until the test ends, far past the soft limit
    _prefs(player, channels={"your_turn": ["webhook"]}, webhook_url=receiver.url)
    # Rows made directly: notify() would also publish the task with its 30 s limit on commit.
    notification = Notification.objects.create(recipient=player, event="your_turn", title="Go")
    delivery = Delivery.objects.create(notification=notification, channel="webhook")
    notification_tasks.deliver.apply_async(args=[delivery.pk], soft_time_limit=2, time_limit=20)
    delivery = _sent(delivery, worker)
    log = worker.log_text()
    assert "Soft time limit (2s) exceeded for notifications.deliver" in log
    assert "interrupted: SoftTimeLimitExceeded" in log
    (countdown, *_) = worker.retry_countdowns("notifications.deliver")
    assert RETRY_BASE / 2 <= countdown <= RETRY_BASE
    assert delivery.attempts >= 2 and delivery.last_error == ""
    # The held POST never got its answer, so a later one did; all carry the same key.
    assert len(receiver.requests) >= 2
    assert set(receiver.keys()) == {f"delivery-{delivery.pk}"}
    assert "Hard time limit" not in log


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
    assert len(_batches(callbacks)) == 1
    assert sorted(Notification.objects.values_list("title", flat=True)) == ["Also kept", "Kept"]
    for n in (kept, also):
        n.refresh_from_db()
        assert n.in_app_at is not None
        assert _channels(n) == {"in_app": "sent"}
        assert n.deliveries.get().attempts == 1
    ids = list(Delivery.objects.values_list("pk", flat=True))
    assert notification_tasks.deliver_in_app.apply(args=[ids]).get() == "noop"
    assert list(Delivery.objects.values_list("attempts", flat=True)) == [1, 1]


def test_the_public_names_resolve_once_and_then_are_plain_attributes() -> None:
    """Every move imports ``turn_wait_end`` inside a function; after the first lookup the
    package holds the name itself, so later imports skip the lazy lookup (PEP 562's
    ``__getattr__`` runs only for names the module lacks)."""
    import notifications
    from notifications import reminders

    for name in ("turn_wait_end", "turn_wait_start"):
        resolved = getattr(notifications, name)
        assert resolved is getattr(reminders, name)
        assert notifications.__dict__[name] is resolved


def _batches(callbacks):
    """The on-commit callbacks that deliver: the bell's push note (apibase/push.py), which a
    delivery registers once it has run, is not one."""
    return [c for c in callbacks if "send_on_commit" not in getattr(c, "__qualname__", "")]
