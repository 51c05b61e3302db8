"""The production web process keeps its Redis connections between requests: started as the
Procfile starts it (gunicorn with uvicorn's workers, one worker) on a ``redis-server`` of the
test's own, 30 signed-in API requests, each of which asks Redis who is asking and counts her
rate, open no new connection to it (config/redis_cache.py, "One pool per process").

Before, the worker ran each request in a fresh copy of the event loop's context (a2wsgi), where
Django finds no cache backend and builds one: every request opened a new TCP connection to
Redis, repeated the protocol's handshake, and closed it at its end.
"""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from rest_framework.authtoken.models import Token

from tests.factories import UserFactory
from tests.hardening.test_redis_outage import PrivateRedis
from tests.load.processes import free_port, production_env, web_process
from tests.notifications.celery_worker import database_url

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

REQUESTS = 30


@pytest.fixture
def server() -> Iterator[PrivateRedis]:
    server = PrivateRedis()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def web(server: PrivateRedis, tmp_path: Path) -> Iterator[int]:
    """The port of the Procfile's web process, one worker, on ``server`` alone."""
    port = free_port()
    env = production_env(
        database=database_url(), redis_url=server.url, media=tmp_path / "media", port=port
    )
    with web_process(env, port, tmp_path / "web.log"):
        yield port


def _account(port: int, token: str) -> int:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/account/", headers={"Authorization": f"Token {token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:  # noqa: S310 - http on loopback
        return int(answer.status)


def test_requests_reuse_the_workers_redis_connections(server, web):
    token = Token.objects.create(user=UserFactory()).key
    watcher = redis.Redis.from_url(server.url)  # one connection, opened before counting

    def connections() -> int:
        return int(watcher.info("stats")["total_connections_received"])

    for _ in range(3):  # the worker's first requests open what it keeps
        assert _account(port=web, token=token) == 200
    before = connections()
    for _ in range(REQUESTS):
        assert _account(port=web, token=token) == 200
    assert connections() - before == 0, f"new connections to Redis in {REQUESTS} requests"
    watcher.close()
