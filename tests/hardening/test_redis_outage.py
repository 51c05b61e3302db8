"""Redis stopped or frozen: the app keeps answering, quickly, and never with a 500 (hardening
finding, faults 3: with Redis frozen, token API calls answered 500 after 10 s, the token
endpoint after 5 s, liveness took 5 s; with Redis stopped every token call was a 500).

The fault is real: the test starts its own ``redis-server`` on a free port and points a whole
app process at it (``redis_outage_client.py``: cache, throttles, token lookups and the Celery
broker; only the address changes), then freezes the server with SIGSTOP (it accepts connections
and never answers) or stops it (connections are refused). What can work without Redis works
(the token lookup falls back to the database, the throttles fail open, sessions and the
signed-in user are read from the database behind their cached copies, a move commits and its
"your turn" is left to the sweep); what truly cannot (a form that must apply once, signing out,
the advisor) answers 503 with ``Retry-After``, JSON on the API and the
site's own page elsewhere; health answers at once, and readiness reports the cache down.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from rest_framework.authtoken.models import Token

from minigames.engines.registry import get_engine
from minigames.models import TavernTable
from tests.load.processes import free_port
from tests.minigames.conftest import to_a_choice, two_humans
from tests.notifications.celery_worker import database_url

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server"),
]

ROOT = Path(__file__).resolve().parent.parent.parent
#: What any answer may take with Redis away: a request pays for one short socket timeout
#: (``REDIS_SOCKET_TIMEOUT``, 0.5 s) at most, then the process knows Redis is down.
BOUND = 2.5


class PrivateRedis:
    """A redis-server of the test's own, on a free port, with nothing saved to disk."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc = subprocess.Popen(  # noqa: S603
            ["redis-server", "--port", str(self.port), "--save", "", "--appendonly", "no"],  # noqa: S607
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis.from_url(self.url, socket_timeout=1)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.RedisError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        client.close()

    def freeze(self) -> None:
        self.proc.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        self.proc.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        self.thaw()
        self.proc.terminate()
        self.proc.wait(10)


