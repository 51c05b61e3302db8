"""Live alerts on every page (issue 10: the bell stayed at 5 through several "your turn" alerts).

Within 2 s of a notification, without a reload: the bell's count and a notice with its title;
for "your turn" also the page title and the tab icon's badge. A sound and a browser notification
only after she switches them on (the browser asks permission only then).
"""

from __future__ import annotations

import pytest

from notifications.models import Notification
from tests import chromium
from tests.browser.conftest import goto_holding_first_request
from tests.browser.live import LIVE_MS
from tests.factories import NotificationFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.full_chromium,
    pytest.mark.django_db(transaction=True),
]


def count_is(page, n: int) -> None:
    page.wait_for_function(
        f"document.getElementById('unread-count').textContent.trim() === '{n}'", timeout=LIVE_MS
    )


def first_poll_answered(page) -> None:
    """The bell's first poll has answered: a notification made after it is news to the page
    (one made before is not, so a fixed pause lost the race on a loaded machine)."""
    page.wait_for_function("document.body.dataset.bellPolled === '1'", timeout=LIVE_MS)


def test_the_bell_and_the_turn_signals_update_without_a_reload(new_page, campaign, player):
    page = new_page(player)
    page.goto(f"/campaigns/{campaign.pk}/")
    first_poll_answered(page)  # it has seen nothing new
    assert page.locator("#unread-count").is_hidden()
    plain_title = page.title()
    icon = page.get_attribute("#favicon", "href")

    NotificationFactory(recipient=player, event="level_up", title="Reimu reached level 2")
    count_is(page, 1)
    assert "Reimu reached level 2" in page.text_content("#live-alert")
    assert page.get_attribute("#bell", "aria-label") == "Notifications, 1 unread"

    NotificationFactory(
        recipient=player,
        event="your_turn",
        title="Your turn: Reimu in Fairies at Misty Lake",
        url="/battles/999/",
    )
    count_is(page, 2)
    page.wait_for_function("document.title.startsWith('▶ Your turn')", timeout=LIVE_MS)
    assert page.title().endswith(plain_title)
    assert "favicon-alert" in page.get_attribute("#favicon", "href")
    assert page.get_attribute("#favicon", "href") != icon
    # nobody asked her about browser notifications
    assert page.evaluate("Notification.permission") == "default"

    # read elsewhere: the count and the signals go away by themselves
    Notification.objects.filter(recipient=player).update(read_at="2026-01-01T00:00:00Z")
    page.wait_for_function(
        "document.getElementById('unread-count').hidden && !document.title.startsWith('▶')",
        timeout=LIVE_MS,
    )
    assert page.get_attribute("#favicon", "href") == icon


def test_the_notifications_list_fills_itself(new_page, player):
    page = new_page(player)
    page.goto("/notifications/")
    first_poll_answered(page)
    NotificationFactory(recipient=player, event="loot_awarded", title="Awarded 40 yen")
    page.wait_for_selector("#notification-list >> text=Awarded 40 yen", timeout=LIVE_MS)


def test_a_notification_made_before_the_first_poll_answers_still_reaches_the_list(new_page, player):
    """The list is drawn by the server, the bell's first poll answers later: a notification
    made in between is not news to the bell (no notice), but the list must still show it."""
    page = new_page(player)
    poll = goto_holding_first_request(page, "/notifications/", "**/api/notifications/**")
    NotificationFactory(recipient=player, event="loot_awarded", title="Awarded 12 yen")
    poll.continue_()
    page.wait_for_selector("#notification-list >> text=Awarded 12 yen", timeout=LIVE_MS)


# The browser's Notification, watched: what the page shows is recorded (the permission is the
# browser's own, granted by the test as a user would).
NOTIFICATION_SPY = """
const Real = window.Notification;
window.__shown = [];
window.Notification = class {
  constructor(title, options) { window.__shown.push((options || {}).body || title); }
  static get permission() { return Real.permission; }
  static requestPermission() { window.__asked = true; return Real.requestPermission(); }
};
"""


def test_browser_notifications_only_after_she_opts_in(new_page, campaign, player):
    page = new_page(player)
    page.context.grant_permissions(["notifications"])
    page.context.add_init_script(NOTIFICATION_SPY)
    page.goto(f"/campaigns/{campaign.pk}/")
    NotificationFactory(recipient=player, event="your_turn", title="Your turn: one", url="/b/1/")
    page.wait_for_function("document.title.startsWith('▶ Your turn')", timeout=LIVE_MS)
    assert page.evaluate("window.__shown") == []
    assert page.evaluate("window.__asked === undefined")

    page.goto("/notifications/preferences/")
    page.check("#turn-desktop")
    page.wait_for_function("localStorage.getItem('wr-turn-desktop') === '1'")
    assert page.is_checked("#turn-desktop")
    Notification.objects.filter(recipient=player).update(read_at="2026-01-01T00:00:00Z")
    page.goto(f"/campaigns/{campaign.pk}/")
    first_poll_answered(page)
    NotificationFactory(recipient=player, event="your_turn", title="Your turn: two", url="/b/2/")
    page.wait_for_function("window.__shown.length === 1", timeout=LIVE_MS)
    assert page.evaluate("window.__shown") == ["Your turn: two"]


def test_browser_notifications_are_tested_on_the_full_browser(browser):
    """The headless shell has no notification permission to ask for: this module runs on the
    full browser, the one people run (tests/chromium.py)."""
    browser.new_context().close()
    assert [p.exe() for p in browser.processes()] == ["/usr/lib/chromium/chromium"]
    assert browser.executable == chromium.CHROMIUM
