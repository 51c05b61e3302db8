"""The Web Push channel end to end: a device subscribes through the API, a notification goes out
through the same Celery task and delivery attempt as email and webhooks, and a push service
stand-in on 127.0.0.1 (tests/notifications/push_service.py) checks the VAPID signature and
decrypts the payload as a browser would. Digests, quiet mode, retries, dead letters and expired
subscriptions (404/410) follow; then the settings page, the API, and the installable app's files.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from notifications import notify, webpush
from notifications import tasks as notification_tasks
from notifications.delivery import delivery_attempt, digest_attempt, digests_build
from notifications.models import (
    Delivery,
    Digest,
    Notification,
    NotificationPreference,
    PushSubscription,
)
from tests.notifications.push_service import PushService

pytestmark = pytest.mark.django_db

VAPID_KEY = webpush.generate_private_key()


@pytest.fixture
def vapid(settings):
    settings.VAPID_PRIVATE_KEY = VAPID_KEY
    settings.VAPID_SUBJECT = "mailto:ops@westernroses.example"
    return webpush.public_key()


@pytest.fixture
def push_service(vapid):
    service = PushService(application_server_key=vapid).start()
    yield service
    service.stop()


def _subscribe(api_for, user, device, name="Test phone"):
    response = api_for(user).post(
        "/api/notifications/push/", device.subscription(name), format="json"
    )
    assert response.status_code == 201, response.content
    return PushSubscription.objects.get(pk=response.json()["id"])


def _channels(notification: Notification) -> dict[str, str]:
    return dict(notification.deliveries.values_list("channel", "status"))


def test_your_turn_reaches_the_device_signed_and_encrypted(
    player, campaign, api_for, push_service, django_capture_on_commit_callbacks
):
    device = push_service.device()
    subscription = _subscribe(api_for, player, device)
    with django_capture_on_commit_callbacks(execute=True):
        n = notify(
            recipient=player,
            event="your_turn",
            campaign=campaign,
            title="Your turn: Reimu in Fairies at Misty Lake",
            body="Round 3.",
            url="/battles/7/",
        )
    push = n.deliveries.get(channel="push")
    assert _channels(n)["push"] == "sent"
    (pushed,) = push_service.accepted(device)
    # the notification's own words, its link on the site, and the delivery's key as its tag
    assert pushed.payload == {
        "title": "Your turn: Reimu in Fairies at Misty Lake",
        "body": "Round 3.",
        "url": "http://127.0.0.1:8000/battles/7/",
        "tag": f"delivery-{push.pk}",
    }
    assert pushed.claims["sub"] == "mailto:ops@westernroses.example"
    assert pushed.headers["topic"] == f"delivery-{push.pk}"
    assert pushed.headers["urgency"] == "high"  # your turn is urgent
    assert int(pushed.headers["ttl"]) == webpush.TTL_SECONDS
    subscription.refresh_from_db()
    assert subscription.last_sent_at is not None
    # redelivered task: the row says sent, nothing goes out again
    assert notification_tasks.deliver.apply(args=[push.pk]).get() == "noop"
    assert len(push_service.received) == 1


def test_every_device_gets_it_and_an_expired_one_is_removed(
    player, campaign, api_for, push_service, django_capture_on_commit_callbacks
):
    phone, laptop = push_service.device(), push_service.device()
    _subscribe(api_for, player, phone, "Phone")
    gone = _subscribe(api_for, player, laptop, "Laptop")
    push_service.answer(laptop, 410)
    with django_capture_on_commit_callbacks(execute=True):
        n = notify(recipient=player, event="turn_reminder", campaign=campaign, title="Still you")
    assert _channels(n)["push"] == "sent"
    assert len(push_service.accepted(phone)) == 1
    assert not PushSubscription.objects.filter(pk=gone.pk).exists()
    assert PushSubscription.objects.filter(user=player).count() == 1


def test_the_only_device_answering_404_is_removed_and_the_delivery_skipped(
    player, campaign, api_for, push_service
):
    device = push_service.device()
    _subscribe(api_for, player, device)
    push_service.answer(device, 404)
    n = notify(recipient=player, event="your_turn", campaign=campaign, title="Go")
    push = n.deliveries.get(channel="push")
    assert delivery_attempt(delivery_id=push.pk).outcome == "skipped"
    push.refresh_from_db()
    assert push.status == "skipped"
    assert "expired" in push.last_error
    assert not PushSubscription.objects.filter(user=player).exists()
    # and the next notification does not try push at all
    later = notify(recipient=player, event="your_turn", campaign=campaign, title="Go again")
    assert "push" not in _channels(later)


def test_a_busy_push_service_is_retried_then_dead_lettered(
    player, campaign, api_for, push_service, settings
):
    settings.NOTIFICATION_MAX_ATTEMPTS = 3
    device = push_service.device()
    _subscribe(api_for, player, device)
    push_service.answer(device, 503, 429)
    n = notify(recipient=player, event="your_turn", campaign=campaign, title="Go")
    push = n.deliveries.get(channel="push")
    first = delivery_attempt(delivery_id=push.pk)
    assert first.outcome == "retry"
    assert first.retry_in is not None and first.retry_in > 0
    push.refresh_from_db()
    assert (push.status, push.attempts, push.retry_at is not None) == ("pending", 1, True)
    assert delivery_attempt(delivery_id=push.pk).outcome == "retry"
    assert delivery_attempt(delivery_id=push.pk).outcome == "sent"
    assert len(push_service.accepted(device)) == 1
    # a push service that keeps failing: the delivery ends failed (the dead letter) after the
    # same bound as email and webhooks
    push_service.answer(device, 503, 503, 503)
    again = notify(recipient=player, event="your_turn", campaign=campaign, title="Go on")
    failing = again.deliveries.get(channel="push")
    outcomes = [delivery_attempt(delivery_id=failing.pk).outcome for _ in range(4)]
    assert outcomes == ["retry", "retry", "failed", "noop"]
    failing.refresh_from_db()
    assert failing.status == "failed"
    assert "503" in failing.last_error


def test_a_refused_signature_is_a_permanent_failure(player, campaign, api_for, push_service):
    device = push_service.device()
    _subscribe(api_for, player, device)
    push_service.application_server_key = "another-key"  # as if the site's key had changed
    n = notify(recipient=player, event="your_turn", campaign=campaign, title="Go")
    push = n.deliveries.get(channel="push")
    assert delivery_attempt(delivery_id=push.pk).outcome == "failed"
    assert push_service.received[0].refused.startswith("VAPID: k is not the key")
    assert PushSubscription.objects.filter(user=player).exists()  # 403 is not "gone"


def test_non_urgent_pushes_wait_for_the_digest_and_quiet_mode(
    player, campaign, api_for, push_service, django_capture_on_commit_callbacks
):
    device = push_service.device()
    _subscribe(api_for, player, device)
    NotificationPreference.objects.update_or_create(
        user=player,
        defaults={"channels": {"level_up": ["push"], "loot_awarded": ["push"]}, "quiet": True},
    )
    with django_capture_on_commit_callbacks(execute=True):
        notify(recipient=player, event="level_up", campaign=campaign, title="Reimu reached level 2")
        notify(recipient=player, event="loot_awarded", campaign=campaign, title="A Hakkero")
    assert set(Delivery.objects.values_list("channel", "status")) == {("push", "held")}
    assert push_service.received == []
    much_later = timezone.now() + timedelta(days=1)
    assert digests_build(now=much_later) == []  # quiet mode holds it
    NotificationPreference.objects.filter(user=player).update(quiet=False)
    with django_capture_on_commit_callbacks(execute=True):
        (digest_id,) = digests_build(now=much_later)
    (pushed,) = push_service.accepted(device)
    assert pushed.payload == {
        "title": "2 updates",
        "body": "Reimu reached level 2\nA Hakkero",
        "url": "http://127.0.0.1:8000/notifications/",
        "tag": f"digest-{digest_id}",
    }
    assert pushed.headers["urgency"] == "normal"
    assert Digest.objects.get(pk=digest_id).status == "sent"
    assert set(Delivery.objects.values_list("status", flat=True)) == {"sent"}
    assert digest_attempt(digest_id=digest_id).outcome == "noop"


def test_a_long_body_is_shortened_to_fit_one_push(player, campaign, api_for, push_service):
    device = push_service.device()
    _subscribe(api_for, player, device)
    n = notify(
        recipient=player, event="your_turn", campaign=campaign, title="Go", body="霊夢" * 3000
    )
    push = n.deliveries.get(channel="push")
    assert delivery_attempt(delivery_id=push.pk).outcome == "sent"
    (pushed,) = push_service.accepted(device)
    assert pushed.payload["body"].endswith("…")
    assert len(json.dumps(pushed.payload, ensure_ascii=False).encode()) <= webpush.MAX_PAYLOAD_BYTES


# --------------------------------------------------------------------------- without keys


def test_without_keys_push_is_unavailable_and_says_so(
    player, campaign, api_for, client_for, settings
):
    settings.VAPID_PRIVATE_KEY = ""
    assert not webpush.available()
    page = client_for(player).get("/notifications/preferences/")
    assert page.status_code == 200
    assert "Push notifications are not available on this site" in page.content.decode()
    assert b"push-devices.js" not in page.content
    api = api_for(player)
    state = api.get("/api/notifications/push/").json()
    assert state == {"available": False, "public_key": "", "devices": []}
    refused = api.post(
        "/api/notifications/push/",
        {"endpoint": "https://push.example.com/x", "keys": {"p256dh": "a", "auth": "b"}},
        format="json",
    )
    assert refused.status_code == 400
    n = notify(recipient=player, event="your_turn", campaign=campaign, title="Go")
    assert "push" not in _channels(n)


# --------------------------------------------------------------------------- devices


def test_devices_are_listed_removed_and_private(
    player, other_player, api_for, client_for, push_service
):
    phone = _subscribe(api_for, player, push_service.device(), "Chrome on Android")
    api = api_for(player)
    state = api.get("/api/notifications/push/").json()
    assert state["available"] is True
    assert state["public_key"] == push_service.application_server_key
    assert [d["name"] for d in state["devices"]] == ["Chrome on Android"]
    assert "endpoint" not in state["devices"][0]
    # the settings page lists it, with a way to remove it
    page = client_for(player).get("/notifications/preferences/").content.decode()
    assert "Chrome on Android, subscribed" in page
    assert f'data-public-key="{push_service.application_server_key}"' in page
    # someone else cannot see or remove it
    assert api_for(other_player).get("/api/notifications/push/").json()["devices"] == []
    assert api_for(other_player).delete(f"/api/notifications/push/{phone.pk}/").status_code == 404
    assert (
        client_for(other_player).post(f"/notifications/devices/{phone.pk}/remove/").status_code
        == 404
    )
    # the page's remove button
    removed = client_for(player).post(f"/notifications/devices/{phone.pk}/remove/")
    assert removed.status_code == 302
    assert not PushSubscription.objects.exists()
    # the API's
    again = _subscribe(api_for, player, push_service.device())
    assert api.delete(f"/api/notifications/push/{again.pk}/").status_code == 204
    assert api.delete(f"/api/notifications/push/{again.pk}/").status_code == 404


def test_signing_out_removes_the_devices_subscribed_from_that_session(
    player, api_for, client_for, push_service
):
    """A shared browser: whoever signs in on it next must not receive her notifications. Her
    other sessions' devices and one a script subscribed with a token stay."""
    shared, phone = client_for(player), client_for(player)
    for browser, name in ((shared, "Shared laptop"), (phone, "Her phone")):
        answer = browser.post(
            "/api/notifications/push/",
            push_service.device().subscription(name),
            content_type="application/json",
        )
        assert answer.status_code == 201, answer.content
    _subscribe(api_for, player, push_service.device(), "A script's device")
    assert shared.post("/accounts/logout/").status_code == 302
    left = sorted(PushSubscription.objects.filter(user=player).values_list("name", flat=True))
    assert left == ["A script's device", "Her phone"]
    # the key itself is never stored
    assert all(
        len(d) in (0, 64) for d in PushSubscription.objects.values_list("session_digest", flat=True)
    )


