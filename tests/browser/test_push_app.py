"""The installable app in a phone-sized Chromium (issue 42): the service worker registers for the
whole site, a "your turn" push reaches it with the site's tab closed and shows a notification,
tapping it lands on the table, and a page load without a network says "you are offline" and
shows no table.

No real push service is reachable from the test machine, so the push goes the real way as far as
a push service (a real move at a real table raises "your turn", the Celery task sends it signed
and encrypted to the stand-in of tests/notifications/push_service.py, which verifies and
decrypts it) and the stand-in's decrypted message is handed to the browser's service worker
through the DevTools protocol (``ServiceWorker.deliverPushMessage``), as a push service would
hand it over. A tap cannot be made on a headless notification, so the test dispatches the
``notificationclick`` event to the service worker's own handler.
"""

from __future__ import annotations

import json

import pytest

from minigames.engines.registry import get_engine
from minigames.models import TavernTable
from notifications import webpush
from notifications.models import Delivery, PushSubscription
from tests.browser.conftest import _session_cookie, wait_until
from tests.browser.live import LIVE_MS
from tests.minigames.conftest import two_humans
from tests.notifications.push_service import PushService

pytestmark = [
    pytest.mark.browser,
    pytest.mark.full_chromium,
    pytest.mark.django_db(transaction=True),
]

PHONE = {"width": 390, "height": 844}

NOTIFICATIONS = """async () => {
  const registration = await (self.registration ? Promise.resolve(self.registration)
                                                 : navigator.serviceWorker.ready);
  return (await registration.getNotifications()).map(
    (n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url }));
}"""

CLICK = """() => self.registration.getNotifications().then((shown) => {
  self.dispatchEvent(new NotificationEvent("notificationclick", { notification: shown[0] }));
  return shown.length;
})"""


def test_a_your_turn_push_shows_with_the_tab_closed_and_a_tap_opens_the_table(
    browser, live_server, settings, player, other_player
):
    settings.VAPID_PRIVATE_KEY = webpush.generate_private_key()
    settings.SITE_URL = live_server.url
    service = PushService(application_server_key=webpush.public_key()).start()
    # bypass_csp: Playwright's waits evaluate strings, which the site's CSP forbids
    context = browser.new_context(
        base_url=live_server.url,
        viewport=PHONE,
        is_mobile=True,
        service_workers="allow",
        bypass_csp=True,
    )
    try:
        context.grant_permissions(["notifications"], origin=live_server.url)
        # both players' phones are subscribed, whichever seat the game starts with
        devices = {}
        for user in (player, other_player):
            device = service.device()
            PushSubscription.objects.create(
                user=user,
                endpoint=device.endpoint,
                p256dh=device.p256dh,
                auth=device.subscription()["keys"]["auth"],
                name="Chrome on Android",
            )
            devices[user.pk] = device
        context.add_cookies([_session_cookie(player, live_server.url)])
        # a tab kept on another site, so closing the site's tab leaves the browser running
        elsewhere = context.new_page()
        cdp = context.new_cdp_session(elsewhere)
        registrations: dict[str, str] = {}
        cdp.on(
            "ServiceWorker.workerRegistrationUpdated",
            lambda event: registrations.update(
                {r["scopeURL"]: r["registrationId"] for r in event["registrations"]}
            ),
        )
        cdp.send("ServiceWorker.enable")

        page = context.new_page()
        page.goto("/notifications/preferences/")
        # installable: the manifest is linked and the worker controls the whole site
        assert page.get_attribute("link[rel=manifest]", "href") == "/manifest.webmanifest"
        page.wait_for_function(
            "navigator.serviceWorker.controller !== null", timeout=LIVE_MS, polling=100
        )
        assert page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)") == (
            f"{live_server.url}/"
        )
        assert page.locator("#push-subscribe").is_visible()
        assert "Chrome on Android, subscribed" in page.inner_text("#push-devices")
        page.close()  # the site's tab is closed

        # a real table starts: the seat to move gets "your turn" through the Celery path
        table = two_humans("spirit_war", player, other_player)
        table = TavernTable.objects.get(pk=table.pk)
        engine = get_engine("spirit_war")
        seat = engine.waiting_on(engine.from_json(table.state))[0]
        mover = (player, other_player)[seat]
        wait_until(
            elsewhere,
            lambda: service.accepted(devices[mover.pk]),
            "the push service took the push",
        )
        (pushed,) = service.accepted(devices[mover.pk])
        delivery = Delivery.objects.get(channel="push", notification__recipient=mover)
        assert delivery.status == "sent"
        assert pushed.payload["url"] == f"{live_server.url}/tavern/tables/{table.pk}/"
        assert pushed.payload["title"] == delivery.notification.title
        assert pushed.payload["title"].startswith("Your move at Spirit War")

        # the push service hands the decrypted message to the phone's service worker
        registration_id = registrations[f"{live_server.url}/"]

        def deliver() -> None:
            cdp.send(
                "ServiceWorker.deliverPushMessage",
                {
                    "origin": live_server.url,
                    "registrationId": registration_id,
                    "data": json.dumps(pushed.payload),
                },
            )

        deliver()
        wait_until(elsewhere, lambda: context.service_workers, "the service worker runs")
        shown: list[dict[str, str]] = []
        tries = iter(range(10_000))

        def notification_shown() -> list[dict[str, str]]:
            # on a loaded machine a message handed over while the worker starts can be lost;
            # a push service redelivers, so the test does too, every 2 s (one tag, one notification)
            if next(tries) % 40 == 39:
                deliver()
            shown.extend(context.service_workers[-1].evaluate(NOTIFICATIONS))
            return shown

        wait_until(elsewhere, notification_shown, "the notification is shown", seconds=30)
        worker = context.service_workers[-1]
        assert shown == [
            {
                "title": pushed.payload["title"],
                "body": pushed.payload["body"],
                "tag": f"delivery-{delivery.pk}",
                "url": pushed.payload["url"],
            }
        ]

        # the same message again (a worker killed after the push service took it): the tag
        # replaces the first notification instead of showing a second
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": live_server.url,
                "registrationId": registration_id,
                "data": json.dumps(pushed.payload),
            },
        )
        elsewhere.wait_for_timeout(300)
        assert len(worker.evaluate(NOTIFICATIONS)) == 1

        # a tap: the open tab of the site goes to the table
        landing = context.new_page()
        landing.goto("/")
        landing.wait_for_function(
            "navigator.serviceWorker.controller !== null", timeout=LIVE_MS, polling=100
        )
        assert worker.evaluate(CLICK) == 1
        landing.wait_for_url(f"**/tavern/tables/{table.pk}/", timeout=LIVE_MS)
        assert worker.evaluate(NOTIFICATIONS) == []  # the tapped notification is closed

        # the connection drops: the open table says so and greys out what it last showed
        context.set_offline(True)
        landing.wait_for_selector("#offline-banner", timeout=LIVE_MS)
        assert landing.inner_text("#offline-banner").startswith("You are offline.")
        assert landing.evaluate("getComputedStyle(document.getElementById('main')).opacity") == (
            "0.45"
        )
        # and loading it again answers "you are offline", never the table
        landing.goto(f"/tavern/tables/{table.pk}/")
        assert landing.inner_text("h1") == "You are offline"
        assert landing.locator("#tavern-board").count() == 0
        assert "spirit" not in landing.inner_text("body").lower()
        context.set_offline(False)
        landing.reload()
        assert landing.locator("#offline-banner").count() == 0
        landing.wait_for_selector("#tavern-board")
    finally:
        context.close()
        service.stop()
