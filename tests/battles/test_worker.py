"""Against a real Celery worker on the real Redis broker: a battle's turn passing to a player
delivers exactly one "your turn" notification, even when the task is published again.

The worker is the notification tests' ``celery -A config worker`` subprocess
(tests/notifications/celery_worker.py) on this test database and this process's own Redis key
prefix; ``transaction=True`` commits the moves, so on-commit publishing really happens.
"""

from __future__ import annotations

import pytest
from celery.signals import before_task_publish

from battles import services
from battles.tasks import battle_turn_notify
from notifications.models import Delivery, Notification, TurnWait
from tests.battles.conftest import play_until
from tests.notifications.celery_worker import CeleryWorker, real_publishing, wait_for

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("celery-worker"),
]


@pytest.fixture(scope="module")
def worker(django_db_setup):
    with real_publishing():
        w = CeleryWorker()
        try:
            w.start()
            yield w
        finally:
            w.stop()


@pytest.fixture
def published():
    """(task name, args) this process publishes."""
    sent: list[tuple[str, list]] = []

    def record(sender=None, body=None, headers=None, **kwargs):
        if headers and headers.get("task", "").startswith("battles."):
            sent.append((headers["task"], list(body[0])))

    before_task_publish.connect(record, weak=False)
    yield sent
    before_task_publish.disconnect(record)


def test_a_turn_change_delivers_exactly_one_your_turn(worker, started, gm, player, published):
    from config.celery import app

    assert app.conf.task_always_eager is False
    play_until(started, gm, started.other_pc)
    published.clear()
    battle = started.refresh()
    for _ in range(20):  # end turns until the player's character is up
        if battle.state["current"] == started.pc:
            break
        services.battle_action_apply(
            battle_id=battle.pk,
            actor=gm,
            action={"type": "end_turn", "combatant": battle.state["current"]},
            expected_version=battle.version,
        )
        battle = started.refresh()
    assert ("battles.turn_notify", [battle.pk, battle.version]) in published
    notes = Notification.objects.filter(recipient=player, event="your_turn")
    key = f"battle:{battle.pk}:turn:{battle.state['turn_number']}"
    this_turn = notes.filter(dedupe_key=f"your_turn:{key}")
    # the newest alert replaces her earlier turns' (one per battle): wait for this one
    wait_for(
        lambda: Delivery.objects.filter(
            notification__in=this_turn, channel="in_app", status="sent"
        ).exists(),
        what=f"the in-app your_turn delivery:\n{worker.output()}",
    )
    wait = TurnWait.objects.get(user=player, ended_at__isnull=True)
    assert wait.key == key
    before = notes.count()
    # the same task again (a redelivery): nothing new
    battle_turn_notify.apply_async(args=[battle.pk, battle.version])
    worker.wait_ready(20)  # a ping queued behind it: it has run
    assert this_turn.count() == 1
    assert notes.count() == before
    assert notes.filter(read_at__isnull=True).get() == this_turn.get()
    assert Delivery.objects.filter(notification__in=this_turn, channel="in_app").count() == 1
