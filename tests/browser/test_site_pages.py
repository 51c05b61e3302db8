"""The pages around the games (issue 40, "Everywhere else"): every error page is the site's
own at every width, the API's docs carry the site's header and a way back, the nav says
"Notification settings", a character's spell power outside a battle reads as a sentence on the
GM's dashboard, and the phone's character sheet shows the odds without sideways scrolling.
axe-core checks the error pages and the API's docs too (they are not in the visual sweep)."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.views.defaults import server_error

from tests.browser.conftest import ARTIFACTS
from tests.browser.test_visual import axe_violations
from tests.factories import CharacterFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = ARTIFACTS / "site-pages"
WIDTHS = (1280, 390)


def _fits(page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


def _site_header(page) -> None:
    """The site's own page: its header's name links home and nothing scrolls sideways."""
    assert page.get_attribute(".topbar .brand, .api-docs-bar .api-docs-brand", "href") == "/"
    assert _fits(page)
    assert axe_violations(page) == []


@pytest.mark.parametrize("width", WIDTHS)
def test_error_pages_are_the_sites_own(new_page, campaign, player, width):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = new_page(player)
    page.set_viewport_size({"width": width, "height": 844})
    missing = page.goto("/no-such-page/")
    assert missing.status == 404
    _site_header(page)
    forbidden = page.goto(f"/campaigns/{campaign.pk}/dashboard/")
    assert forbidden.status == 403
    _site_header(page)
    page.screenshot(path=str(SHOTS / f"403-{width}.png"))
    # the 500 page as Django's own handler renders it, served from the site's address so its
    # style sheet loads as it would
    html = server_error(RequestFactory().get("/")).content.decode()
    page.route(
        "**/server-error-page/",
        lambda route: route.fulfill(body=html, status=500, content_type="text/html"),
    )
    page.goto("/server-error-page/")
    assert page.inner_text("h1") == "Something went wrong"
    assert page.evaluate("getComputedStyle(document.body).fontFamily") != "Times New Roman"
    _site_header(page)
    page.screenshot(path=str(SHOTS / f"500-{width}.png"))


def test_the_api_docs_have_the_site_header_and_a_way_back(new_page, player):
    page = new_page(player)
    page.goto("/api/docs/")
    page.wait_for_selector(".swagger-ui .info")
    assert page.get_attribute(".api-docs-bar a:has-text('Back to the site')", "href") == "/"
    page.screenshot(path=str(SHOTS / "api-docs-1280.png"))


def test_the_nav_says_notification_settings(new_page, player):
    page = new_page(player)
    page.goto("/")
    link = page.locator("header a[href='/notifications/preferences/']")
    assert link.inner_text() == "Notification settings"


def test_spell_power_outside_a_battle_reads_as_a_sentence(new_page, campaign, gm, player):
    """Ruleset, Spell Power: a character holds none outside a battle, at most the cap (400)."""
    CharacterFactory(owner=player, campaign=campaign, name="Reimu")
    page = new_page(gm)
    page.goto(f"/campaigns/{campaign.pk}/dashboard/")
    cell = page.inner_text("td.spell-power")
    assert cell == "none outside a battle (holds up to 400)"


def test_the_phone_sheet_shows_the_odds_without_sideways_scrolling(new_page, player):
    hero = CharacterFactory(owner=player, name="Reimu")
    page = new_page(player)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/characters/{hero.pk}/")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "sheet-390.png"), full_page=True)
    for table in (".stats-table", ".skills-table"):
        heads = page.eval_on_selector_all(f"{table} thead th", "hs => hs.map((h) => h.textContent)")
        beat = heads.index("Beat 12") + 1
        rights = page.eval_on_selector_all(
            f"{table} tbody td:nth-child({beat}), {table} thead th:nth-child({beat})",
            "cs => cs.map((c) => c.getBoundingClientRect().right)",
        )
        assert rights and max(rights) <= 390, (table, max(rights))


def test_motion_follows_prefers_reduced_motion(new_page, player):
    """With reduced motion asked for, the battle board's ping ring does not pulse and a token
    does not glide (static/css/battle.css's animation and transition); without, they do."""
    page = new_page(player)
    page.goto("/")
    probe = """() => { const ring = document.createElement("div");
        ring.className = "battle-board__ping-ring"; const ghost = document.createElement("div");
        ghost.className = "battle-board__ghost battle-board__ghost--snap";
        const box = document.createElement("div"); box.className = "battle-screen";
        box.append(ring, ghost); document.body.append(box);
        const out = [getComputedStyle(ring).animationName,
                     getComputedStyle(ghost).transitionDuration];
        box.remove(); return out; }"""
    page.emulate_media(reduced_motion="no-preference")
    assert page.evaluate(probe) == ["battle-ping", "0.2s, 0.2s"]
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(probe) == ["none", "0s"]
