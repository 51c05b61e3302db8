"""Pages: the bell on every page, the list (own only), mark as read with CSRF, preferences with
SSRF-checked webhook URLs (400 with the reason), and the GM-only campaign webhook page."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from notifications.models import CampaignNotificationSettings, Notification, NotificationPreference
from tests.factories import NotificationFactory

pytestmark = pytest.mark.django_db


def test_bell_shows_the_unread_count_with_one_query(player, client_for):
    NotificationFactory.create_batch(3, recipient=player)
    NotificationFactory(recipient=player, read_at="2026-01-01T00:00:00Z")
    NotificationFactory(recipient=player, in_app_at=None)  # not delivered in the app yet
    NotificationFactory()  # someone else's
    client = client_for(player)
    with CaptureQueriesContext(connection) as queries:
        page = client.get("/")
    html = page.content.decode()
    assert '<span class="badge" id="unread-count">3</span>' in html
    assert 'aria-label="Notifications, 3 unread"' in html
    bell_queries = [q for q in queries if "campaign_notification" in q["sql"]]
    assert len(bell_queries) == 1
    assert "COUNT(*)" in bell_queries[0]["sql"]


def test_bell_on_other_pages_and_not_for_anonymous(player, campaign, client_for):
    NotificationFactory(recipient=player)
    for url in ("/campaigns/", f"/campaigns/{campaign.pk}/", "/dice/", "/notifications/"):
        assert 'id="unread-count">1<' in client_for(player).get(url).content.decode(), url
    assert 'id="bell"' not in Client().get("/dice/").content.decode()


def test_no_badge_when_nothing_is_unread(player, client_for):
    html = client_for(player).get("/").content.decode()
    assert 'id="bell"' in html and "unread-count" not in html


def test_list_shows_only_your_delivered_notifications(player, other_player, client_for):
    mine = NotificationFactory(recipient=player, title="Loot for you")
    NotificationFactory(recipient=other_player, title="Not yours")
    NotificationFactory(recipient=player, title="Still in flight", in_app_at=None)
    html = client_for(player).get("/notifications/").content.decode()
    assert "Loot for you" in html and f'data-notification="{mine.pk}"' in html
    assert "Not yours" not in html and "Still in flight" not in html
    assert client_for(None).get("/notifications/").status_code == 302


def test_mark_read_single_and_all(player, client_for):
    one, *_ = NotificationFactory.create_batch(3, recipient=player)
    client = client_for(player)
    assert client.get(f"/notifications/{one.pk}/read/").status_code == 405
    response = client.post(f"/notifications/{one.pk}/read/")
    assert response.status_code == 302 and response.url == "/notifications/"
    one.refresh_from_db()
    assert one.read_at is not None
    response = client.post("/notifications/read-all/", {"next": "/campaigns/"})
    assert response.url == "/campaigns/"
    assert not Notification.objects.filter(recipient=player, read_at__isnull=True).exists()


def test_someone_elses_notification_is_404(player, other_player, client_for):
    theirs = NotificationFactory(recipient=other_player)
    assert client_for(player).post(f"/notifications/{theirs.pk}/read/").status_code == 404
    assert client_for(player).post("/notifications/999999/read/").status_code == 404
    assert client_for(player).post(f"/notifications/{'9' * 30}/read/").status_code == 404
    theirs.refresh_from_db()
    assert theirs.read_at is None


def test_mark_read_needs_the_csrf_token(player):
    note = NotificationFactory(recipient=player)
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    assert client.post(f"/notifications/{note.pk}/read/").status_code == 403
    assert client.post("/notifications/read-all/").status_code == 403
    client.get("/notifications/")
    token = client.cookies["csrftoken"].value
    response = client.post(f"/notifications/{note.pk}/read/", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302


def test_next_may_not_leave_the_site(player, client_for):
    note = NotificationFactory(recipient=player)
    response = client_for(player).post(
        f"/notifications/{note.pk}/read/", {"next": "https://evil.example/"}
    )
    assert response.url == "/notifications/"


def _pref_post(**overrides):
    data = {"digest_minutes": "60", "webhook_url": "", "ch__your_turn__in_app": "on"}
    data.update(overrides)
    return data


def test_preferences_page_saves_choices(player, client_for, receiver):
    client = client_for(player)
    page = client.get("/notifications/preferences/")
    assert page.status_code == 200
    assert 'name="ch__level_up__email"' in page.content.decode()
    response = client.post(
        "/notifications/preferences/",
        _pref_post(
            quiet="on",
            digest_minutes="15",
            webhook_url=receiver.url,
            ch__your_turn__webhook="on",
        ),
    )
    assert response.status_code == 302
    pref = NotificationPreference.objects.get(user=player)
    assert pref.quiet and pref.digest_minutes == 15 and pref.webhook_url == receiver.url
    assert pref.channels["your_turn"] == ["in_app", "webhook"]
    assert pref.channels["level_up"] == []


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("http://169.254.169.254/latest/", "link-local"),
        ("http://10.0.0.8/hook", "private"),
        ("ftp://example.com/", "Only http"),
    ],
)
def test_unsafe_webhook_is_a_form_error(player, client_for, url, reason):
    response = client_for(player).post("/notifications/preferences/", _pref_post(webhook_url=url))
    assert response.status_code == 400
    assert reason in response.content.decode()
    assert not NotificationPreference.objects.filter(user=player).exists()


def test_loopback_webhook_is_a_form_error_outside_tests(player, client_for, receiver, settings):
    settings.WEBHOOK_ALLOW_LOOPBACK = False
    response = client_for(player).post(
        "/notifications/preferences/", _pref_post(webhook_url=receiver.url)
    )
    assert response.status_code == 400
    assert "loopback" in response.content.decode()


def test_bad_digest_choice_is_400(player, client_for):
    response = client_for(player).post(
        "/notifications/preferences/", _pref_post(digest_minutes="7")
    )
    assert response.status_code == 400


def test_campaign_webhook_page_is_for_gms(gm, player, outsider, campaign, client_for):
    url = f"/notifications/campaigns/{campaign.pk}/"
    assert client_for(gm).get(url).status_code == 200
    assert client_for(player).get(url).status_code == 403
    assert client_for(outsider).get(url).status_code == 404
    assert client_for(player).post(url, {"digest_minutes": "0"}).status_code == 403
    assert "Campaign webhooks" in client_for(gm).get("/notifications/preferences/").content.decode()


def test_gm_sets_the_campaign_webhook(gm, campaign, client_for, receiver):
    url = f"/notifications/campaigns/{campaign.pk}/"
    response = client_for(gm).post(
        url,
        {
            "webhook_url": receiver.url,
            "events": ["level_up", "loot_awarded"],
            "digest_minutes": "0",
        },
    )
    assert response.status_code == 302
    config = CampaignNotificationSettings.objects.get(campaign=campaign)
    assert config.webhook_url == receiver.url
    assert config.events == ["level_up", "loot_awarded"]
    bad = client_for(gm).post(
        url, {"webhook_url": "http://192.168.0.1/", "events": ["dragons"], "digest_minutes": "0"}
    )
    assert bad.status_code == 400
    html = bad.content.decode()
    assert "private" in html and "dragons" in html
