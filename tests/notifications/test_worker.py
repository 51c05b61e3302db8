"""Against a real Celery worker on the real Redis broker: an event committed here is delivered
exactly once per enabled channel; an event whose transaction rolls back publishes nothing.

The worker is a ``celery -A config worker`` subprocess on this test database (transaction=True
tests commit, so it sees the rows) and this process's own Redis key prefix (config/settings/
test.py), so parallel test processes never take each other's tasks.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from celery.signals import before_task_publish
from django.db import transaction

from notifications import notify
from notifications.models import Delivery, Notification, NotificationPreference
from tests.factories import UserFactory
from tests.notifications.celery_worker import CeleryWorker, real_publishing, wait_for

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("celery-worker"),
]


@pytest.fixture(scope="module")
def worker(django_db_setup, tmp_path_factory):
    email_dir = tmp_path_factory.mktemp("worker-mail")
    with real_publishing():
        w = CeleryWorker(email_dir=str(email_dir))
        try:
            w.start()
            yield w
        finally:
            w.stop()


@pytest.fixture
def published():
    """Delivery ids this process publishes to the broker."""
    sent: list[int] = []

    def record(sender=None, body=None, headers=None, **kwargs):
        task = headers.get("task") if headers else None
        if task == "notifications.deliver":
            sent.append(body[0][0])
        elif task == "notifications.deliver_in_app":  # a batch: every id in it
            sent.extend(body[0][0])

    before_task_publish.connect(record, weak=False)
    yield sent
    before_task_publish.disconnect(record)


def _emails(worker: CeleryWorker, subject: str) -> int:
    files = Path(worker.email_dir or "").glob("*.log")
    return sum(f.read_text().count(f"Subject: {subject}") for f in files)


def test_this_process_really_publishes(worker):
    from config.celery import app

    assert app.conf.task_always_eager is False


def test_a_committed_event_is_delivered_exactly_once_per_channel(worker, receiver, published):
    user = UserFactory(username="worker-reimu", email="reimu@example.com")
    NotificationPreference.objects.create(
        user=user,
        channels={"your_turn": ["in_app", "email", "webhook"]},
        webhook_url=receiver.url,
    )
    with transaction.atomic():
        notification = notify(
            recipient=user, event="your_turn", title="Your turn at the shrine", url="/c/1/"
        )
        assert published == []  # nothing leaves before the commit
    deliveries = Delivery.objects.filter(notification=notification)
    wait_for(
        lambda: deliveries.filter(status="sent").count() == 3,
        what=f"three sent deliveries:\n{worker.output()}",
    )
    worker.wait_ready(20)  # a ping behind them in the queue: anything duplicated ran by now
    assert sorted(published) == sorted(deliveries.values_list("pk", flat=True))
    assert sorted(deliveries.values_list("channel", "status", "attempts")) == [
        ("email", "sent", 1),
        ("in_app", "sent", 1),
        ("webhook", "sent", 1),
    ]
    notification.refresh_from_db()
    assert notification.in_app_at is not None
    assert len(receiver.requests) == 1
    assert receiver.requests[0].body["content"] == "Your turn at the shrine"
    assert _emails(worker, "[Western Roses] Your turn at the shrine") == 1


def test_a_rolled_back_event_sends_nothing(worker, receiver, published):
    user = UserFactory(username="worker-marisa", email="marisa@example.com")
    NotificationPreference.objects.create(
        user=user, channels={"your_turn": ["in_app", "webhook"]}, webhook_url=receiver.url
    )
    with pytest.raises(RuntimeError), transaction.atomic():
        notify(recipient=user, event="your_turn", title="Refused move")
        raise RuntimeError("the move was refused")
    assert published == []
    assert not Notification.objects.exists()
    # A committed event after it: once it is delivered, anything queued before it has run too.
    with transaction.atomic():
        sentinel = notify(recipient=user, event="your_turn", title="Accepted move")
    wait_for(
        lambda: not Delivery.objects.filter(notification=sentinel).exclude(status="sent").exists(),
        what=f"the sentinel's deliveries:\n{worker.output()}",
    )
    assert list(Notification.objects.values_list("title", flat=True)) == ["Accepted move"]
    assert len(published) == 2
    assert [r.body["content"] for r in receiver.requests] == ["Accepted move"]


def test_a_burst_in_one_transaction_is_delivered_in_batches_exactly_once(worker):
    """Issue 15: in-app deliveries committed together go out as one task per batch (not one
    per delivery), each delivered once; a batch delivered again (a redelivered message)
    changes nothing."""
    from notifications.tasks import IN_APP_BATCH, deliver_in_app

    batches: list[list[int]] = []

    def record(sender=None, body=None, headers=None, **kwargs):
        if headers and headers.get("task") == "notifications.deliver_in_app":
            batches.append(list(body[0][0]))

    user = UserFactory(username="worker-sakuya", email="")
    NotificationPreference.objects.create(user=user, channels={"loot_awarded": ["in_app"]})
    count = IN_APP_BATCH + 30
    before_task_publish.connect(record, weak=False)
    try:
        with transaction.atomic():
            ids = [
                notify(recipient=user, event="loot_awarded", title=f"Loot {i}").pk
                for i in range(count)
            ]
            assert batches == []  # nothing leaves before the commit
        deliveries = Delivery.objects.filter(notification_id__in=ids)
        wait_for(
            lambda: deliveries.filter(status="sent").count() == count,
            what=f"{count} sent deliveries:\n{worker.output()}",
        )
        assert [len(b) for b in batches] == [IN_APP_BATCH, 30]
        published = [pk for batch in batches for pk in batch]
        assert sorted(published) == sorted(deliveries.values_list("pk", flat=True))
        deliver_in_app.apply_async(args=[published])  # the same batch again
        worker.wait_ready(20)  # a ping behind it: it has run
    finally:
        before_task_publish.disconnect(record)
    assert deliveries.filter(status="sent", attempts=1).count() == count
    assert Notification.objects.filter(pk__in=ids, in_app_at__isnull=False).count() == count
