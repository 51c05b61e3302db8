"""Turn reminders (once, after the campaign's delay) and scheduled session reminders (a day and
an hour before, once each, re-armed when the session moves)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from notifications import (
    notification_schedule,
    scheduled_notifications_cancel,
    session_reminders_schedule,
    turn_wait_end,
    turn_wait_start,
)
from notifications import tasks as notification_tasks
from notifications.models import Notification, ScheduledNotification, TurnWait
from notifications.reminders import scheduled_notifications_send, turn_reminders_send

pytestmark = pytest.mark.django_db


def _events(user) -> list[str]:
    return list(Notification.objects.filter(recipient=user).values_list("event", flat=True))


def test_turn_start_notifies_once_per_turn(player, campaign):
    start = timezone.now()
    first = turn_wait_start(
        campaign=campaign, user=player, key="battle:1:round:1", title="Your turn", started_at=start
    )
    again = turn_wait_start(campaign=campaign, user=player, key="battle:1:round:1", title="Again")
    assert first.pk == again.pk
    assert _events(player) == ["your_turn"]
    turn_wait_start(
        campaign=campaign, user=player, key="battle:1:round:2", title="Quietly", notify_user=False
    )
    assert _events(player) == ["your_turn"]


def test_reminder_after_the_campaigns_delay_and_only_once(player, campaign):
    campaign.house_rules = {"turn_reminder_minutes": 5}
    campaign.save()
    start = timezone.now()
    turn_wait_start(
        campaign=campaign,
        user=player,
        key="tavern:3:turn:7",
        title="Dice poker",
        url="/tavern/3/",
        started_at=start,
    )
    assert turn_reminders_send(now=start + timedelta(minutes=4)) == 0
    assert turn_reminders_send(now=start + timedelta(minutes=6)) == 1
    assert turn_reminders_send(now=start + timedelta(minutes=60)) == 0
    reminder = Notification.objects.get(recipient=player, event="turn_reminder")
    assert reminder.title == "Still your turn: Dice poker"
    assert reminder.url == "/tavern/3/"
    assert "6 minutes" in reminder.body
    assert TurnWait.objects.get().reminded_at == start + timedelta(minutes=6)


def test_a_reminder_does_not_say_your_turn_twice(player, campaign):
    """The turn's own title already says "Your turn …": the reminder continues it."""
    campaign.house_rules = {"turn_reminder_minutes": 5}
    campaign.save()
    start = timezone.now()
    for n, title in enumerate(["Your move at Spirit War with Marisa", "Your turn: Cirno"]):
        turn_wait_start(
            campaign=campaign, user=player, key=f"tavern:{n}", title=title, started_at=start
        )
    assert turn_reminders_send(now=start + timedelta(minutes=6)) == 2
    titles = Notification.objects.filter(recipient=player, event="turn_reminder")
    assert sorted(titles.values_list("title", flat=True)) == [
        "Still your move at Spirit War with Marisa",
        "Still your turn: Cirno",
    ]


def test_default_delay_is_the_house_rule_default(player, campaign):
    start = timezone.now() - timedelta(minutes=59)
    turn_wait_start(campaign=campaign, user=player, key="b:1", title="t", started_at=start)
    assert turn_reminders_send() == 0
    assert turn_reminders_send(now=start + timedelta(minutes=61)) == 1


def test_ended_turns_are_not_reminded(player, other_player, campaign):
    start = timezone.now() - timedelta(hours=3)
    for user in (player, other_player):
        turn_wait_start(
            campaign=campaign, user=user, key="battle:2:r1", title="t", started_at=start
        )
    assert turn_wait_end(key="battle:2:r1", user=player) == 1
    assert turn_reminders_send() == 1
    assert _events(player) == ["your_turn"]
    assert sorted(_events(other_player)) == ["turn_reminder", "your_turn"]
    assert turn_wait_end(key="battle:2:r1") == 1


