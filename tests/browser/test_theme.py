"""Dark mode (issue 10): every page follows the system's prefers-color-scheme, and a toggle in
the header overrides it (system → light → dark), remembered by the browser. The header is one
line on a phone; its menu opens with a tap. A favicon on every page."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LUMINANCE = """() => { const [r, g, b] = getComputedStyle(document.body).backgroundColor
  .match(/\\d+/g).map(Number); return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255; }"""


def test_the_system_setting_and_the_toggle(new_page, campaign, player):
    page = new_page(player)
    page.emulate_media(color_scheme="dark")
    page.goto(f"/campaigns/{campaign.pk}/")
    assert page.evaluate(LUMINANCE) < 0.2  # the system says dark
    assert page.text_content("#theme-toggle") == "Theme: system"
    page.click("#account-toggle")  # on a laptop, under her name
    page.click("#theme-toggle")  # light, whatever the system says
    assert page.text_content("#theme-toggle") == "Theme: light"
    assert page.evaluate(LUMINANCE) > 0.8
    page.reload()
    assert page.evaluate(LUMINANCE) > 0.8  # remembered
    page.click("#account-toggle")
    page.click("#theme-toggle")  # dark (the menu stays open for the next press)
    page.emulate_media(color_scheme="light")
    assert page.evaluate(LUMINANCE) < 0.2
    assert page.get_attribute("html", "data-theme") == "dark"
    page.click("#theme-toggle")  # back to following the system
    assert page.evaluate(LUMINANCE) > 0.8
    assert page.get_attribute("html", "data-theme") is None
    # a favicon, served
    icon = page.get_attribute("link[rel=icon]", "href")
    assert page.request.get(icon).status == 200


def test_the_header_is_one_line_on_a_phone(new_page, campaign, player):
    page = new_page(player)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/campaigns/{campaign.pk}/")
    header = page.eval_on_selector(".topbar", "e => e.getBoundingClientRect().toJSON()")
    brand = page.eval_on_selector(".brand", "e => e.getBoundingClientRect().toJSON()")
    assert header["height"] < 2.2 * brand["height"] + 20  # one line of links, not three
    for sel in (".brand", "#bell", "#menu-toggle"):
        box = page.eval_on_selector(sel, "e => e.getBoundingClientRect().toJSON()")
        assert box["top"] >= header["top"] and box["bottom"] <= header["bottom"], sel
        assert box["right"] <= 390, sel
    assert not page.is_visible("#theme-toggle")
    page.click("#menu-toggle")
    assert page.get_attribute("#menu-toggle", "aria-expanded") == "true"
    assert page.is_visible("#theme-toggle") and page.is_visible("text=Log out")


OVERLAPS = (Path(__file__).parent / "header_overlaps.js").read_text()


@pytest.mark.parametrize("width", [1280, 1024, 800])
def test_the_header_fits_beside_the_bell_with_a_long_name(new_page, campaign, player, width):
    """On a laptop every control of the header stands on its own, a long name included (it
    once ran the language switcher under the bell at 1280 px); the account's links open from
    her name, and Escape or a click elsewhere closes them."""
    player.display_name = "Yukari Yakumo of the Boundary"
    player.save(update_fields=["display_name"])
    page = new_page(player)
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(f"/campaigns/{campaign.pk}/")
    assert page.evaluate(OVERLAPS) == []
    toggle = page.locator("#account-toggle")
    assert toggle.inner_text().startswith("Yukari")
    assert not page.is_visible("text=Log out")
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    for name in ("Notification settings", "Log out"):
        assert page.get_by_text(name, exact=True).is_visible(), name
    assert page.is_visible("#theme-toggle") and page.is_visible("#lang-switch-select")
    assert page.evaluate(OVERLAPS) == []  # the open menu over nothing of it
    page.keyboard.press("Escape")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert not page.is_visible("text=Log out")
    toggle.click()
    page.click("main h1")
    assert not page.is_visible("text=Log out")


def test_times_default_to_the_browsers_zone(browser, live_server, campaign, gm, player):
    """With no zone in her profile, session times follow her browser's zone (site.js tells the
    server in a cookie) and name it."""
    from datetime import UTC, datetime

    from gmtools.models import GameSession

    session = GameSession.objects.create(
        campaign=campaign,
        title="Winter",
        starts_at=datetime(2030, 12, 1, 19, 0, tzinfo=UTC),
        created_by=gm,
    )
    context = browser.new_context(base_url=live_server.url, timezone_id="Asia/Tokyo")
    page = context.new_page()
    page.goto("/accounts/login/")
    page.fill("#id_username", player.username)
    page.fill("#id_password", "correct-horse-battery-staple")
    page.click("form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    page.goto(f"/campaigns/{campaign.pk}/sessions/{session.pk}/")
    assert page.text_content("#session-starts") == "Monday, December 2, 2030, 04:00 (Asia/Tokyo)"
    context.close()
