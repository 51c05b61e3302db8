"""API: your own notifications only (others' answer 404), mark read, preferences and a
campaign's webhook, with bad input as 400 field errors."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from notifications.models import CampaignNotificationSettings, Notification
from tests.factories import NotificationFactory

pytestmark = pytest.mark.django_db


def test_list_is_yours_only_newest_first(player, other_player, api_for):
    older = NotificationFactory(recipient=player, title="older")
    newer = NotificationFactory(recipient=player, title="newer", read_at="2026-01-01T00:00:00Z")
    NotificationFactory(recipient=other_player, title="theirs")
    NotificationFactory(recipient=player, in_app_at=None, title="in flight")
    body = api_for(player).get("/api/notifications/").json()
    assert [n["id"] for n in body["results"]] == [newer.pk, older.pk]
    assert body["results"][0]["read"] is True and body["results"][1]["read"] is False
    assert set(body["results"][1]) >= {"event", "event_label", "urgent", "title", "url"}
    unread = api_for(player).get("/api/notifications/?unread=true").json()
    assert [n["id"] for n in unread["results"]] == [older.pk]


def test_someone_elses_notification_is_404(player, other_player, api_for):
    theirs = NotificationFactory(recipient=other_player)
    api = api_for(player)
    assert api.get(f"/api/notifications/{theirs.pk}/").status_code == 404
    assert api.post(f"/api/notifications/{theirs.pk}/read/").status_code == 404
    assert api.get("/api/notifications/abc/").status_code == 404
    assert api.post(f"/api/notifications/{'9' * 30}/read/").status_code == 404
    theirs.refresh_from_db()
    assert theirs.read_at is None


def test_mark_read_and_read_all(player, api_for):
    a, *_ = NotificationFactory.create_batch(3, recipient=player)
    api = api_for(player)
    response = api.post(f"/api/notifications/{a.pk}/read/")
    assert response.status_code == 200 and response.json()["read"] is True
    assert api.post("/api/notifications/read-all/").json() == {"marked": 2}
    assert not Notification.objects.filter(read_at__isnull=True).exists()


def test_anonymous_gets_401():
    assert APIClient().get("/api/notifications/").status_code == 401
    assert APIClient().get("/api/notifications/preferences/").status_code == 401


def test_preferences_get_and_patch(player, api_for, receiver):
    api = api_for(player)
    prefs = api.get("/api/notifications/preferences/").json()
    assert prefs["channels"]["your_turn"] == ["in_app", "push", "webhook"]
    assert prefs["digest_minutes"] == 60 and prefs["quiet"] is False
    response = api.patch(
        "/api/notifications/preferences/",
        {"channels": {"level_up": ["email"]}, "quiet": True, "webhook_url": receiver.url},
        format="json",
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["channels"]["level_up"] == ["email"]
    assert body["channels"]["your_turn"] == ["in_app", "push", "webhook"]  # untouched
    assert body["quiet"] is True and body["webhook_url"] == receiver.url


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"webhook_url": "http://169.254.169.254/"}, "webhook_url"),
        ({"webhook_url": "javascript:alert(1)"}, "webhook_url"),
        ({"channels": {"dragons": ["email"]}}, "channels"),
        ({"channels": {"level_up": ["carrier_pigeon"]}}, "channels"),
        ({"channels": "everything"}, "channels"),
        ({"digest_minutes": 7}, "digest_minutes"),
        ({"quiet": "perhaps"}, "quiet"),
        ({"channels": {"level_up": "email"}}, "channels"),
        ({"webhook_url": "http://[::1"}, "webhook_url"),
    ],
)
def test_bad_preferences_are_400_with_field_errors(player, api_for, data, field):
    response = api_for(player).patch("/api/notifications/preferences/", data, format="json")
    assert response.status_code == 400
    assert field in response.json()["errors"]


def test_loopback_webhook_is_refused_by_the_api_outside_tests(player, api_for, receiver, settings):
    settings.WEBHOOK_ALLOW_LOOPBACK = False
    response = api_for(player).patch(
        "/api/notifications/preferences/", {"webhook_url": receiver.url}, format="json"
    )
    assert response.status_code == 400
    assert "loopback" in response.json()["errors"]["webhook_url"][0]


def test_campaign_webhook_api_is_for_gms(gm, player, outsider, campaign, api_for, receiver):
    url = f"/api/campaigns/{campaign.pk}/webhook/"
    data = {"webhook_url": receiver.url, "events": ["level_up"], "digest_minutes": 15}
    assert api_for(outsider).get(url).status_code == 404
    assert api_for(player).get(url).status_code == 403
    assert api_for(player).put(url, data, format="json").status_code == 403
    assert api_for(gm).get(url).json()["webhook_url"] == ""
    response = api_for(gm).put(url, data, format="json")
    assert response.status_code == 200
    assert CampaignNotificationSettings.objects.get(campaign=campaign).digest_minutes == 15
    bad = api_for(gm).put(url, {**data, "webhook_url": "http://10.0.0.1/"}, format="json")
    assert bad.status_code == 400 and "webhook_url" in bad.json()["errors"]


def test_schema_lists_the_endpoints(client):
    text = client.get("/api/schema/").content.decode()
    for path in (
        "/api/notifications/",
        "/api/notifications/{id}/read/",
        "/api/notifications/read-all/",
        "/api/notifications/preferences/",
        "/api/campaigns/{id}/webhook/",
    ):
        assert path in text
