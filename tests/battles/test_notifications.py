"""'Your turn' when a battle passes to a player's combatant: enqueued on commit, idempotent,
retried; the open turn is registered with the notification service, ended when she acts, and
reminded once after the campaign's delay. Celery runs eagerly here (test settings)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import OperationalError, transaction
from django.utils import timezone

from battles import services
from battles.tasks import battle_turn_notify
from notifications.models import Delivery, Notification, TurnWait
from notifications.reminders import turn_reminders_send
from tests.battles.conftest import play_until

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


def test_acting_ends_the_wait_and_the_next_turn_is_a_new_one(started, gm, player, committed):
    play_until(started, gm, started.other_pc)
    with committed():
        play_until(started, gm, started.pc)
    assert TurnWait.objects.filter(user=player, ended_at__isnull=True).exists()
    battle = started.refresh()
    with committed():
        services.battle_action_apply(
            battle_id=battle.pk,
            actor=player,
            action={"type": "end_turn", "combatant": started.pc},
            expected_version=battle.version,
        )
    assert not TurnWait.objects.filter(user=player, ended_at__isnull=True).exists()
    with committed():
        play_until(started, gm, started.pc)
    assert _your_turns(player).count() == 2
    assert TurnWait.objects.filter(user=player, ended_at__isnull=True).count() == 1


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
    assert reminder.title.startswith("Still your turn: Your turn: Cirno")


def test_no_reminder_once_she_acted(started, gm, player, committed):
    play_until(started, gm, started.other_pc)
    with committed():
        play_until(started, gm, started.pc)
    assert TurnWait.objects.filter(user=player, ended_at__isnull=True).exists()
    battle = started.refresh()
    with committed():
        services.battle_action_apply(
            battle_id=battle.pk,
            actor=player,
            action={"type": "end_turn", "combatant": started.pc},
            expected_version=battle.version,
        )
    assert not TurnWait.objects.filter(user=player, ended_at__isnull=True).exists()
    # The turn may now wait on the other player (turn order is rolled): only she is reminded.
    turn_reminders_send(now=timezone.now() + timedelta(days=1))
    assert not Notification.objects.filter(recipient=player, event="turn_reminder").exists()


def test_the_end_of_the_battle_ends_every_wait(started, gm, player, committed):
    play_until(started, gm, started.other_pc)
    with committed():
        play_until(started, gm, started.pc)
    assert TurnWait.objects.filter(ended_at__isnull=True).count() == 1
    battle = started.refresh()
    services.battle_action_apply(
        battle_id=battle.pk,
        actor=gm,
        action={"type": "gm_end_battle", "winner": None},
        expected_version=battle.version,
    )
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


def test_a_broker_failure_at_commit_does_not_fail_the_move(started, gm, monkeypatch, committed):
    def broken(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(battle_turn_notify, "apply_async", broken)
    play_until(started, gm, started.other_pc)
    with committed():
        play_until(started, gm, started.pc)  # no exception: the move is committed
    assert started.refresh().state["current"] == started.pc


def test_a_lost_database_is_retried_with_backoff(started, monkeypatch):
    calls = []

    def flaky(**kwargs):
        raise OperationalError("connection lost")

    class Retry(Exception):
        pass

    def retry(countdown=None, **kwargs):
        calls.append(countdown)
        return Retry()

    monkeypatch.setattr(services, "battle_waits_sync", flaky)
    monkeypatch.setattr(battle_turn_notify, "retry", retry)
    battle_turn_notify.push_request(is_eager=False, retries=2)
    try:
        with pytest.raises(Retry):
            battle_turn_notify.run(started.battle.pk, 5)
    finally:
        battle_turn_notify.pop_request()
    assert len(calls) == 1 and 10 <= calls[0] <= 20  # base 5 s · 2², upper half
    # eagerly (``make run``, no broker to hold a retry) it gives up quietly
    assert battle_turn_notify.apply(args=[started.battle.pk, 5]).get() == "retry-later"


def test_the_task_for_a_deleted_battle_does_nothing(setup_battle, gm):
    pk = setup_battle.battle.pk
    services.battle_delete(battle_id=pk, by=gm)
    assert battle_turn_notify.apply(args=[pk, 1]).get() == "0 open"


def test_a_late_task_never_registers_a_turn_that_has_passed(started, gm, player, committed):
    """The task reads the current state: if she already acted before it ran, nothing waits."""
    play_until(started, gm, started.other_pc)
    with committed():  # both moves commit before the task runs
        play_until(started, gm, started.pc)
        battle = started.refresh()
        services.battle_action_apply(
            battle_id=battle.pk,
            actor=player,
            action={"type": "end_turn", "combatant": started.pc},
            expected_version=battle.version,
        )
    assert not TurnWait.objects.filter(user=player, ended_at__isnull=True).exists()
