"""A level-1 character sheet prints on at most two A4 pages, with no half-empty page, and in
print colours even when the screen is dark (issue 10). Chromium prints it (``page.pdf``); the
pages are counted in the PDF."""

from __future__ import annotations

import io
import math
import re

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: A4 at 96 px per inch, less the sheet's 12 mm margins (static/css/site.css, @page).
A4_CONTENT_PX = (round((210 - 24) / 25.4 * 96), round((297 - 24) / 25.4 * 96))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_level_one_sheet_prints_on_two_a4_pages(browser, live_server, scheme):
    from characters.models import Character

    call_command("seed_demo", stdout=io.StringIO())
    reimu = Character.objects.get(name="Reimu Hakurei")
    assert reimu.level == 1
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 1280, "height": 900}, color_scheme=scheme
    )
    page = context.new_page()
    page.goto("/accounts/login/")
    page.fill("#id_username", "reimu")
    page.fill("#id_password", "roses-reimu-demo")
    page.click("form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    page.goto(f"/characters/{reimu.pk}/")
    pdf = page.pdf(format="A4", print_background=True)
    pages = len(re.findall(rb"/Type\s*/Page\b", pdf))
    assert 1 <= pages <= 2
    # no page left half empty by a forced break: the pages are what the content needs
    page.set_viewport_size({"width": A4_CONTENT_PX[0], "height": A4_CONTENT_PX[1]})
    page.emulate_media(media="print")
    height = page.evaluate("document.documentElement.scrollHeight")
    assert pages == math.ceil(height / A4_CONTENT_PX[1])
    # printed in print colours: white paper even when the screen is dark
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)")
    context.close()
