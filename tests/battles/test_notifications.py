"""'Your turn' when a battle passes to a player's combatant: enqueued on commit, idempotent,
retried; the open turn is registered with the notification service, ended when she acts, and
reminded once after the campaign's delay. Celery runs eagerly here (test settings), except
where a test publishes for real to produce a fault: a dead broker port, a worker whose
database is gone."""

from __future__ import annotations

import logging
from datetime import timedelta

import psycopg
import pytest
from django.db import connection, transaction
from django.utils import timezone

from battles import services
from battles.tasks import battle_turn_notify
from notifications.models import Delivery, Notification, TurnWait
from notifications.reminders import turn_reminders_send
from tests.battles.conftest import act, end_turn, play_until
from tests.notifications.celery_worker import (
    CeleryWorker,
    database_url,
    dead_broker,
    dead_url,
    real_publishing,
    wait_for,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run what would run on commit (the test's transaction never commits)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def _your_turns(user):
    return Notification.objects.filter(recipient=user, event="your_turn")


def test_the_player_hears_it_is_her_turn_once(started, gm, player, committed):
    play_until(started, gm, started.other_pc)
    with committed():
        play_until(started, gm, started.pc)
    battle = started.refresh()
    notes = _your_turns(player)
    assert notes.count() == 1
    note = notes.get()
    assert note.url == f"/battles/{battle.pk}/"
    assert note.title == f"Your turn: Cirno in {battle.name}"
    assert note.campaign_id == battle.campaign_id
    assert Delivery.objects.filter(notification=note, channel="in_app", status="sent").exists()
    wait = TurnWait.objects.get(user=player, ended_at__isnull=True)
    assert wait.key == f"battle:{battle.pk}:turn:{battle.state['turn_number']}"
    # redelivered or repeated tasks change nothing
    for _ in range(3):
        battle_turn_notify.apply(args=[battle.pk, battle.version])
    assert _your_turns(player).count() == 1
    assert TurnWait.objects.filter(user=player).count() == 1
    assert not _your_turns(gm).exists()


def test_a_player_who_left_the_campaign_is_not_told_and_her_turn_ends(
    started, gm, player, committed
):
    """The engine still names her as her combatant's controller; the campaign's ``notice``
    hook tells only its members (campaign/table_access.py), so her open turn ends and no
    "your turn" reaches her."""
    play_until(started, gm, started.other_pc)
    with committed():
        play_until(started, gm, started.pc)
    battle = started.refresh()
    assert _your_turns(player).count() == 1
    battle.campaign.memberships.filter(user=player).delete()
    battle_turn_notify.apply(args=[battle.pk, battle.version])
    assert not TurnWait.objects.filter(user=player, ended_at__isnull=True).exists()
    assert _your_turns(player).count() == 1


def test_acting_ends_the_wait_and_the_next_turn_is_a_new_one(started, gm, player, committed):
    play_until(started, gm, started.other_pc)
    with committed():
        play_until(started, gm, started.pc)
    assert TurnWait.objects.filter(user=player, ended_at__isnull=True).exists()
    with committed():
        end_turn(started, player, started.pc)
    assert not TurnWait.objects.filter(user=player, ended_at__isnull=True).exists()
    first = _your_turns(player).get()
    with committed():
        play_until(started, gm, started.pc)
    # a new turn, told by a new alert that replaces the first (one per battle: issue 39)
    assert TurnWait.objects.filter(user=player).count() == 2
    assert TurnWait.objects.filter(user=player, ended_at__isnull=True).count() == 1
    newest = _your_turns(player).get()
    assert newest.pk != first.pk and newest.read_at is None


def test_a_waiting_turn_is_reminded_once_after_the_campaigns_delay(
    started, gm, player, campaign, committed
):
    campaign.house_rules = {"turn_reminder_minutes": 10}
    campaign.save()
    play_until(started, gm, started.other_pc)
    with committed():
        play_until(started, gm, started.pc)
    wait = TurnWait.objects.get(user=player, ended_at__isnull=True)
    assert turn_reminders_send(now=wait.started_at + timedelta(minutes=9)) == 0
    assert turn_reminders_send(now=wait.started_at + timedelta(minutes=11)) == 1
    assert turn_reminders_send(now=wait.started_at + timedelta(minutes=30)) == 0
    reminder = Notification.objects.get(recipient=player, event="turn_reminder")
    assert reminder.title.startswith("Still your turn: Cirno")


def test_no_reminder_once_she_acted(started, gm, player, committed):
    play_until(started, gm, started.other_pc)
    with committed():
        play_until(started, gm, started.pc)
    assert TurnWait.objects.filter(user=player, ended_at__isnull=True).exists()
    with committed():
        end_turn(started, player, started.pc)
    assert not TurnWait.objects.filter(user=player, ended_at__isnull=True).exists()
    # The turn may now wait on the other player (turn order is rolled): only she is reminded.
    turn_reminders_send(now=timezone.now() + timedelta(days=1))
    assert not Notification.objects.filter(recipient=player, event="turn_reminder").exists()


def test_the_end_of_the_battle_ends_every_wait(started, gm, player, committed):
    play_until(started, gm, started.other_pc)
    with committed():
        play_until(started, gm, started.pc)
    assert TurnWait.objects.filter(ended_at__isnull=True).count() == 1
    act(started, gm, {"type": "gm_end_battle", "winner": None})
    assert not TurnWait.objects.filter(ended_at__isnull=True).exists()


def test_enqueued_only_on_commit(started, gm, django_capture_on_commit_callbacks):
    play_until(started, gm, started.other_pc)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        play_until(started, gm, started.pc)
    assert any("_enqueue_turn_notify" in repr(c) for c in callbacks)
    # a move whose transaction rolls back enqueues nothing and saves nothing
    battle = started.refresh()
    with (
        django_capture_on_commit_callbacks(execute=False) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        services.battle_action_apply(
            battle_id=battle.pk,
            actor=gm,
            action={"type": "end_turn", "combatant": started.pc},
            expected_version=battle.version,
        )
        raise RuntimeError("rolled back")
    assert callbacks == []
    assert started.version == battle.version


def test_a_broker_failure_at_commit_does_not_fail_the_move(started, gm, player, committed, caplog):
    """The broker is down when the move commits (this process publishes for real, to a port
    nothing listens on): Celery's bounded publish retries give up, the failure is logged, and
    the committed move stands; the next turn change enqueues again."""
    play_until(started, gm, started.other_pc)
    with (
        real_publishing(),
        dead_broker(),
        caplog.at_level(logging.ERROR, logger="tables.services"),
        committed(),
    ):
        play_until(started, gm, started.pc)  # no exception: the move is committed
    assert started.refresh().state["current"] == started.pc
    failures = [r for r in caplog.records if "could not enqueue" in r.getMessage()]
    assert [r.getMessage() for r in failures] == [
        f"could not enqueue battles.turn_notify({started.battle.pk}, {started.version})"
    ]
    assert failures[0].exc_info is not None
    assert "Connection refused" in str(failures[0].exc_info[1])
    assert not _your_turns(player).exists()  # the task never ran


@pytest.mark.integration
@pytest.mark.xdist_group("celery-worker")
def test_a_lost_database_is_retried_with_backoff(started):
    """A real worker whose database is gone (its DATABASE_URL is a port nothing listens on):
    the task meets a real OperationalError and Celery retries it, each countdown in the band
    of its attempt (tables.tasks.retry_in: the upper half of 5 s·2^n, so 2.5-5 s, then
    5-10 s)."""
    battle_id = started.battle.pk
    with real_publishing():
        worker = CeleryWorker(database_url=dead_url("postgres", "/gone"), loglevel="INFO")
        try:
            worker.start()
            battle_turn_notify.apply_async(args=[battle_id, 5])
            wait_for(
                lambda: len(worker.retry_countdowns("battles.turn_notify")) >= 2,
                timeout=60,
                what=f"two retries:\n{worker.output()}",
            )
            countdowns = worker.retry_countdowns("battles.turn_notify")
            log = worker.log_text()
        finally:
            worker.stop()
    assert 2.5 <= countdowns[0] <= 5 and 5 <= countdowns[1] <= 10, countdowns
    assert f"battle_turn_notify({battle_id}, v5) interrupted: OperationalError" in log
    # Eagerly (``make run``, no broker to hold a retry) it gives up quietly: this process's
    # own database connection is killed by the server before the task runs.
    _kill_this_connection()
    try:
        assert battle_turn_notify.apply(args=[battle_id, 5]).get() == "retry-later"
    finally:
        connection.close()  # the test's transaction died with it; teardown reconnects


def _kill_this_connection() -> None:
    """Have PostgreSQL terminate this process's connection (as a restart or failover would)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    with psycopg.connect(database_url(), autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_the_task_for_a_deleted_battle_does_nothing(setup_battle, gm):
    pk = setup_battle.battle.pk
    services.battle_delete(battle_id=pk, by=gm)
    assert battle_turn_notify.apply(args=[pk, 1]).get() == "0 open"


def test_a_late_task_never_registers_a_turn_that_has_passed(started, gm, player, committed):
    """The task reads the current state: if she already acted before it ran, nothing waits."""
    play_until(started, gm, started.other_pc)
    with committed():  # both moves commit before the task runs
        play_until(started, gm, started.pc)
        end_turn(started, player, started.pc)
    assert not TurnWait.objects.filter(user=player, ended_at__isnull=True).exists()


def _unread_turns(user):
    return Notification.objects.filter(
        recipient=user, event__in=["your_turn", "turn_reminder"], read_at__isnull=True
    )


def test_turn_alerts_collapse_to_the_newest_and_are_read_when_she_opens_the_battle(
    started, gm, player, committed, client_for
):
    """Issue 10: one unread "your turn in X", replaced by the newest; opening the battle marks
    it read."""
    play_until(started, gm, started.other_pc)
    with committed():
        play_until(started, gm, started.pc)
    first = _unread_turns(player).get()
    # she acts through the API (never opening the page): the taken turn's alert is read
    with committed():
        end_turn(started, player, started.pc)
    assert not _unread_turns(player).exists()
    with committed():
        play_until(started, gm, started.pc)
    # one alert per battle: the newest replaced the first (issue 39, "quieter alerts")
    assert _your_turns(player).count() == 1
    newest = _unread_turns(player).get()  # exactly one unread, the newest
    assert newest.pk != first.pk
    assert not Notification.objects.filter(pk=first.pk).exists()
    # a newer alert for the same battle replaces an older unread one (e.g. a turn she missed)
    Notification.objects.filter(pk=newest.pk).update(read_at=None)
    with committed():
        end_turn(started, player, started.pc)
        play_until(started, gm, started.pc)
    assert _unread_turns(player).count() == 1
    # opening the battle page reads it
    assert client_for(player).get(f"/battles/{started.battle.pk}/").status_code == 200
    assert not _unread_turns(player).exists()


def test_a_finished_battle_leaves_no_unread_turn_alerts(started, gm, player, committed):
    play_until(started, gm, started.other_pc)
    with committed():
        play_until(started, gm, started.pc)
    assert _unread_turns(player).count() == 1
    with committed():
        act(started, gm, {"type": "gm_end_battle", "winner": None})
    assert started.refresh().status == "ended"
    assert not _unread_turns(player).exists()
    assert not TurnWait.objects.filter(ended_at__isnull=True).exists()
