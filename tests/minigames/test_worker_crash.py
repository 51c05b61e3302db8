"""A worker killed mid-task never leaves a table waiting: the bot moves, "your turn" is told and
the advisor answers within a bound once a worker is back (hardening finding, faults 1).

The fault is real: a ``celery -A config worker`` subprocess is killed with SIGKILL while it runs
the task, never a mock. To make sure the kill lands *inside* the task, the test holds the row
(or the table) the task needs with a lock of its own on a second database connection, starts
the worker, and waits until PostgreSQL shows the worker's query waiting on that lock; then it
kills the worker and lets the lock go.

A worker killed whole leaves the message in Redis's unacknowledged set until the broker's
visibility timeout (here the attack's hour: the next worker does not get it back), so the bound
comes from the sweeps a real ``celery beat`` publishes (``minigames.requeue_lost_bot_moves``,
``tables.requeue_lost_waits``), shortened for the test through the environment it gives beat
and worker (``TAVERN_SWEEP_SECONDS``, ``TAVERN_BOT_STALE_SECONDS``, ...). In production they run
every 10 s with budgets of 40 and 45 s: a lost move or notice is enqueued within a minute.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterator

import psycopg
import pytest

from minigames import services
from minigames.engines.registry import get_engine
from minigames.models import TavernTable
from notifications.models import TurnWait
from tests.minigames.conftest import to_a_choice, two_humans
from tests.notifications.celery_worker import (
    CeleryBeat,
    CeleryWorker,
    database_url,
    real_publishing,
    unacked_messages,
    wait_for,
)

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("celery-worker"),
]

#: The sweeps, shortened: every second, for tables quiet for 3 s.
SWEEPS = {
    "TAVERN_SWEEP_SECONDS": "1",
    "TAVERN_BOT_STALE_SECONDS": "3",
    "TABLE_SWEEP_SECONDS": "1",
    "TABLE_WAITS_STALE_SECONDS": "3",
}
#: The attack's broker: a message lost with its worker comes back after an hour.
HOUR = 3600
#: What each test allows from the new worker's start to the table moving on: the sweep's
#: budget and interval and a task's run, with room for a loaded machine.
BOUND = 30


@pytest.fixture
def processes(django_db_setup):
    """``start_worker(**kw)`` and ``start_beat()``: real processes, stopped afterwards."""
    started: list[CeleryWorker | CeleryBeat] = []

    def start_worker(*, ping: bool = True, **kwargs) -> CeleryWorker:
        worker = CeleryWorker(loglevel="INFO", environ=SWEEPS, **kwargs)
        started.append(worker)
        return worker.start(ping=ping)

    def start_beat() -> CeleryBeat:
        beat = CeleryBeat(environ=SWEEPS)
        started.append(beat)
        return beat.start()

    with real_publishing():
        yield start_worker, start_beat
        for process in started:
            process.stop()


@contextlib.contextmanager
def held(sql: str, *params: object) -> Iterator[psycopg.Connection]:
    """Run ``sql`` (a lock) in a transaction of a connection of its own, held until the end
    of the block."""
    with psycopg.connect(database_url()) as conn:
        conn.execute(sql, params)
        try:
            yield conn
        finally:
            conn.rollback()


def waiting_on_a_lock() -> int:
    """How many sessions of the test database wait on a lock (a task blocked mid-run)."""
    with psycopg.connect(database_url(), autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        ).fetchone()
    return int(row[0]) if row else 0


def kill_mid_task(worker: CeleryWorker, task: str) -> None:
    """Wait until ``worker`` runs ``task`` and is blocked on the held lock, then SIGKILL it
    (the worker's first and only task: nothing else is queued)."""
    wait_for(lambda: worker.received(task) >= 1, timeout=30, what=f"{task}:\n{worker.output()}")
    wait_for(lambda: waiting_on_a_lock() >= 1, timeout=30, what=f"{task} blocked on the lock")
    log = worker.log_text()
    worker.kill()
    assert log.count(" received") == 1, log  # the kill lands in that task, not a retry
    assert "Soft time limit" not in log and "retry" not in log, log


def test_a_bot_move_lost_with_its_worker_is_played_once_a_worker_is_back(processes, player):
    """The attack: ``kill -9`` of the worker while it works out a bot's move. The message stays
    unacknowledged in Redis for the broker's hour, yet the bot moves within the bound of a new
    worker and beat coming up, exactly once for that version."""
    start_worker, start_beat = processes
    table = services.tavern_create(
        by=player, game="spirit_war", campaign=None,
        seats=[services.SeatSpec(kind="host"), services.SeatSpec(kind="bot", strength="random")],
    )  # fmt: skip
    engine = get_engine("spirit_war")

    def state():
        t = TavernTable.objects.get(pk=table.pk)
        return t, engine.from_json(t.state)

    def settled() -> bool:
        return list(engine.waiting_on(state()[1])) == [0]

    opener = start_worker(visibility_timeout=HOUR)
    services.tavern_start(table_id=table.pk, by=player)
    # The human plays (the bot answering in the worker) up to the move after which the table
    # waits on the bot; that move is made with no worker up, so the bot's task is queued alone.
    while True:
        wait_for(settled, timeout=30, what=f"the human's turn:\n{opener.output()}")
        t, s = state()
        action = engine.legal_actions(s, 0)[0]
        if 1 in engine.waiting_on(engine.apply(s, 0, action)[0]):
            break
        services.tavern_action_apply(
            table_id=t.pk, by=player, action=action, expected_version=t.version
        )
    opener.wait_ready(20)  # everything asked so far is done
    opener.kill()
    services.tavern_action_apply(
        table_id=t.pk, by=player, action=action, expected_version=t.version
    )
    asked, _ = state()
    # The bot is held at its read of the table: a move is one statement without a transaction
    # of its own, which PostgreSQL would still run and commit once let go, client gone or not.
    with held("LOCK TABLE minigames_taverntable IN ACCESS EXCLUSIVE MODE"):
        first = start_worker(visibility_timeout=HOUR, ping=False)
        kill_mid_task(first, "minigames.bot_move")
    assert unacked_messages() >= 1  # lost with the worker, held by Redis for an hour
    after_kill, s = state()
    assert after_kill.version == asked.version and 1 in engine.waiting_on(s)

    start_beat()
    second = start_worker(visibility_timeout=HOUR)
    began = time.monotonic()
    wait_for(
        lambda: state()[0].version > asked.version,
        timeout=BOUND,
        what=f"the bot's move:\n{second.output()}",
    )
    assert time.monotonic() - began < BOUND
    moved = TavernTable.objects.get(pk=table.pk)
    bot_rows = moved.actions.filter(seq=asked.version + 1, seat="1", actor__isnull=True)
    assert bot_rows.count() == 1  # the bot played that version's move, once


def test_a_turn_notice_lost_with_its_worker_is_told_once_a_worker_is_back(
    processes, player, other_player
):
    """``kill -9`` of the worker while it registers "your turn" (``tables.turn_notify``):
    Marisa's player hears it is her move within the bound of a new worker and beat."""
    start_worker, start_beat = processes
    table = two_humans("spirit_war", player, other_player, start=False)
    engine = get_engine("spirit_war")
    services.tavern_start(table_id=table.pk, by=player)  # published: nobody runs it yet
    t = TavernTable.objects.get(pk=table.pk)
    waiting = engine.waiting_on(engine.from_json(t.state))
    user = {0: player, 1: other_player}[waiting[0]]
    with held("SELECT 1 FROM minigames_taverntable WHERE id = %s FOR UPDATE", table.pk):
        first = start_worker(visibility_timeout=HOUR, ping=False)
        kill_mid_task(first, "tables.turn_notify")
    assert not TurnWait.objects.filter(user=user).exists()

    start_beat()
    second = start_worker(visibility_timeout=HOUR)
    began = time.monotonic()
    wait_for(
        lambda: TurnWait.objects.filter(user=user, ended_at__isnull=True).exists(),
        timeout=BOUND,
        what=f"her turn:\n{second.output()}",
    )
    assert time.monotonic() - began < BOUND
    assert TurnWait.objects.filter(user=user).count() == 1
    assert user.notifications.filter(event="your_turn").count() == 1


def test_the_advisor_answers_after_its_pool_process_is_killed_mid_search(
    processes, api_for, player, other_player
):
    """The advisor's search (``minigames.advise``) is killed with its pool process: the worker
    puts the message back at once (``acks_late`` with ``reject_on_worker_lost``) and the next
    pool process searches, with nobody asking again (the page's next request would, after
    ``TAVERN_ADVICE_PENDING_SECONDS``)."""
    from django.core.cache import cache

    from minigames.advice import advice_key

    start_worker, _ = processes
    table = two_humans("spirit_war", player, other_player, practice=True, advisor=True)
    users = {0: player, 1: other_player}
    opener = start_worker()
    seat = to_a_choice(table, users)
    opener.wait_ready(20)  # the turn notices of those moves are done
    opener.kill()
    url = f"/api/tavern/tables/{table.pk}/advice/"
    assert api_for(users[seat]).get(url).status_code == 202  # asked: nobody runs it yet
    with held("LOCK TABLE minigames_taverntable IN ACCESS EXCLUSIVE MODE"):
        worker = start_worker(ping=False)
        wait_for(lambda: worker.received("minigames.advise") >= 1, timeout=30)
        wait_for(lambda: waiting_on_a_lock() >= 1, timeout=30, what="the search blocked")
        assert worker.log_text().count(" received") == 1  # nothing but the search runs
        (child,) = worker.pool_children()
        os.kill(child, signal.SIGKILL)
    began = time.monotonic()
    wait_for(
        lambda: cache.get(advice_key(table.pk, table.version, seat)) is not None,
        timeout=15,
        interval=0.2,
        what=f"the advice:\n{worker.output()}",
    )
    assert time.monotonic() - began < 15
    assert worker.proc is not None and worker.proc.poll() is None  # only the child died


def test_the_advisor_answers_after_its_whole_worker_is_killed_mid_search(
    processes, api_for, player, other_player, settings
):
    """``kill -9`` of the whole worker while it searches for the advisor: the message stays
    unacknowledged in Redis for the broker's hour, yet the page, asking again while it gets
    202 (static/js/tavern/table.js), has its advice within the bound of a new worker coming
    up: once ``TAVERN_ADVICE_PENDING_SECONDS`` (30 s, shortened here) has passed, the server
    asks a worker again."""
    settings.TAVERN_ADVICE_PENDING_SECONDS = 3
    start_worker, _ = processes
    table = two_humans("spirit_war", player, other_player, practice=True, advisor=True)
    users = {0: player, 1: other_player}
    opener = start_worker()
    seat = to_a_choice(table, users)
    opener.wait_ready(20)  # the turn notices of those moves are done
    opener.kill()
    page = api_for(users[seat])
    url = f"/api/tavern/tables/{table.pk}/advice/"
    assert page.get(url).status_code == 202  # asked: nobody runs it yet
    with held("LOCK TABLE minigames_taverntable IN ACCESS EXCLUSIVE MODE"):
        first = start_worker(visibility_timeout=HOUR, ping=False)
        kill_mid_task(first, "minigames.advise")
    assert unacked_messages() >= 1  # lost with the worker, held by Redis for an hour

    second = start_worker(visibility_timeout=HOUR)
    began = time.monotonic()
    wait_for(
        lambda: page.get(url).status_code == 200,
        timeout=BOUND,
        interval=1,
        what=f"the advice:\n{second.output()}",
    )
    assert time.monotonic() - began < BOUND
    advice = page.get(url).json()["advice"]
    assert advice and all(0 <= entry["win_chance"] <= 1 for entry in advice)
