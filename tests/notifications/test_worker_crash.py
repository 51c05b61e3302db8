"""A worker killed mid-delivery neither loses the notification nor records it twice.

The webhook receiver holds the first POST until the worker has been killed with SIGKILL, so
the kill lands inside the send step, after the receiver got the request and before the worker
committed "sent". The message was never acknowledged (``acks_late``), so it is redelivered:

* kill the pool child: the worker's main process sees the child die and requeues the message
  at once (``reject_on_worker_lost``);
* kill the whole worker: the message stays in Redis's unacknowledged set and the next worker
  restores it once the visibility timeout passes (shortened for the test).

The redelivered run finds the row still pending (the killed run's transaction rolled back) and
sends again. The receiver therefore sees the POST twice — at-least-once is all any network
send can promise — with the same Idempotency-Key, so a receiver that honours it keeps one; the
stored outcome is exactly one delivery, sent, after two attempts.
"""

from __future__ import annotations

import os
import signal

import pytest
from django.db import transaction

from notifications import notify, webpush
from notifications.models import Delivery, NotificationPreference, PushSubscription
from tests.factories import UserFactory
from tests.notifications.celery_worker import CeleryWorker, real_publishing, wait_for
from tests.notifications.push_service import PushService

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("celery-worker"),
]


@pytest.fixture
def start_worker(django_db_setup):
    started: list[CeleryWorker] = []

    def start(**kwargs) -> CeleryWorker:
        worker = CeleryWorker(**kwargs)
        started.append(worker)
        return worker.start()

    with real_publishing():
        yield start
        for worker in started:
            worker.stop()


def _webhook_only_user(receiver):
    user = UserFactory(username="crash-sakuya")
    NotificationPreference.objects.create(
        user=user, channels={"your_turn": ["webhook"]}, webhook_url=receiver.url
    )
    return user


def _raise_event(user) -> Delivery:
    with transaction.atomic():
        notification = notify(recipient=user, event="your_turn", title="Time stops for you")
    return Delivery.objects.get(notification=notification)


def _assert_delivered_once(delivery: Delivery, receiver, worker: CeleryWorker) -> None:
    wait_for(
        lambda: Delivery.objects.get(pk=delivery.pk).status == "sent",
        timeout=30,
        what=f"the redelivered delivery:\n{worker.output()}",
    )
    worker.wait_ready(20)  # nothing else is left in the queue
    assert Delivery.objects.filter(notification=delivery.notification).count() == 1
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == ("sent", 2)
    key = f"delivery-{delivery.pk}"
    assert receiver.keys() == [key, key]
    assert list(receiver.deduplicated()) == [key]


def test_killed_pool_process_is_requeued_and_delivered_once(start_worker, receiver):
    worker = start_worker()
    receiver.hold_first = True
    delivery = _raise_event(_webhook_only_user(receiver))
    assert receiver.arrived.wait(20), worker.output()
    (child,) = worker.pool_children()
    os.kill(child, signal.SIGKILL)
    receiver.release.set()
    _assert_delivered_once(delivery, receiver, worker)
    assert worker.proc is not None and worker.proc.poll() is None  # only the child died


def test_killed_worker_is_redelivered_to_the_next_worker_once(start_worker, receiver):
    first = start_worker()
    receiver.hold_first = True
    delivery = _raise_event(_webhook_only_user(receiver))
    assert receiver.arrived.wait(20), first.output()
    first.kill()
    receiver.release.set()
    assert Delivery.objects.get(pk=delivery.pk).status == "pending"
    second = start_worker(visibility_timeout=2)
    _assert_delivered_once(delivery, receiver, second)


def test_killed_worker_is_swept_and_delivered_once_without_waiting_for_the_broker(
    start_worker, receiver, settings
):
    """Hardening finding 6: with the production visibility timeout (an hour) the killed
    worker's message stays unacknowledged in Redis; the stale sweeper (the beat task, run here
    as beat would run it) re-enqueues the pending row once it is older than the cutoff, and the
    next worker delivers it exactly once."""
    import time

    from notifications.tasks import requeue_stale_deliveries

    settings.NOTIFICATION_STALE_SECONDS = 2
    first = start_worker()
    receiver.hold_first = True
    delivery = _raise_event(_webhook_only_user(receiver))
    assert receiver.arrived.wait(20), first.output()
    first.kill()
    receiver.release.set()
    second = start_worker()  # the default, production-like visibility timeout: no restore
    time.sleep(2.5)
    assert Delivery.objects.get(pk=delivery.pk).status == "pending"
    assert requeue_stale_deliveries() == 1
    _assert_delivered_once(delivery, receiver, second)


def test_killed_pool_process_mid_push_is_requeued_and_shows_once(start_worker, settings):
    """The same for the push channel: the push service (the stand-in that verifies and
    decrypts) takes the first push and holds its answer while the pool child is killed; the
    redelivered run pushes again with the same tag and Topic, so the device shows one
    notification, and the stored outcome is one delivery, sent, after two attempts."""
    key = webpush.generate_private_key()
    settings.VAPID_PRIVATE_KEY = key
    service = PushService(application_server_key=webpush.public_key(), hold_first=True).start()
    try:
        device = service.device()
        user = UserFactory(username="crash-sanae")
        NotificationPreference.objects.create(user=user, channels={"your_turn": ["push"]})
        keys = device.subscription()["keys"]
        PushSubscription.objects.create(
            user=user, endpoint=device.endpoint, p256dh=keys["p256dh"], auth=keys["auth"]
        )
        worker = start_worker(environ={"VAPID_PRIVATE_KEY": key})
        delivery = _raise_event(user)
        assert delivery.channel == "push"
        assert service.arrived.wait(20), worker.output()
        (child,) = worker.pool_children()
        os.kill(child, signal.SIGKILL)
        service.release.set()
        wait_for(
            lambda: Delivery.objects.get(pk=delivery.pk).status == "sent",
            timeout=30,
            what=f"the redelivered push:\n{worker.output()}",
        )
        worker.wait_ready(20)
        delivery.refresh_from_db()
        assert (delivery.status, delivery.attempts) == ("sent", 2)
        tag = f"delivery-{delivery.pk}"
        pushed = service.accepted(device)
        assert [p.payload["tag"] for p in pushed if p.payload] == [tag, tag]
        assert {p.headers["topic"] for p in pushed} == {tag}
        assert pushed[0].payload == pushed[1].payload  # the same words, shown once by tag
    finally:
        service.stop()
