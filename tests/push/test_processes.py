"""Several web processes behind one address (issue 39, "Pushed updates"): two production web
processes, started as the Procfile starts them (gunicorn with uvicorn's workers), share the
Redis channel layer; a move made through one reaches a socket open on the other."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import websocket
from django.conf import settings
from rest_framework.authtoken.models import Token

from tests.load.processes import free_port, web_process
from tests.minigames.conftest import two_humans
from tests.notifications.celery_worker import database_url
from tests.push.moves import next_move

ROOT = Path(__file__).resolve().parent.parent.parent
REDIS_DB = 13  # a database of its own: the processes' queues and channel layer

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("celery-worker"),
]


@pytest.fixture(scope="module")
def two_web_processes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[int]]:
    tmp_path = tmp_path_factory.mktemp("web")
    redis_url = settings.CELERY_BROKER_URL.rsplit("/", 1)[0] + f"/{REDIS_DB}"
    redis.Redis.from_url(redis_url).flushdb()
    ports = [free_port(), free_port()]
    try:
        with contextlib.ExitStack() as running:
            for port in ports:
                env = {
                    **{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
                    "DJANGO_SETTINGS_MODULE": "config.settings.production",
                    "SECRET_KEY": "push-test-" + secrets.token_urlsafe(40),
                    "ALLOWED_HOSTS": "127.0.0.1",
                    "SECURE_SSL_REDIRECT": "false",
                    "DATABASE_URL": database_url(),
                    "REDIS_URL": redis_url,
                    "PORT": str(port),
                    "WEB_CONCURRENCY": "1",
                    "MEDIA_ROOT": str(tmp_path / "media"),
                    "PATH": f"{ROOT / '.venv' / 'bin'}:{os.environ.get('PATH', '')}",
                }
                running.enter_context(web_process(env, port, tmp_path / f"web-{port}.log"))
            yield ports
    finally:
        redis.Redis.from_url(redis_url).flushdb()


def _post(port: int, path: str, token: str, body: dict[str, Any]) -> tuple[int, Any]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 - loopback
        return response.status, json.loads(response.read())


def _next_version(sock: Any) -> dict[str, Any]:
    """The socket's next version note (news of who is here is passed over)."""
    while True:
        message = json.loads(sock.recv())
        if message["type"] == "version":
            return dict(message)


def test_a_move_through_one_process_reaches_a_socket_on_the_other(
    two_web_processes, campaign, player, other_player
):
    first, second = two_web_processes
    table = two_humans("raigo", player, other_player, campaign=campaign)
    mover, watcher, action, version = next_move(table, (player, other_player))
    watch_token, _ = Token.objects.get_or_create(user=watcher)
    move_token, _ = Token.objects.get_or_create(user=mover)

    sock = websocket.create_connection(
        f"ws://127.0.0.1:{second}/ws/tables/raigo/{table.pk}/",
        header=[f"Authorization: Token {watch_token.key}"],
        origin=f"http://127.0.0.1:{second}",
        timeout=10,
    )
    try:
        assert _next_version(sock) == {"type": "version", "version": version}
        status, _ = _post(
            first,
            f"/api/tavern/tables/{table.pk}/actions/",
            move_token.key,
            {"action": action, "expected_version": version},
        )
        assert status == 201
        assert _next_version(sock) == {"type": "version", "version": version + 1}
    finally:
        sock.close()


def test_a_socket_from_another_origin_is_refused_by_the_server(two_web_processes, player):
    token, _ = Token.objects.get_or_create(user=player)
    with pytest.raises(websocket.WebSocketBadStatusException) as refused:
        websocket.create_connection(
            f"ws://127.0.0.1:{two_web_processes[0]}/ws/notifications/",
            header=[f"Authorization: Token {token.key}"],
            origin="https://evil.example",
            timeout=10,
        )
    assert refused.value.status_code == 403