def test_the_first_device_turns_push_on_where_saved_choices_never_named_it(
    player, campaign, api_for, push_service
):
    NotificationPreference.objects.create(
        user=player, channels={"your_turn": ["in_app"], "level_up": []}
    )
    _subscribe(api_for, player, push_service.device())
    pref = NotificationPreference.objects.get(user=player)
    assert pref.channels == {"your_turn": ["in_app", "push"], "level_up": ["push"]}
    # a choice made with a device subscribed stays as she made it
    pref.channels = {"your_turn": ["in_app"], "level_up": ["push"]}
    pref.save()
    _subscribe(api_for, player, push_service.device())
    assert NotificationPreference.objects.get(user=player).channels["your_turn"] == ["in_app"]
    n = notify(recipient=player, event="your_turn", campaign=campaign, title="Go")
    assert "push" not in _channels(n)


def test_subscribing_the_same_browser_again_updates_it(player, other_player, api_for, push_service):
    device = push_service.device()
    first = _subscribe(api_for, player, device, "Old name")
    second = _subscribe(api_for, player, device, "New name")
    assert first.pk == second.pk
    assert second.name == "New name"
    # signed in as someone else on the same browser: the subscription is hers now
    moved = _subscribe(api_for, other_player, device)
    assert moved.pk == first.pk
    assert moved.user == other_player


