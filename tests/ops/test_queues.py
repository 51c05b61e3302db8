"""Work split by kind: every task has a queue of its kind, and a worker started for the quick
queue delivers a "your turn" while the slow queue is full of digests that take seconds each.

The workers are real ``celery -A config worker -Q <queue>`` processes on the real Redis broker
(tests/notifications/celery_worker.py); the digests are real ``notifications.deliver_digest``
tasks posting to a webhook receiver that holds each request for seconds, as a slow webhook
host does.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
import redis
from django.conf import settings
from django.utils import timezone

from notifications import notify
from notifications.delivery import digests_build
from notifications.models import Delivery, Digest, NotificationPreference
from tables import services
from tables.registry import game_for
from tests.factories import UserFactory
from tests.games.duel import ENGINE
from tests.games.duel_tables.models import DuelTable
from tests.notifications.celery_worker import CeleryWorker, real_publishing, wait_for

#: Every task of the project and the kind of work it is (docs/deploy.md, "Workers and queues").
KINDS = {
    "turns": {
        "tables.turn_notify",
        "battles.turn_notify",
        "tables.requeue_lost_waits",
        "tables.clock_due",
        "tables.clock_sweep",
        "minigames.reaction_timeouts",
        "minigames.requeue_lost_bot_moves",
    },
    "notify": {
        "notifications.deliver",
        "notifications.deliver_in_app",
        "notifications.deliver_digest",
        "notifications.send_turn_reminders",
        "notifications.send_scheduled_notifications",
        "gmtools.send_rsvp_reminders",
        "notifications.send_digests",
        "notifications.requeue_stale_deliveries",
        "notifications.ping",
        "threads.send_daily_digests",
    },
    "bots": {"minigames.bot_move", "minigames.advise"},
    "bulk": {
        "config.clear_expired_sessions",
        "config.prune_notifications",
        "config.prune_table_talk",
        "config.prune_finished_tables",
    },
}


def test_every_task_of_the_project_is_routed_to_the_queue_of_its_kind():
    """A task with no route would land in the default queue beside the notifications; each
    kind has its own queue, and the queues are listed quickest first (a worker that takes them
    all asks them in that order)."""
    from config.celery import app

    app.loader.import_default_modules()  # every app's tasks, as a worker loads them
    ours = {name for name in app.tasks if not name.startswith("celery.")}
    routes = settings.CELERY_TASK_ROUTES
    assert ours == set(routes), ours ^ set(routes)
    assert {name: routes[name]["queue"] for name in ours} == {
        name: kind for kind, names in KINDS.items() for name in names
    }
    assert settings.CELERY_QUEUE_NAMES == ("turns", "notify", "bots", "bulk")
    assert [q.name for q in app.conf.task_queues] == list(settings.CELERY_QUEUE_NAMES)
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["queue_order_strategy"] == "priority"
    assert settings.NOTIFICATION_URGENT_QUEUE == "turns"


def _queued(queue: str) -> int:
    """Messages waiting in ``queue`` (this test process's key prefix), taken by no worker."""
    prefix = settings.CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"]
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    try:
        return int(client.llen(f"{prefix}{queue}"))
    finally:
        client.close()


#: Seconds the slow webhook host holds each digest's POST (under WEBHOOK_TIMEOUT_SECONDS: each
#: digest is sent, slowly, not retried).
SLOW_POST = 3.0
SLOW_DIGESTS = 5
#: The bound on a "your turn" reaching the bell once the move is made, with its own worker free.
TURN_ALERT_BOUND = 10.0


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
@pytest.mark.xdist_group("celery-worker")
def test_a_your_turn_is_delivered_while_slow_digests_fill_the_notify_queue(
    campaign, player, other_player, receiver
):
    """Five digests, each held 3 s by a slow webhook host, keep the "notify" worker busy for
    15 s. A duel round revealed in the meantime tells both players it is their turn within
    10 s: "your turn" and its in-app delivery (an urgent notification) run on the "turns"
    worker, which no digest can hold up; digests are still waiting when the alerts arrive."""
    assert receiver.delay == 0
    receiver.delay = SLOW_POST
    for n in range(SLOW_DIGESTS):
        reader = UserFactory(username=f"digest-reader-{n}")
        NotificationPreference.objects.create(
            user=reader,
            channels={"loot_awarded": ["webhook"]},
            digest_minutes=15,
            webhook_url=receiver.url,
        )
        notify(recipient=reader, event="loot_awarded", campaign=campaign, title=f"Loot {n}")
    assert Delivery.objects.filter(status="held").count() == SLOW_DIGESTS
    with real_publishing():
        turns = CeleryWorker(queues=("turns",), loglevel="INFO")
        slow = CeleryWorker(queues=("notify",), loglevel="INFO")
        try:
            turns.start()
            slow.start()
            digest_ids = digests_build(now=timezone.now() + timedelta(minutes=16))
            assert len(digest_ids) == SLOW_DIGESTS
            wait_for(lambda: receiver.requests, what=f"the first digest:\n{slow.output()}")
            assert _queued("notify") >= SLOW_DIGESTS - 2  # the rest wait behind the first

            game = game_for("duel")
            state = ENGINE.new_game(seats=2, seed=7)
            table = services.table_create(
                game,
                table=DuelTable(campaign=campaign, seat0=player, seat1=other_player),
                state=state,
            )
            for seat, user in enumerate((player, other_player)):
                services.table_action_apply(
                    game,
                    table_id=table.pk,
                    actor=user,
                    action={"type": "play", "card": state["hands"][seat][0]},
                    expected_version=seat,
                )
            moved = time.monotonic()
            for user in (player, other_player):
                wait_for(
                    lambda user=user: Delivery.objects.filter(
                        notification__recipient=user,
                        notification__event="your_turn",
                        channel="in_app",
                        status="sent",
                    ).exists(),
                    timeout=TURN_ALERT_BOUND,
                    what=f"{user}'s your_turn:\n{turns.output()}",
                )
            took = time.monotonic() - moved
            waiting = Digest.objects.filter(status="pending").count()
            assert waiting >= 1, (took, waiting)  # the slow queue was still full
            assert len(receiver.requests) < SLOW_DIGESTS
            assert took < TURN_ALERT_BOUND
            assert turns.received("notifications.deliver_digest") == 0
            assert slow.received("tables.turn_notify") == 0
            assert slow.received("notifications.deliver_in_app") == 0
        finally:
            receiver.release.set()  # the held POSTs answer at once now
            turns.stop()
            slow.stop()


def test_make_run_runs_every_task_eagerly_whatever_its_queue():
    """The embedded default (``make run``: no Redis) has no broker and no queues to speak of:
    a task sent to any queue runs at once in the web process, and beat keeps Celery's own
    scheduler (celery-redbeat needs Redis)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import django; django.setup();"
        "from django.conf import settings; from config.celery import app;"
        "from notifications.tasks import ping;"
        "results = [ping.apply_async(queue=q) for q in settings.CELERY_QUEUE_NAMES];"
        "print(app.conf.task_always_eager, all(r.successful() for r in results),"
        " getattr(settings, 'CELERY_BEAT_SCHEDULER', 'celery'))"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    done = subprocess.run(  # noqa: S603
        [sys.executable, "-c", code],
        cwd=Path(__file__).resolve().parent.parent.parent,
        env={**env, "DJANGO_SETTINGS_MODULE": "config.settings.local"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "celery"]
