"""The Content-Security-Policy is enforced (no bypass here) and no page we serve breaks it: no
console report of a refused script, style, image or connection on the main pages, the API docs
included (their start-up script is a file, not inline)."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PAGES = ["/", "/dice/", "/characters/", "/notifications/", "/api/docs/"]


def test_main_pages_break_no_csp_rule(browser, live_server):
    user = UserFactory(username="csp-reader")
    context = browser.new_context(base_url=live_server.url)
    violations: list[str] = []
    page = context.new_page()
    page.on(
        "console",
        lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    page.goto("/accounts/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", "correct-horse-battery-staple")
    page.click("form button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    for path in PAGES:
        page.goto(path)
        page.wait_for_load_state("networkidle")
    assert page.locator(".swagger-ui").count() == 1  # the docs really started
    context.close()
    assert violations == []