@pytest.mark.parametrize(
    ("endpoint", "keys", "field", "words"),
    [
        ("http://10.0.0.5/push/x", None, "endpoint", "private address"),
        ("http://169.254.169.254/latest", None, "endpoint", "link-local"),
        ("ftp://push.example.com/x", None, "endpoint", "Only http"),
        (None, {"p256dh": "bm90IGEga2V5", "auth": "AAAAAAAAAAAAAAAAAAAAAA"}, "keys", "P-256"),
        (None, "short-auth", "keys", "16-byte"),
    ],
)
def test_bad_subscriptions_are_refused(player, api_for, push_service, endpoint, keys, field, words):
    device = push_service.device()
    body = device.subscription()
    if endpoint:
        body["endpoint"] = endpoint
    if keys == "short-auth":
        body["keys"]["auth"] = "AAAA"
    elif keys:
        body["keys"] = keys
    response = api_for(player).post("/api/notifications/push/", body, format="json")
    assert response.status_code == 400
    assert words in json.dumps(response.json())
    assert not PushSubscription.objects.exists()


def test_vapid_keys_command_prints_a_working_key_pair(capsys, settings):
    call_command("vapid_keys")
    out = capsys.readouterr().out
    private = next(line for line in out.splitlines() if line.startswith("VAPID_PRIVATE_KEY="))
    settings.VAPID_PRIVATE_KEY = private.split("=", 1)[1]
    assert webpush.available()
    assert webpush.public_key() in out


# --------------------------------------------------------------------------- the app's files


def test_the_manifest_makes_the_site_installable(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = response.json()
    assert (data["name"], data["start_url"], data["scope"], data["display"]) == (
        "Western Roses",
        "/",
        "/",
        "standalone",
    )
    sizes = {icon["sizes"] for icon in data["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        served = client.get(icon["src"])
        assert served.status_code == 200
        served.close()
    home = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in home
    assert "service-worker-register.js" in home


def test_the_service_worker_is_served_for_the_whole_site(client):
    response = client.get("/service-worker.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    script = response.content.decode()
    for handler in ("push", "notificationclick", "fetch"):
        assert f'addEventListener("{handler}"' in script
    assert 'const OFFLINE_URL = "/offline/"' in script


def test_the_offline_page_names_nobody_and_shows_no_game(client, client_for, player):
    anonymous = client.get("/offline/").content.decode()
    signed_in = client_for(player).get("/offline/").content.decode()
    assert "You are offline" in anonymous
    assert anonymous == signed_in  # the same page for everyone: nothing of hers is cached
    assert player.username not in signed_in
