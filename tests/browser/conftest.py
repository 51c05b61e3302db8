"""Playwright driving Debian's Chromium (/usr/bin/chromium) against pytest-django's live server.

Browsers are never downloaded: `make test` installs Debian's chromium when it is missing. Each
user gets a separate browser context (cookies, storage), like separate people at the table.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--headless=new",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "test-artifacts"

# Playwright's sync API runs an event loop in the test thread; the ORM calls tests make between
# browser steps are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

pytestmark = pytest.mark.browser


@pytest.fixture
def new_page(browser, live_server, request):
    """``new_page(user=None)`` → a page in a fresh context, logged in as ``user`` if given."""
    contexts = []

    def make(user=None):
        # Playwright's own waits (wait_for_function) evaluate strings in the page, which the
        # app's CSP forbids; tests/browser/test_csp.py visits pages with the CSP enforced.
        context = browser.new_context(
            base_url=live_server.url, viewport={"width": 1280, "height": 900}, bypass_csp=True
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        if user is not None:
            page.goto("/accounts/login/")
            page.fill("#id_username", user.username)
            page.fill("#id_password", "correct-horse-battery-staple")
            page.click("form button[type=submit]")
            page.wait_for_url(f"{live_server.url}/")
        return page

    yield make
    failed = getattr(request.node, "rep_call", None)
    for i, context in enumerate(contexts):
        if failed is not None and failed.failed:
            ARTIFACTS.mkdir(exist_ok=True)
            for j, page in enumerate(context.pages):
                page.screenshot(path=str(ARTIFACTS / f"{request.node.name}-{i}-{j}.png"))
        context.close()


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    setattr(item, f"rep_{rep.when}", rep)
