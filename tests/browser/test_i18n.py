"""The site's frame, account pages, error page, home page and notification settings in
Japanese and Chinese, as Chromium draws them (docs/i18n.md): at 1280 and 390 px (with the
phone's menu open too), nothing sticks out sideways, every character is drawn with a real
glyph (the Noto CJK fonts `make browser` installs; tests/browser/i18n_checks.js compares
each character's pixels with the box of a character no font has), and no word of the
interface is left in English (user content, inside ``translate="no"``, and the names in
:data:`ALLOWED` excepted). And the header's switcher works by keyboard alone on a phone."""

from __future__ import annotations

from pathlib import Path

import pytest

from accounts.models import User
from tests.factories import UserFactory

CHECKS = (Path(__file__).parent / "i18n_checks.js").read_text()
HEADER_JS = (Path(__file__).parent / "header_overlaps.js").read_text()

#: Words that stay in Latin letters in every language: names (the site's, a language's own
#: name in the switcher, a chat service's) and technical terms both languages write so.
ALLOWED = [
    "Western Roses",
    "English",
    "API",
    "Webhook",
    "URL",
    "Discord",
    "JavaScript",
    "RPG",
    # the tavern games' names, proper names like the site's (docs/glossary/ja.md)
    "Dream Battle of SpellCard",
    "Rumbling Spell Orchestra",
    "Spirit War",
    "RAIGO",
    # abbreviations Japanese and Chinese tabletop players write in Latin letters too
    "GM",
    "NPC",
    "HP",
    # the rulebook's stat abbreviations, as the sheet and the house rules write them
    "PWR",
    "INT",
    "CHA",
    "INS",
    "PDF",
    "JPEG",
    "PNG",
    "GIF",
    "WebP",
    "MB",
    "UTC",
    "Markdown",
    "JSON",
]

#: Pages a visitor sees, and pages of a signed-in player (her language is her account's).
VISITOR_PAGES = [
    "/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/accounts/password/reset/sent/",
    "/no-such-page/",
]
PLAYER_PAGES = ["/", "/accounts/profile/", "/notifications/preferences/", "/accounts/password/"]

WIDTHS = (1280, 390)


def _problems(page, lang: str, where: str) -> list[str]:
    found = page.evaluate(CHECKS, ALLOWED)
    problems = []
    if found["lang"] != lang:
        problems.append(f"{where}: <html lang> is {found['lang']!r}")
    if found["english"]:
        problems.append(f"{where}: English left: {found['english']}")
    if found["missing"]:
        problems.append(f"{where}: drawn without a glyph: {found['missing']}")
    if not found["tofuIsCaught"] or found["checkedChars"] < 5:
        problems.append(f"{where}: the glyph check cannot tell ({found})")
    if found["scrollWidth"] > found["innerWidth"] + 1 or found["wide"]:
        problems.append(f"{where}: wider than the screen: {found['wide']}")
    if not found["headerFits"]:
        problems.append(f"{where}: the header's links run under the bell")
    overlaps = page.evaluate(HEADER_JS)
    if overlaps:
        problems.append(f"{where}: header controls over one another: {overlaps}")
    return problems


def _sweep(page, lang: str, paths: list[str], who: str) -> list[str]:
    problems = []
    for path in paths:
        page.set_viewport_size({"width": 1280, "height": 900})
        response = page.goto(path)
        assert response is not None and response.status in (200, 404), (path, response)
        page.wait_for_load_state("load")
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            where = f"{who} {lang} {path} at {width} px"
            problems += _problems(page, lang, where)
            if width < 760:
                page.click("#menu-toggle")
                problems += _problems(page, lang, where + " with the menu open")
                switcher = page.locator("#lang-switch-select")
                if not switcher.is_visible():
                    problems.append(f"{where}: the language switcher is not in the open menu")
                page.click("#menu-toggle")
    return problems


@pytest.mark.parametrize("lang", ["ja", "zh-hans"])
def test_the_frame_reads_fully_in_the_language(new_page, lang):
    visitor = new_page()
    visitor.set_extra_http_headers(
        {"Accept-Language": {"ja": "ja-JP,ja", "zh-hans": "zh-CN,zh"}[lang]}
    )
    player = UserFactory(username=f"reader-{lang}", language=lang)
    # a browser asking for English: her account's language wins
    signed_in = new_page(player)
    signed_in.set_extra_http_headers({"Accept-Language": "en"})
    problems = _sweep(visitor, lang, VISITOR_PAGES, "visitor")
    problems += _sweep(signed_in, lang, PLAYER_PAGES, "player")
    assert not problems, "\n".join(problems)


def test_an_english_page_is_caught_by_the_same_checks(new_page):
    """The checks can fail: the English log-in page is read as a page that should be in
    Japanese, and every English word of the interface is reported."""
    page = new_page()
    page.set_extra_http_headers({"Accept-Language": "en"})
    page.goto("/accounts/login/")
    found = page.evaluate(CHECKS, ALLOWED)
    assert found["lang"] == "en"
    assert {"Log", "in", "Forgot", "password", "Sign", "up"} <= set(found["english"])
    assert found["tofuIsCaught"]


def test_the_switcher_works_by_keyboard_on_a_phone(new_page):
    page = new_page()
    page.set_extra_http_headers({"Accept-Language": "en"})
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto("/accounts/login/")
    assert page.inner_text("h1") == "Log in"

    def tab_to(selector: str) -> None:
        for _ in range(40):
            page.keyboard.press("Tab")
            if page.evaluate("(s) => document.activeElement.matches(s)", selector):
                return
        raise AssertionError(f"Tab never reaches {selector}")

    tab_to("#menu-toggle")
    page.keyboard.press("Enter")
    tab_to("#lang-switch-select")
    # its label is read with it, and shown in the phone's menu
    assert page.locator("label[for=lang-switch-select]").is_visible()
    page.keyboard.press("ArrowDown")
    assert page.eval_on_selector("#lang-switch-select", "(s) => s.value") == "ja"
    tab_to(".lang-switch__go")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.endswith("/accounts/login/")
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert page.inner_text("h1") == "ログイン"


def test_a_players_switch_follows_her_to_another_device(new_page):
    player = UserFactory(username="switcher")
    page = new_page(player)
    page.set_extra_http_headers({"Accept-Language": "en"})
    page.goto("/accounts/profile/")
    # the English header, its longest, fits at 1280 px with the switcher in it
    assert page.evaluate(CHECKS, ALLOWED)["headerFits"]
    page.click("#account-toggle")  # on a laptop, the switcher is under her name
    page.select_option("#lang-switch-select", "zh-hans")
    with page.expect_navigation():
        page.click(".lang-switch__go")
    assert page.inner_text("h1") == "你的个人资料"
    assert User.objects.get(pk=player.pk).language == "zh-hans"
    # her phone, whose browser asks for Japanese, shows her choice
    phone = new_page(player)
    phone.set_extra_http_headers({"Accept-Language": "ja"})
    phone.goto("/")
    assert phone.evaluate("document.documentElement.lang") == "zh-hans"
    assert phone.inner_text("h2") == "你的战役"
