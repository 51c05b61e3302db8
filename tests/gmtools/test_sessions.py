"""Game sessions: scheduling tells the campaign and arms the day- and hour-before reminders
(through the notification service), moving re-arms them, cancelling drops them; summary and
attendance after play; pages and API."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from freezegun import freeze_time

from campaign.permissions import access_for
from gmtools import sessions
from gmtools.models import Attendance, GameSession
from notifications.models import Notification, ScheduledNotification
from notifications.reminders import scheduled_notifications_send

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
STARTS = NOW + timedelta(days=3)


def schedule(campaign, gm, **kwargs):
    kwargs.setdefault("title", "The lake")
    kwargs.setdefault("starts_at", STARTS)
    return sessions.session_schedule(
        campaign=campaign, by=access_for(gm, campaign), created_by=gm, now=NOW, **kwargs
    )


def test_scheduling_tells_every_member_and_arms_two_reminders(
    campaign, gm, player, other_player, capture_commits
):
    with capture_commits(execute=True):
        session = schedule(campaign, gm)
    told = Notification.objects.filter(event="session_scheduled", campaign=campaign)
    assert sorted(n.recipient.username for n in told) == sorted(
        u.username for u in (gm, player, other_player)
    )
    assert told.first().url == f"/campaigns/{campaign.pk}/sessions/{session.pk}/"
    reminders = {r.key: r.due_at for r in ScheduledNotification.objects.all()}
    assert reminders == {
        f"session:{session.pk}:day": STARTS - timedelta(days=1),
        f"session:{session.pk}:hour": STARTS - timedelta(hours=1),
    }


def test_the_reminders_fire_a_day_and_an_hour_before(campaign, gm, player, capture_commits):
    with capture_commits(execute=True):
        schedule(campaign, gm)
    assert scheduled_notifications_send(now=STARTS - timedelta(days=2)) == 0
    with capture_commits(execute=True):
        assert scheduled_notifications_send(now=STARTS - timedelta(hours=23)) == 1
        assert scheduled_notifications_send(now=STARTS - timedelta(minutes=30)) == 1
    titles = sorted(
        Notification.objects.filter(recipient=player, event="session_reminder").values_list(
            "title", flat=True
        )
    )
    assert titles == ["Session in an hour: The lake", "Session tomorrow: The lake"]


def test_moving_a_session_rearms_and_retells(campaign, gm, player, capture_commits):
    session = schedule(campaign, gm)
    later = STARTS + timedelta(days=7)
    with capture_commits(execute=True):
        sessions.session_update(
            session=session, by=access_for(gm, campaign), starts_at=later, now=NOW
        )
    day = ScheduledNotification.objects.get(key=f"session:{session.pk}:day")
    assert day.due_at == later - timedelta(days=1)
    assert Notification.objects.filter(recipient=player, event="session_scheduled").count() == 2


def test_writing_the_summary_changes_no_reminder(campaign, gm, player):
    session = schedule(campaign, gm)
    before = Notification.objects.count()
    sessions.session_update(session=session, by=access_for(gm, campaign), summary="We won.")
    assert Notification.objects.count() == before
    assert GameSession.objects.get().summary == "We won."


def test_cancelling_drops_unsent_reminders(campaign, gm):
    session = schedule(campaign, gm)
    sessions.session_cancel(session=session, by=access_for(gm, campaign))
    assert not ScheduledNotification.objects.exists()
    assert not GameSession.objects.exists()


def test_a_session_in_the_past_arms_no_reminder(campaign, gm):
    schedule(campaign, gm, starts_at=NOW - timedelta(days=1))
    assert not ScheduledNotification.objects.exists()


def test_players_cannot_schedule(campaign, player):
    with pytest.raises(PermissionDenied):
        schedule(campaign, player)


def test_attendance_is_all_or_nothing(campaign, gm, player, other_player, outsider):
    session = schedule(campaign, gm)
    access = access_for(gm, campaign)
    sessions.attendance_set(
        session=session, by=access, statuses={player.pk: "present", other_player.pk: "excused"}
    )
    with pytest.raises(ValidationError):
        sessions.attendance_set(
            session=session, by=access, statuses={player.pk: "absent", outsider.pk: "present"}
        )
    assert dict(Attendance.objects.values_list("user__username", "status")) == {
        "player-one": "present",
        "player-two": "excused",
    }
    sessions.attendance_set(session=session, by=access, statuses={player.pk: None})
    assert Attendance.objects.count() == 1


# --------------------------------------------------------------------------- pages


def test_schedule_page_and_after_play(campaign, gm, player, other_player, client_for):
    client = client_for(gm)
    with freeze_time(NOW):
        response = client.post(
            f"/campaigns/{campaign.pk}/sessions/",
            {"title": "Into the mansion", "starts_at": "2026-11-29T19:30", "agenda": "Doors."},
        )
    session = GameSession.objects.get()
    assert response.status_code == 302
    assert session.starts_at == datetime(2026, 11, 29, 19, 30, tzinfo=UTC)
    record = client.post(
        f"/campaigns/{campaign.pk}/sessions/{session.pk}/",
        {
            "summary": "The gate fell.",
            f"attendance_{player.pk}": "present",
            f"attendance_{other_player.pk}": "absent",
        },
    )
    assert record.status_code == 302
    page = client_for(player).get(f"/campaigns/{campaign.pk}/sessions/{session.pk}/")
    html = page.content.decode()
    assert "The gate fell." in html
    assert "after play" not in html.lower()  # players do not get the form
    assert Attendance.objects.get(user=other_player).status == "absent"


def test_schedule_page_errors_are_400(campaign, gm, client_for):
    response = client_for(gm).post(
        f"/campaigns/{campaign.pk}/sessions/", {"title": "", "starts_at": "tomorrow-ish"}
    )
    assert response.status_code == 400
    assert set(response.context["form"].errors) == {"title", "starts_at"}


def test_players_see_sessions_but_cannot_schedule(campaign, player, client_for):
    client = client_for(player)
    assert client.get(f"/campaigns/{campaign.pk}/sessions/").status_code == 200
    response = client.post(
        f"/campaigns/{campaign.pk}/sessions/", {"title": "Mine", "starts_at": "2030-01-01T10:00"}
    )
    assert response.status_code == 403
    assert not GameSession.objects.exists()


# --------------------------------------------------------------------------- API


def test_api_sessions(campaign, gm, player, api_for):
    api = api_for(gm)
    created = api.post(
        f"/api/campaigns/{campaign.pk}/sessions/",
        {"title": "API night", "starts_at": "2030-05-01T18:00:00Z", "agenda": "Tea."},
        format="json",
    )
    assert created.status_code == 201, created.content
    sid = created.json()["id"]
    assert ScheduledNotification.objects.filter(key__startswith=f"session:{sid}:").count() == 2
    moved = api.patch(
        f"/api/campaigns/{campaign.pk}/sessions/{sid}/",
        {"starts_at": "2030-05-02T18:00:00Z", "summary": "Not yet."},
        format="json",
    )
    assert moved.status_code == 200
    assert moved.json()["starts_at"].startswith("2030-05-02")
    attendance = api.put(
        f"/api/campaigns/{campaign.pk}/sessions/{sid}/attendance/",
        {"attendance": [{"user": player.pk, "status": "present"}]},
        format="json",
    )
    assert attendance.status_code == 200
    assert attendance.json()["attendance"] == [
        {"user": player.pk, "username": player.username, "status": "present"}
    ]
    bad = api.put(
        f"/api/campaigns/{campaign.pk}/sessions/{sid}/attendance/",
        {"attendance": [{"user": player.pk, "status": "asleep"}]},
        format="json",
    )
    assert bad.status_code == 400
    listed = api_for(player).get(f"/api/campaigns/{campaign.pk}/sessions/")
    assert [s["id"] for s in listed.json()] == [sid]
    assert (
        api_for(player).delete(f"/api/campaigns/{campaign.pk}/sessions/{sid}/").status_code == 403
    )
    assert api.delete(f"/api/campaigns/{campaign.pk}/sessions/{sid}/").status_code == 204
    assert not ScheduledNotification.objects.exists()


def test_api_session_bad_input(campaign, gm, api_for):
    response = api_for(gm).post(
        f"/api/campaigns/{campaign.pk}/sessions/", {"title": "", "starts_at": "soon"}, format="json"
    )
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"title", "starts_at"}


@pytest.mark.parametrize(
    ("starts_at", "said"),
    [
        (
            "2020-01-01T19:30",
            "“Past session” is recorded; it starts in the past, so nobody is told or reminded",
        ),
        (
            "2026-11-29T19:30",
            "“Past session” scheduled; the players are told now and reminded a day and an hour "
            "before.",
        ),
        (
            "2026-11-22T18:00",
            "“Past session” scheduled; the players are told now and reminded an hour before.",
        ),
        (
            "2026-11-22T12:30",
            "“Past session” scheduled; the players are told now (it starts within the hour).",
        ),
    ],
)
def test_the_schedule_message_says_what_really_happened(
    campaign, gm, player, client_for, starts_at, said
):
    """docs/campaigns.md: "A session in the past arms none" (nor tells anyone); the page said
    "the players are told and reminded" for 2020-01-01."""
    client = client_for(gm)
    with freeze_time(NOW):
        response = client.post(
            f"/campaigns/{campaign.pk}/sessions/",
            {"title": "Past session", "starts_at": starts_at, "agenda": ""},
            follow=True,
        )
    assert said in response.content.decode().replace("&#x27;", "'")
    if starts_at.startswith("2020"):
        assert not ScheduledNotification.objects.exists()
        assert not Notification.objects.filter(recipient=player).exists()