def test_ending_a_turn_nobody_waited_on_reads_once_and_writes_nothing(player, campaign):
    """Every battle move ends the turn it closes, an NPC's as often as a player's: with no
    open wait the call is one SELECT (the load test's moves wrote an empty UPDATE each), and
    the turn of someone else's key is left open."""
    turn_wait_start(campaign=campaign, user=player, key="battle:3:turn:2", title="t")
    with CaptureQueriesContext(connection) as ctx:
        assert turn_wait_end(key="battle:3:turn:1") == 0
    statements = [q["sql"] for q in ctx.captured_queries]
    assert len(statements) == 1 and statements[0].startswith("SELECT"), statements
    assert TurnWait.objects.get(key="battle:3:turn:2").ended_at is None
    assert turn_wait_end(key="battle:3:turn:2") == 1
    assert Notification.objects.get(recipient=player, event="your_turn").read_at is not None


def test_beat_task_sends_turn_reminders(player, campaign):
    turn_wait_start(
        campaign=campaign,
        user=player,
        key="b:9",
        title="t",
        started_at=timezone.now() - timedelta(hours=2),
    )
    assert notification_tasks.send_turn_reminders.apply().get() == 1
    assert notification_tasks.send_turn_reminders.apply().get() == 0


def test_session_reminders_a_day_and_an_hour_before(gm, player, other_player, campaign):
    now = timezone.now()
    starts = now + timedelta(days=3)
    rows = session_reminders_schedule(
        campaign=campaign,
        session_key="42",
        starts_at=starts,
        title="Session 4",
        url="/c/1/",
        now=now,
    )
    assert [r.due_at for r in rows] == [starts - timedelta(days=1), starts - timedelta(hours=1)]
    for user in (gm, player, other_player):
        assert _events(user) == ["session_scheduled"]
    assert scheduled_notifications_send(now=now + timedelta(days=1)) == 0
    assert scheduled_notifications_send(now=starts - timedelta(hours=23)) == 1
    assert scheduled_notifications_send(now=starts - timedelta(hours=23)) == 0
    assert scheduled_notifications_send(now=starts - timedelta(minutes=30)) == 1
    reminders = Notification.objects.filter(recipient=player, event="session_reminder")
    assert [n.title for n in reminders.order_by("created_at")] == [
        "Session tomorrow: Session 4",
        "Session in an hour: Session 4",
    ]


def test_moving_a_session_rearms_its_reminders(player, campaign):
    now = timezone.now()
    starts = now + timedelta(hours=30)
    session_reminders_schedule(
        campaign=campaign, session_key="7", starts_at=starts, title="S", now=now
    )
    scheduled_notifications_send(now=starts - timedelta(hours=23))
    moved = starts + timedelta(days=2)
    session_reminders_schedule(
        campaign=campaign, session_key="7", starts_at=moved, title="S", now=now
    )
    assert ScheduledNotification.objects.filter(sent_at__isnull=True).count() == 2
    assert _events(player).count("session_scheduled") == 2
    scheduled_notifications_send(now=moved - timedelta(hours=23))
    assert _events(player).count("session_reminder") == 2


def test_reminders_already_past_are_dropped(campaign):
    now = timezone.now()
    rows = session_reminders_schedule(
        campaign=campaign, session_key="9", starts_at=now + timedelta(hours=5), title="S", now=now
    )
    assert [r.key for r in rows] == ["session:9:hour"]


def test_personal_schedule_and_cancel(player):
    due = timezone.now() + timedelta(minutes=5)
    notification_schedule(
        key="invite:3:remind",
        due_at=due,
        event="invitation",
        title="Still invited",
        recipient=player,
    )
    assert scheduled_notifications_cancel(key_prefix="invite:3") == 1
    notification_schedule(
        key="invite:3:remind",
        due_at=due,
        event="invitation",
        title="Still invited",
        recipient=player,
    )
    assert notification_tasks.send_scheduled_notifications.apply().get() == 0
    assert scheduled_notifications_send(now=due) == 1
    assert _events(player) == ["invitation"]
    with pytest.raises(ValueError):
        notification_schedule(key="x", due_at=due, event="invitation", title="nobody")
