"""Beat runs its schedule once however many beats start, and a beat killed and started again
neither skips nor doubles a run (celery-redbeat: the schedule and a lock in Redis).

Real ``celery -A config beat`` processes (tests/notifications/celery_worker.py) run the session
reminders' entry ("notifications-scheduled") every few seconds instead of every minute, with a
real worker on the "notify" queue firing the reminders they find due; a run is a "Sending due
task" line in a beat's log, with its time.
"""

from __future__ import annotations

import itertools
import re
import time
from datetime import datetime, timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from notifications.models import Notification, ScheduledNotification
from tests.notifications.celery_worker import (
    CeleryBeat,
    CeleryWorker,
    real_publishing,
    wait_for,
)

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("celery-worker"),
]

ENTRY = "notifications-scheduled"
SENT = re.compile(
    r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}).*Sending due task " + re.escape(ENTRY) + r"\b"
)
STARTING = re.compile(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}).*beat: Starting")


def runs(beat: CeleryBeat, line: re.Pattern[str] = SENT) -> list[datetime]:
    """When ``beat`` sent the entry (or logged another ``line``), oldest first (the log's local
    times)."""
    return [
        datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S,%f") for stamp in line.findall(beat.log_text())
    ]


def _prefix(name: str) -> str:
    """A schedule of this test's own in Redis, under this process's prefix."""
    return f"{settings.TEST_CELERY_PREFIX}:redbeat-{name}-{time.monotonic_ns()}:"


def _beat(prefix: str, every: float, *, lock_timeout: int) -> CeleryBeat:
    return CeleryBeat(
        key_prefix=prefix,
        environ={
            "TEST_BEAT_ENTRIES": f"{ENTRY}={every}",
            "BEAT_LOCK_TIMEOUT": str(lock_timeout),
            "BEAT_MAX_LOOP_INTERVAL": "0.5",
        },
    )


def _reminders(campaign, player, offsets: list[float]) -> list[ScheduledNotification]:
    now = timezone.now()
    return [
        ScheduledNotification.objects.create(
            key=f"beat-test:{n}",
            recipient=player,
            campaign=campaign,
            event="session_reminder",
            title=f"Session reminder {n}",
            due_at=now + timedelta(seconds=offset),
        )
        for n, offset in enumerate(offsets)
    ]


def _each_fired_once(reminders: list[ScheduledNotification], player) -> None:
    for reminder in reminders:
        reminder.refresh_from_db()
        assert reminder.sent_at is not None, reminder.key
        assert reminder.sent_at >= reminder.due_at
    titles = list(
        Notification.objects.filter(recipient=player, event="session_reminder").values_list(
            "title", flat=True
        )
    )
    assert sorted(titles) == sorted(r.title for r in reminders)


def test_two_beats_at_once_send_each_run_once(campaign, player):
    """Two beats on one schedule: one takes the lock and sends, every second; the other waits
    for the lock and sends nothing. Six reminders due over 5 s fire once each."""
    every = 1.0
    prefix = _prefix("shared")
    with real_publishing():
        worker = CeleryWorker(queues=("notify",))
        first = _beat(prefix, every, lock_timeout=10)
        second = _beat(prefix, every, lock_timeout=10)
        try:
            worker.start()
            first.start()
            second.start()
            wait_for(
                lambda: runs(first) or runs(second),
                timeout=30,
                what=f"a first run:\n{first.output()}\n{second.output()}",
            )
            reminders = _reminders(campaign, player, [0.5 + 0.85 * n for n in range(6)])
            deadline = reminders[-1].due_at + timedelta(seconds=2 * every)
            wait_for(
                lambda: (
                    timezone.now() > deadline
                    and len(runs(first) + runs(second)) >= 5
                    and not ScheduledNotification.objects.filter(sent_at__isnull=True).exists()
                ),
                timeout=40,
                what=f"every reminder:\n{first.output()}\n{second.output()}\n{worker.output()}",
            )
            sent = {"first": runs(first), "second": runs(second)}
        finally:
            first.stop()
            second.stop()
            worker.stop()
    sending = [name for name, times in sent.items() if times]
    assert len(sending) == 1, sent  # exactly one beat sent anything
    times = sent[sending[0]]
    assert len(times) >= 5, times
    gaps = [(b - a).total_seconds() for a, b in itertools.pairwise(times)]
    assert all(every - 0.6 <= gap <= every + 1.0 for gap in gaps), gaps
    _each_fired_once(reminders, player)


