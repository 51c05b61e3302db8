"""A page that gives up on its table's socket mid-handshake (a tab closed, a train entering a
tunnel) leaves nothing behind: on the production web process (the Procfile's, gunicorn with
uvicorn's workers) a client sends the WebSocket handshake of a table it may see and drops the
connection at once, before the server could accept it. Its channel is in none of the table's
or the user's groups afterwards (else every move would be sent to a dead channel until the
layer's group expiry, a day), the server logs no error for a client that simply left, and it
keeps nothing running for it: asked to stop, it stops at once instead of waiting out its
graceful timeout for a consumer that never ended (``config/channel_layer.py``).
"""

from __future__ import annotations

import base64
import json
import secrets
import socket
import struct
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import websocket
from django.conf import settings
from rest_framework.authtoken.models import Token

from apibase import push
from tests.load.processes import free_port, production_env, web_process
from tests.minigames.conftest import two_humans
from tests.notifications.celery_worker import database_url

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
]

REDIS_DB = 13  # the web processes' tests' own (tests/push/test_processes.py)
SOCKETS = 20
#: Seconds for the server to finish with the dropped sockets (each takes milliseconds).
SETTLE = 3.0
#: Seconds a stopped web process may take, well under gunicorn's graceful timeout (20 s), which
#: it waited out whenever a consumer was left running.
STOPS_WITHIN = 10.0


@pytest.fixture
def web(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """The production web process, one worker, with a channel layer prefix of its own."""
    port = free_port()
    prefix = f"left-{secrets.token_hex(4)}"
    redis_url = settings.CELERY_BROKER_URL.rsplit("/", 1)[0] + f"/{REDIS_DB}"
    log = tmp_path / "web.log"
    env = production_env(
        database=database_url(),
        redis_url=redis_url,
        media=tmp_path / "media",
        port=port,
        CHANNEL_PREFIX=prefix,
        CACHE_KEY_PREFIX=prefix,
    )
    client = redis.Redis.from_url(redis_url)
    try:
        with web_process(env, port, log) as process:
            yield {"port": port, "prefix": prefix, "redis": client, "log": log, "process": process}
    finally:
        for key in client.scan_iter(f"{prefix}:*"):
            client.delete(key)
        client.close()


def _handshake_then_leave(port: int, path: str, token: str) -> None:
    """Send a WebSocket handshake and drop the connection at once (a reset, as a lost
    network does), without reading the server's answer."""
    key = base64.b64encode(secrets.token_bytes(16)).decode()
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Origin: http://127.0.0.1:{port}\r\nAuthorization: Token {token}\r\n\r\n"
    )
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.sendall(request.encode())
    sock.close()


def test_a_socket_left_mid_handshake_leaves_no_channel_and_no_error(
    web, campaign, player, other_player
):
    table = two_humans("raigo", player, other_player, campaign=campaign)
    token, _ = Token.objects.get_or_create(user=player)
    groups = [
        f"{web['prefix']}:group:{push.table_group(table._meta.label_lower, table.pk)}",
        f"{web['prefix']}:group:{push.user_group(player.pk)}",
    ]
    for _ in range(SOCKETS):
        _handshake_then_leave(web["port"], f"/ws/tables/raigo/{table.pk}/", token.key)
    # a socket that stays is answered, and a moment later every dropped one has been handled
    sock = websocket.create_connection(
        f"ws://127.0.0.1:{web['port']}/ws/tables/raigo/{table.pk}/",
        header=[f"Authorization: Token {token.key}"],
        origin=f"http://127.0.0.1:{web['port']}",
        timeout=10,
    )
    try:
        assert json.loads(sock.recv())["type"] == "version"
    finally:
        sock.close()
    time.sleep(SETTLE)
    left = {group: web["redis"].zrange(group, 0, -1) for group in groups}
    assert left == {group: [] for group in groups}
    errors = [
        line
        for line in web["log"].read_text(errors="replace").splitlines()
        if "Traceback" in line or '"ERROR"' in line or " ERROR " in line or "Exception" in line
    ]
    assert errors == []
    # nothing is left running for the sockets: the process stops without waiting for a task
    stopping = time.monotonic()
    web["process"].terminate()
    web["process"].wait(timeout=30)
    stopped_after = time.monotonic() - stopping
    assert "Waiting for background tasks" not in web["log"].read_text(errors="replace")
    assert stopped_after < STOPS_WITHIN
