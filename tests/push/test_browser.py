"""Two browsers at one table, on a real ASGI server with sockets on (issue 39, "Pushed updates"):
a move made by one player reaches the other's page through her socket, with no polling while
the socket is open, and each page says who is here. The server is the Procfile's web command
(gunicorn with uvicorn's workers) under the test settings with ``PUSH_SOCKETS=1``."""

from __future__ import annotations

import json
import os
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from tests.browser.tavern_version import TABLE_VERSION
from tests.load.processes import free_port, web_process
from tests.minigames.conftest import two_humans
from tests.notifications.celery_worker import database_url
from tests.push.moves import next_move

ROOT = Path(__file__).resolve().parent.parent.parent

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("celery-worker"),
]


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    port = free_port()
    log = tmp_path_factory.mktemp("web") / "web.log"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "PUSH_SOCKETS": "1",
        "DATABASE_URL": database_url(),
        "PORT": str(port),
        "WEB_CONCURRENCY": "1",
        # the pages' sockets may still be open when the module ends: no 20 s wait for them
        "GUNICORN_GRACEFUL_TIMEOUT": "2",
        "PATH": f"{ROOT / '.venv' / 'bin'}:{os.environ.get('PATH', '')}",
    }
    with web_process(env, port, log):
        yield port


def _signed_in(browser: Any, user: Any, port: int) -> Any:
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    # as tests/browser's contexts: Playwright's waits evaluate script, which the CSP refuses
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    context.add_cookies(
        [{"name": name, "value": client.cookies[name].value, "url": f"http://127.0.0.1:{port}"}]
    )
    return context


def _move_through_the_api(port: int, table: Any, seated: tuple[Any, Any]) -> int:
    from rest_framework.authtoken.models import Token

    mover, _other, action, version = next_move(table, seated)
    token, _ = Token.objects.get_or_create(user=mover)
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/tavern/tables/{table.pk}/actions/",
        data=json.dumps({"action": action, "expected_version": version}).encode(),
        method="POST",
        headers={"Authorization": f"Token {token.key}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310 - loopback
        assert answer.status == 201
    return version + 1


def test_a_move_reaches_the_other_page_by_its_socket_and_nobody_polls(
    web, browser, player, other_player
):
    table = two_humans("raigo", player, other_player)
    mover, watcher, _action, _version = next_move(table, (player, other_player))
    url = f"http://127.0.0.1:{web}/tavern/tables/{table.pk}/"
    pages, polls, errors = {}, {watcher.pk: [], mover.pk: []}, []
    contexts = [_signed_in(browser, user, web) for user in (watcher, mover)]
    try:
        for user, context in zip((watcher, mover), contexts, strict=True):
            page = context.new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on(
                "request",
                lambda r, pk=user.pk: polls[pk].append(r.url) if "/state/" in r.url else None,
            )
            page.goto(url)
            pages[user.pk] = page
        seen = pages[watcher.pk]
        # both are here, and each page says so
        presence = seen.locator("#tavern-presence")
        presence.wait_for(state="visible", timeout=15_000)
        seen.wait_for_function(
            "(names) => names.every((n) => document.getElementById('tavern-presence')"
            ".textContent.includes(n))",
            arg=[str(watcher), str(mover)],
            timeout=15_000,
        )
        assert presence.inner_text().startswith("Here: ")
        # idle with the socket open: no polls (the bell's and the table's)
        before = len(polls[watcher.pk])
        seen.wait_for_timeout(4000)
        assert len(polls[watcher.pk]) == before, polls[watcher.pk][before:]
        # the other player moves (through the API): the watcher's page draws it at once
        version = _move_through_the_api(web, table, (player, other_player))
        started = time.monotonic()
        seen.wait_for_function(f"{TABLE_VERSION} >= {version}", timeout=10_000)
        assert time.monotonic() - started < 5
        # one read of her own view for the note, nothing more
        assert len(polls[watcher.pk]) - before <= 2
        # the mover closes her tab: the watcher reads that she is away
        pages[mover.pk].close()
        seen.wait_for_function(
            "(n) => document.getElementById('tavern-presence').textContent.includes('Away: ' + n)",
            arg=str(mover),
            timeout=15_000,
        )
        assert not [e for e in errors if "favicon" not in e], errors
    finally:
        for context in contexts:
            context.close()
