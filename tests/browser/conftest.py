"""Playwright driving Debian's Chromium against pytest-django's live server: its headless shell,
or the full browser for a module marked ``full_chromium`` (tests/chromium.py).

Browsers are never downloaded: `make test` installs Debian's packages when they are missing. Each
user gets a separate browser context (cookies, storage), like separate people at the table.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.core.servers.basehttp import ThreadedWSGIServer
from django.db import DEFAULT_DB_ALIAS, connections
from django.test.testcases import LiveServerThread

ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "test-artifacts"
#: How often a whole game's pages poll the live server (``TAVERN_POLL_MILLISECONDS``; a page's
#: own default is a second, which would slow every hand-over). Not faster: on two cores, the
#: whole games of tests/browser/test_tavern.py took 64 CPU-s and 73 s polling every 150 ms,
#: 49 CPU-s and 56 s every 300 ms (50 and 59 at 500 ms, 52 and 67 at 1 s).
GAME_POLL_MILLISECONDS = 300

# Playwright's sync API runs an event loop in the test thread; the ORM calls tests make between
# browser steps are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Every test here is marked ``browser`` by tests/conftest.py (a ``pytestmark`` in a conftest.py
# marks nothing: pytest reads it only in test modules).


def _session_cookie(user, url: str) -> dict[str, str]:
    """A real session for ``user`` (Django's own login, as the login form would make), as the
    browser cookie that carries it. Why not the form: it cost three page loads (the form, the
    post, the home page) per person per test, about 1.7 s each on the 2-core machine, and the
    tests go to their own page next anyway. The login form itself is driven in
    tests/browser/test_visual.py (both roles, every width) and tests/accounts/."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return {
        "name": settings.SESSION_COOKIE_NAME,
        "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
        "url": url,
    }


class _KeptConnectionsServer(ThreadedWSGIServer):
    """Django's test server, but a request thread keeps its database connection for every
    request of its HTTP connection (a browser sends many over one, keep-alive), as a
    production worker keeps its own (CONN_MAX_AGE in config/settings/production.py), and
    closes it when the HTTP connection closes (Django's own close_request). The test settings'
    CONN_MAX_AGE of 0 opened and closed a PostgreSQL connection for every request, polls
    included (a new backend process each time, and no statement ever prepared); only these
    threads' connections are changed, not the tests' own."""

    def process_request_thread(self, request, client_address):
        conn = connections[DEFAULT_DB_ALIAS]
        conn.settings_dict = {**conn.settings_dict, "CONN_MAX_AGE": None,
                              "CONN_HEALTH_CHECKS": True}  # fmt: skip
        super().process_request_thread(request, client_address)


class _KeptConnectionsThread(LiveServerThread):
    server_class = _KeptConnectionsServer


@pytest.fixture(scope="session")
def live_server(request):
    """pytest-django's live server (its address option, its settings) with the request
    threads of :class:`_KeptConnectionsServer`."""
    from pytest_django.live_server_helper import LiveServer

    addr = (
        request.config.getvalue("liveserver")
        or os.getenv("DJANGO_LIVE_TEST_SERVER_ADDRESS")
        or "localhost"
    )
    server = LiveServer(addr, start=False)
    plain = server.thread
    server.thread = _KeptConnectionsThread(
        plain.host,
        static_handler=plain.static_handler,
        connections_override=plain.connections_override,
        port=plain.port,
    )
    server.thread.daemon = True
    server.start()
    yield server
    server.stop()


@pytest.fixture
def new_page(browser, live_server, request):
    """``new_page(user=None)`` → a blank page in a fresh context, logged in as ``user`` if
    given (go to a page next)."""
    contexts = []

    def make(user=None):
        # Playwright's own waits (wait_for_function) evaluate strings in the page, which the
        # app's CSP forbids; tests/browser/test_csp.py visits pages with the CSP enforced.
        # The site's service worker (notifications/pwa.py) would fetch page loads itself, out
        # of page.route's reach: these tests run without it; tests/browser/test_push_app.py
        # runs it.
        context = browser.new_context(
            base_url=live_server.url,
            viewport={"width": 1280, "height": 900},
            bypass_csp=True,
            service_workers="block",
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        if user is not None:
            context.add_cookies([_session_cookie(user, live_server.url)])
        return context.new_page()

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


def wait_until(page, predicate, what: str, seconds: float = 10) -> None:
    """Let ``page`` run (its routes' handlers too) until ``predicate()`` holds on this side,
    else fail with ``what``: for what only the test knows (a request a route is holding)."""
    for _ in range(int(seconds * 20)):
        if predicate():
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"not within {seconds} s: {what}")


def watch_console(page, errors: list[str], label: str = "") -> None:
    """Collect ``page``'s console errors and uncaught exceptions into ``errors`` (each after
    ``label``, to tell two pages of one test apart)."""
    lead = f"{label}: " if label else ""
    page.on("console", lambda m: m.type == "error" and errors.append(f"{lead}{m.text}"))
    page.on("pageerror", lambda e: errors.append(f"{lead}{e}"))


def no_horizontal_overflow(page) -> bool:
    """Whether the page fits its viewport's width (nothing scrolls sideways)."""
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


def goto_holding_first_request(page, url: str, pattern: str) -> Any:
    """Open ``url`` on ``page`` with the first request it sends to ``pattern`` held on its way
    out (later ones go on), and return that request once sent, for the test to
    ``continue_()`` after changing the world: a page's first poll answering late, without a
    clock."""
    held: list[Any] = []

    def hold_the_first(route: Any) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    page.route(pattern, hold_the_first)
    page.goto(url)
    wait_until(page, lambda: held, f"the first request to {pattern}")
    return held[0]
