"""A clock that runs out is enforced by a real Celery worker, even one killed mid-task (issue 39,
"Turn clocks": "enforced by a Celery task that survives worker restarts").

The fault is real, as in test_worker_crash.py: the clock row is held by a lock of this test's
own connection, a ``celery -A config worker`` runs the clock's task into that lock and is
killed with SIGKILL; its message stays unacknowledged in Redis for the broker's hour. A real
``celery beat`` and a new worker then apply the rule (here a forfeit at a staked table) within
the sweep's bound, exactly once: the pot is paid once.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from minigames.models import TavernTable
from tables.clocks.controls import TimeControl
from tables.clocks.models import TableClock
from tables.clocks.services import clock_set
from tables.registry import game_for
from tests.minigames.conftest import two_humans
from tests.minigames.test_worker_crash import (  # noqa: F401 (the fixture)
    BOUND,
    HOUR,
    held,
    processes,
    waiting_on_a_lock,
)
from tests.notifications.celery_worker import unacked_messages, wait_for

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("celery-worker"),
]


def test_a_forfeit_lost_with_its_worker_is_applied_once_a_worker_is_back(
    processes,  # noqa: F811
    campaign,
    player,
    other_player,
    reimu,
    marisa,
):
    start_worker, start_beat = processes
    table = two_humans(
        "spirit_war", player, other_player, campaign=campaign, stake=40,
        host_character=reimu, guest_character=marisa,
    )  # fmt: skip
    # a minute per move, started 61 s ago: the waited seat's time has run out; its task is
    # queued (on commit) for at once
    clock_set(
        game_for("spirit_war"),
        TavernTable.objects.get(pk=table.pk),
        TimeControl("move", 60, "forfeit"),
        now=timezone.now() - timedelta(seconds=61),
    )
    clock = TableClock.objects.get(table_id=table.pk)
    with held("SELECT 1 FROM table_clocks_tableclock WHERE id = %s FOR UPDATE", clock.pk):
        first = start_worker(visibility_timeout=HOUR, ping=False)
        wait_for(
            lambda: first.received("tables.clock_due") >= 1,
            timeout=30,
            what=f"the clock's task:\n{first.output()}",
        )
        wait_for(lambda: waiting_on_a_lock() >= 1, timeout=30, what="the task on the lock")
        first.kill()
    assert unacked_messages() >= 1
    assert TavernTable.objects.get(pk=table.pk).status == "active"

    start_beat()
    second = start_worker(visibility_timeout=HOUR)
    wait_for(
        lambda: TavernTable.objects.get(pk=table.pk).status == "ended",
        timeout=BOUND,
        what=f"the forfeit:\n{second.output()}",
    )
    ended = TavernTable.objects.get(pk=table.pk)
    assert ended.outcome["text"].endswith("ran out of time.")
    loser = ended.outcome["resigned"]
    reimu.refresh_from_db()
    marisa.refresh_from_db()
    # 200 and 150 yen, 40 each at stake: the winner takes the pot of 80, once
    assert (reimu.yen, marisa.yen) == ((240, 110) if loser == 1 else (160, 190))
    assert TableClock.objects.get(pk=clock.pk).next_due is None
