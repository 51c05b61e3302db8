"""Against a real Celery worker on the real Redis broker: when a Secret Duel table starts
waiting on both seats again (a round is revealed), each player gets exactly one "your turn",
through the table core's own task; the seat still choosing gets none while she waits.

The worker is the notification tests' ``celery -A config worker`` subprocess
(tests/notifications/celery_worker.py) with the test settings, which install the duel app.
"""

from __future__ import annotations

import pytest
from celery.signals import before_task_publish

from notifications.models import Delivery, Notification, TurnWait
from tables import services
from tables.registry import game_for
from tables.tasks import table_turn_notify
from tests.games.duel import ENGINE
from tests.games.duel_tables.models import DuelTable
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
    sent: list[tuple[str, list, dict]] = []

    def record(sender=None, body=None, headers=None, **kwargs):
        if headers and headers.get("task", "").startswith("tables."):
            sent.append((headers["task"], list(body[0]), dict(body[1])))

    before_task_publish.connect(record, weak=False)
    yield sent
    before_task_publish.disconnect(record)


def test_a_new_round_tells_each_player_once(worker, campaign, player, other_player, published):
    from config.celery import app

    assert app.conf.task_always_eager is False
    game = game_for("duel")
    state = ENGINE.new_game(seats=2, seed=7)
    table = services.table_create(
        game, table=DuelTable(campaign=campaign, seat0=player, seat1=other_player), state=state
    )
    a, b = state["hands"][0][0], state["hands"][1][0]
    services.table_action_apply(
        game,
        table_id=table.pk,
        actor=player,
        action={"type": "play", "card": a},
        expected_version=0,
    )
    assert published == []  # seat 1 was already waited on: nothing new to announce
    services.table_action_apply(
        game,
        table_id=table.pk,
        actor=other_player,
        action={"type": "play", "card": b},
        expected_version=1,
    )
    assert published == [("tables.turn_notify", [table.pk, 2], {"slug": "duel"})]
    for user in (player, other_player):
        notes = Notification.objects.filter(recipient=user, event="your_turn")
        wait_for(
            lambda notes=notes: Delivery.objects.filter(
                notification__in=notes, channel="in_app", status="sent"
            ).exists(),
            what=f"the in-app your_turn delivery:\n{worker.output()}",
        )
    # The same task again (a redelivery): nothing new.
    table_turn_notify.apply_async(args=[table.pk, 2], kwargs={"slug": "duel"})
    worker.wait_ready(20)
    for user in (player, other_player):
        assert Notification.objects.filter(recipient=user, event="your_turn").count() == 1
        wait = TurnWait.objects.get(user=user, ended_at__isnull=True)
        assert wait.key.startswith(f"duel:{table.pk}:seat:")
        assert wait.campaign_id == campaign.pk
    # Seat 0 plays round 2: her wait ends at once (in the move's transaction).
    services.table_action_apply(
        game,
        table_id=table.pk,
        actor=player,
        action={"type": "play", "card": state["hands"][0][1]},
        expected_version=2,
    )
    assert not TurnWait.objects.filter(user=player, ended_at__isnull=True).exists()
    assert TurnWait.objects.filter(user=other_player, ended_at__isnull=True).count() == 1