class App:
    """The app process (``redis_outage_client``): ``ask(...)`` sends one request."""

    def __init__(self, redis_url: str, log: Path) -> None:
        env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings.test",
            DATABASE_URL=database_url(),
            REDIS_URL=redis_url,
            CELERY_EAGER="0",  # the broker is that Redis too, as in production
            TEST_CELERY_PREFIX=settings.TEST_CELERY_PREFIX,
            TEST_CACHE_PREFIX=settings.CACHES["default"]["KEY_PREFIX"],
            REDIS_RETRY_SECONDS="1",
            PYTHONUNBUFFERED="1",
        )
        self.log = log.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.hardening.redis_outage_client"],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
        )
        assert json.loads(self._line()) == {"ready": True}

    def _line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, f"the app process ended ({self.proc.poll()})"
        return line

    def _send(self, message: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()
        return dict(json.loads(self._line()))

    def login(self, user: Any) -> None:
        self._send({"login": user.pk})

    def ask(self, path: str, **request: Any) -> dict[str, Any]:
        return self._send({"path": path, **request})

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self.log.close()


@pytest.fixture
def outage(django_db_setup, tmp_path) -> Iterator[tuple[PrivateRedis, App]]:
    server = PrivateRedis()
    app = App(server.url, tmp_path / "app.log")
    try:
        yield server, app
    finally:
        app.close()
        server.stop()


def _answers_quickly(answer: dict[str, Any], status: int) -> None:
    assert answer["status"] == status, answer
    assert answer["seconds"] < BOUND, answer


def _unavailable(answer: dict[str, Any], *, api: bool) -> None:
    """503 with Retry-After: the API's JSON error shape, or the site's own page."""
    _answers_quickly(answer, 503)
    assert answer["retry_after"] == "1"  # REDIS_RETRY_SECONDS, as the app was given it
    if api:
        assert answer["content_type"] == "application/json"
        assert json.loads(answer["body"])["detail"].startswith("A service this needs")
    else:
        assert answer["content_type"].startswith("text/html")
        assert "Back in a moment" in answer["body"]


def _everything(app: App, player: Any, tokens: dict[int, str], table: TavernTable, practice: Any):
    """The requests of the attack, and what they must answer with Redis away (``practice``:
    a practice table with the advisor, and the seat it waits on)."""
    token = tokens[player.pk]
    # Token API calls: the database answers who is asking; the API rate fails open.
    _answers_quickly(app.ask("/api/notifications/", token=token), 200)
    _answers_quickly(app.ask(f"/api/tavern/tables/{table.pk}/state/", token=token), 200)
    # The token endpoint (its throttle fails open; an existing token is read, not written).
    login = {"username": player.username, "password": "pw-pw-pw-123456"}
    answer = app.ask("/api/auth/token/", method="POST", data=login, json=True)
    _answers_quickly(answer, 200)
    assert json.loads(answer["body"])["token"] == token
    # Liveness touches nothing; readiness says which service is down, quickly.
    _answers_quickly(app.ask("/api/health/"), 200)
    ready = app.ask("/health/ready/?format=json")
    _answers_quickly(ready, 500)
    failing = {name.split("(")[0] for name, v in json.loads(ready["body"]).items() if v != "OK"}
    assert "Cache" in failing
    # Pages: the session and its user are read from the database (accounts/sessions.py,
    # accounts/backends.py), so nobody is signed out, and signing in works.
    page = app.ask("/campaigns/", session=True)
    _answers_quickly(page, 200)
    assert player.shown_name in page["body"]
    signed_in = app.ask("/accounts/login/", method="POST", data=login)
    _answers_quickly(signed_in, 302)
    # A move commits; its "your turn" is left to the sweep once the broker answers.
    engine = get_engine(table.game)
    fresh = TavernTable.objects.get(pk=table.pk)
    state = engine.from_json(fresh.state)
    seat = next(iter(engine.waiting_on(state)))
    move = {"action": engine.legal_actions(state, seat)[0], "expected_version": fresh.version}
    mover = tokens[int(table.seats.get(index=seat).user_id)]
    answer = app.ask(
        f"/api/tavern/tables/{table.pk}/actions/", method="POST", token=mover, data=move, json=True
    )
    _answers_quickly(answer, 201)
    assert TavernTable.objects.get(pk=table.pk).version == fresh.version + 1
    # What truly needs Redis: a form that must apply once; the advisor (a worker's search).
    form = app.ask("/accounts/profile/", method="POST", session=True, data={"once_token": "a" * 32})
    _unavailable(form, api=False)
    advised, seat = practice
    adviser = tokens[int(advised.seats.get(index=seat).user_id)]
    _unavailable(app.ask(f"/api/tavern/tables/{advised.pk}/advice/", token=adviser), api=True)
    # Signing out drops the session's cached copy first, so it waits for Redis (a copy left
    # behind would sign her in again once Redis answers): nothing changed, she is signed in.
    _unavailable(app.ask("/accounts/logout/", method="POST", session=True), api=False)
    page = app.ask("/campaigns/", session=True)
    _answers_quickly(page, 200)
    assert player.shown_name in page["body"]


def test_redis_frozen_or_stopped_answers_quickly_and_never_500(
    outage, player, other_player
) -> None:
    server, app = outage
    for user in (player, other_player):
        user.set_password("pw-pw-pw-123456")
        user.save()
    tokens = {user.pk: Token.objects.create(user=user).key for user in (player, other_player)}
    token = tokens[player.pk]
    table = two_humans("spirit_war", player, other_player)
    advised = two_humans("spirit_war", player, other_player, practice=True, advisor=True)
    practice = (advised, to_a_choice(advised, {0: player, 1: other_player}))
    app.login(player)
    # Redis up: the token is looked up once in the database, then kept in Redis. Not timed:
    # the process's first request pays for its imports (3.4 s on a loaded two-core machine).
    assert app.ask("/api/notifications/", token=token)["status"] == 200

    server.freeze()  # SIGSTOP: connections are accepted, nothing is ever answered
    try:
        _everything(app, player, tokens, table, practice)
    finally:
        server.thaw()
    time.sleep(1.1)  # REDIS_RETRY_SECONDS: the app asks Redis again
    _answers_quickly(app.ask("/api/notifications/", token=token), 200)
    _answers_quickly(app.ask("/campaigns/", session=True), 200)

    server.stop()  # connections are refused
    _everything(app, player, tokens, table, practice)