def test_a_beat_killed_and_started_again_skips_and_doubles_nothing(campaign, player):
    """A beat sends every 2 s, is killed with SIGKILL just after a run (its lock still held in
    Redis) and started again at once. The new beat waits for the dead one's lock to run out,
    then carries on from the schedule's last run kept in Redis: no run comes sooner than the
    period after the last (a beat that forgot would send at once), and the one missed while
    the lock ran out is sent once as soon as it has the lock (nothing is skipped). The
    reminders due before, during and after fire once each."""
    every, lock_timeout = 2.0, 4
    prefix = _prefix("restart")
    with real_publishing():
        worker = CeleryWorker(queues=("notify",))
        beat = _beat(prefix, every, lock_timeout=lock_timeout)
        try:
            worker.start()
            beat.start()
            wait_for(lambda: runs(beat), timeout=30, what=beat.output())
            reminders = _reminders(campaign, player, [0.5 + 1.0 * n for n in range(9)])
            wait_for(lambda: len(runs(beat)) >= 2, timeout=30, what=beat.output())
            time.sleep(0.5)
            beat.kill()
            killed_after = len(runs(beat))
            beat.start()  # the same schedule, the dead beat's lock still in Redis
            deadline = reminders[-1].due_at + timedelta(seconds=every + 1)
            wait_for(
                lambda: (
                    timezone.now() > deadline
                    and len(runs(beat)) >= killed_after + 3
                    and not ScheduledNotification.objects.filter(sent_at__isnull=True).exists()
                ),
                timeout=60,
                what=f"every reminder:\n{beat.output()}\n{worker.output()}",
            )
            times = runs(beat)
            started = runs(beat, STARTING)
        finally:
            beat.stop()
            worker.stop()
    before, after = times[:killed_after], times[killed_after:]
    assert len(started) == 2, started
    assert len(before) == 2 and len(after) >= 3, times
    gaps = [(b - a).total_seconds() for a, b in itertools.pairwise(times)]
    restart_gap = gaps[killed_after - 1]
    # Not doubled: no two runs closer than the period, across the restart too.
    assert min(gaps) >= every - 0.6, gaps
    # Not skipped: the restart delays one run by at most the dead beat's lock, once: the new
    # beat sends within the lock's time of its start (however long the process took to start),
    # or on time.
    waited = (after[0] - max(started[1], before[-1] + timedelta(seconds=every))).total_seconds()
    assert waited <= lock_timeout + 1.5, (restart_gap, waited, started)
    assert all(gap <= every + 1.0 for gap in gaps[killed_after:]), gaps
    _each_fired_once(reminders, player)


def test_beat_runs_the_retention_on_the_bulk_worker(campaign, player):
    """The retention runs from beat, on the worker of the "bulk" queue: a delivered
    notification 91 days old goes, one of yesterday stays (config/retention.py)."""
    from notifications import notify
    from notifications.models import Delivery, NotificationPreference

    NotificationPreference.objects.create(user=player, channels={"loot_awarded": ["in_app"]})
    for title, days in (("Old loot", 91), ("Fresh loot", 1)):
        note = notify(recipient=player, event="loot_awarded", campaign=campaign, title=title)
        Notification.objects.filter(pk=note.pk).update(
            created_at=timezone.now() - timedelta(days=days)
        )
        Delivery.objects.filter(notification=note).update(status="sent")
    with real_publishing():
        worker = CeleryWorker(queues=("bulk",), loglevel="INFO")
        beat = CeleryBeat(environ={"TEST_BEAT_ENTRIES": "retention-notifications=1"})
        try:
            worker.start()
            beat.start()
            wait_for(
                lambda: not Notification.objects.filter(title="Old loot").exists(),
                timeout=30,
                what=f"the retention:\n{beat.output()}\n{worker.output()}",
            )
            assert worker.received("config.prune_notifications") >= 1
        finally:
            beat.stop()
            worker.stop()
    assert list(Notification.objects.values_list("title", flat=True)) == ["Fresh loot"]
