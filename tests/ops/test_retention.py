"""Data that stays bounded: the retention tasks remove what is past its retention, keep what is
not, and a finished table still opens and replays (config/retention.py, docs/operations.md).

Each test backdates real rows (``QuerySet.update`` of their times, as the months would) and runs
the real Celery task (eagerly here; the beat tests run them from beat on a real worker).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessLog
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from battles.models import Battle, TablePing
from config import tasks
from notifications import notify, turn_wait_end, turn_wait_start
from notifications.models import (
    Delivery,
    Digest,
    Notification,
    NotificationPreference,
    ScheduledNotification,
    TurnWait,
)
from tables import services
from tables.chat.models import ChatLine, ChatRoom
from tables.registry import game_for
from tests.games.duel import ENGINE
from tests.games.duel_tables.models import DuelAction, DuelTable

pytestmark = pytest.mark.django_db


def _ago(days: float):
    return timezone.now() - timedelta(days=days)


def _note(user, campaign, title: str, *, days: float, status: str = "sent"):
    """A notification raised ``days`` ago whose one delivery is ``status`` since then."""
    note = notify(recipient=user, event="loot_awarded", campaign=campaign, title=title)
    Notification.objects.filter(pk=note.pk).update(created_at=_ago(days))
    Delivery.objects.filter(notification=note).update(status=status, updated_at=_ago(days))
    return note


def test_delivered_notifications_are_kept_90_days_and_deliveries_30(campaign, player, settings):
    """Defaults: a delivered notification stays 90 days (the bell's list), its delivery rows 30;
    one still held for a digest stays however old, as do its deliveries."""
    assert settings.NOTIFICATION_RETENTION_DAYS == 90
    assert settings.DELIVERY_RETENTION_DAYS == 30
    NotificationPreference.objects.create(user=player, channels={"loot_awarded": ["in_app"]})
    gone = _note(player, campaign, "Old loot", days=91)
    kept = _note(player, campaign, "Loot of last month", days=89)
    recent = _note(player, campaign, "Loot of last week", days=7)
    held = _note(player, campaign, "Loot still held", days=200, status="held")
    failed = _note(player, campaign, "Loot that failed", days=31, status="failed")

    removed = tasks.prune_notifications.delay().get()

    left = set(Notification.objects.values_list("title", flat=True))
    assert left == {
        "Loot of last month",
        "Loot of last week",
        "Loot still held",
        "Loot that failed",
    }
    assert not Delivery.objects.filter(notification_id=gone.pk).exists()
    # Deliveries done more than 30 days ago went; the notifications they carried stay.
    assert not Delivery.objects.filter(notification__in=[kept.pk, failed.pk]).exists()
    assert Delivery.objects.filter(notification=recent).get().status == "sent"
    assert Delivery.objects.filter(notification=held).get().status == "held"
    assert removed == 1 + 3  # the old notification; the deliveries of 91, 89 and 31 days
    assert tasks.prune_notifications.delay().get() == 0  # nothing left to remove


def test_old_digests_turn_waits_and_sent_reminders_go_with_the_notifications(campaign, player, gm):
    turn_wait_start(campaign=campaign, user=player, key="duel:1:seat:0", title="Your turn")
    turn_wait_end(key="duel:1:seat:0", user=player)
    turn_wait_start(campaign=campaign, user=player, key="duel:2:seat:0", title="Your turn")
    turn_wait_start(campaign=campaign, user=gm, key="duel:3:seat:1", title="Your turn")
    turn_wait_end(key="duel:3:seat:1", user=gm)
    TurnWait.objects.filter(key="duel:1:seat:0").update(ended_at=_ago(100), started_at=_ago(101))
    TurnWait.objects.filter(key="duel:2:seat:0").update(started_at=_ago(120))  # still waiting
    old = Digest.objects.create(recipient=player, channel="webhook", status="sent")
    young = Digest.objects.create(recipient=player, channel="webhook", status="sent")
    waiting = Digest.objects.create(recipient=player, channel="webhook", status="pending")
    Digest.objects.filter(pk__in=[old.pk, waiting.pk]).update(created_at=_ago(95))
    for key, sent in (("a", _ago(100)), ("b", _ago(2)), ("c", None)):
        ScheduledNotification.objects.create(
            key=key, recipient=player, event="session_reminder", title=key, due_at=_ago(101),
            sent_at=sent,
        )  # fmt: skip

    tasks.prune_notifications.delay().get()

    assert set(TurnWait.objects.values_list("key", flat=True)) == {
        "duel:2:seat:0",  # a turn still waiting is no history
        "duel:3:seat:1",  # ended today
    }
    assert set(Digest.objects.values_list("pk", flat=True)) == {young.pk, waiting.pk}
    assert set(ScheduledNotification.objects.values_list("key", flat=True)) == {"b", "c"}


def test_expired_sessions_and_old_sign_in_records_are_cleared(player):
    expired, live = SessionStore(), SessionStore()
    for store in (expired, live):
        store["_auth_user_id"] = str(player.pk)
        store.create()
    Session.objects.filter(session_key=expired.session_key).update(expire_date=_ago(1))
    for days in (91, 10):
        log = AccessLog.objects.create(username=player.username, ip_address="127.0.0.1")
        AccessLog.objects.filter(pk=log.pk).update(attempt_time=_ago(days))

    assert tasks.clear_expired_sessions.delay().get() == 2

    assert list(Session.objects.values_list("session_key", flat=True)) == [live.session_key]
    assert AccessLog.objects.count() == 1
    assert AccessLog.objects.get().attempt_time > _ago(11)


def _battle(campaign, gm, name: str, *, status: str, ended_days: float | None) -> Battle:
    battle = Battle.objects.create(campaign=campaign, name=name, created_by=gm, status=status)
    if ended_days is not None:
        Battle.objects.filter(pk=battle.pk).update(ended_at=_ago(ended_days))
    room, _ = ChatRoom.objects.get_or_create(
        table_label="battles.battle", table_id=battle.pk, campaign=campaign
    )
    ChatLine.objects.create(room=room, author=gm, author_is_gm=True, text=name)
    return battle


def test_chat_of_long_finished_battles_goes_and_every_old_ping(campaign, gm, settings):
    """Chat stays 180 days after its battle ended; a battle still in play keeps all of it.
    Pings are on the board for a minute: older ones go everywhere."""
    assert settings.TABLE_CHAT_RETENTION_DAYS == 180
    old = _battle(campaign, gm, "Scarlet Mist", status="ended", ended_days=181)
    _battle(campaign, gm, "Spring Snow", status="ended", ended_days=179)
    playing = _battle(campaign, gm, "Endless Night", status="active", ended_days=None)
    ChatLine.objects.filter(room__table_id=playing.pk).update(created_at=_ago(400))
    for battle, seconds in ((old, 3600), (playing, 61), (playing, 5)):
        ping = TablePing.objects.create(battle=battle, author=gm, x=1, y=1)
        TablePing.objects.filter(pk=ping.pk).update(
            created_at=timezone.now() - timedelta(seconds=seconds)
        )

    assert tasks.prune_table_talk.delay().get() == 1 + 2

    assert set(ChatLine.objects.values_list("text", flat=True)) == {
        "Spring Snow",
        "Endless Night",
    }
    assert list(TablePing.objects.values_list("battle_id", flat=True)) == [playing.pk]
    assert Battle.objects.count() == 3  # the battles themselves are kept whole


def _finished_duel(campaign, player, other_player, seed: int) -> DuelTable:
    """A Secret Duel played to its end through the table core."""
    game = game_for("duel")
    state = ENGINE.new_game(seats=2, seed=seed)
    table = services.table_create(
        game,
        table=DuelTable(campaign=campaign, seat0=player, seat1=other_player),
        state=state,
    )
    version = 0
    for n in range(3):
        for seat, user in enumerate((player, other_player)):
            services.table_action_apply(
                game,
                table_id=table.pk,
                actor=user,
                action={"type": "play", "card": state["hands"][seat][n]},
                expected_version=version,
            )
            version += 1
    table.refresh_from_db()
    assert table.status == "ended"
    return table


@pytest.mark.urls("tests.games.duel_tables.urls")
def test_finished_tables_are_kept_whole_and_still_open_and_replay(
    campaign, player, other_player, api_for, settings
):
    """By default nothing of a finished table goes, however old: its log replays to its stored
    state and its page's API opens it."""
    assert settings.FINISHED_TABLE_RETENTION_DAYS == 0
    table = _finished_duel(campaign, player, other_player, seed=3)
    DuelTable.objects.filter(pk=table.pk).update(updated_at=_ago(3650))

    assert tasks.prune_finished_tables.delay().get() == 0

    table.refresh_from_db()
    assert DuelAction.objects.filter(table=table).count() == 6
    assert table.initial and table.initial != table.state
    assert ENGINE.to_json(services.table_replay(game_for("duel"), table)) == table.state
    answer = api_for(player).get(f"/api/duels/{table.pk}/state/")
    assert answer.status_code == 200, answer.content
    assert answer.json()["version"] == 6


def test_finished_tables_past_their_retention_go_whole_when_it_is_set(
    campaign, player, other_player, settings
):
    """With FINISHED_TABLE_RETENTION_DAYS set, a table ended and untouched longer goes with its
    log; a younger finished table and a table still in play, however old, stay."""
    settings.FINISHED_TABLE_RETENTION_DAYS = 365
    old = _finished_duel(campaign, player, other_player, seed=3)
    young = _finished_duel(campaign, player, other_player, seed=4)
    playing = services.table_create(
        game_for("duel"),
        table=DuelTable(campaign=campaign, seat0=player, seat1=other_player),
        state=ENGINE.new_game(seats=2, seed=5),
    )
    DuelTable.objects.filter(pk__in=[old.pk, playing.pk]).update(updated_at=_ago(366))
    DuelTable.objects.filter(pk=young.pk).update(updated_at=_ago(364))

    assert tasks.prune_finished_tables.delay().get() == 1

    assert set(DuelTable.objects.values_list("pk", flat=True)) == {young.pk, playing.pk}
    assert not DuelAction.objects.filter(table_id=old.pk).exists()
    assert DuelAction.objects.filter(table=young).count() == 6
