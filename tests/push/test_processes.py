"""Several web processes behind one address (issue 39, "Pushed updates"; issue 41, "Many
machines"): two production web processes, started as the Procfile starts them (gunicorn with
uvicorn's workers), each on a port of its own and both on one shared port (SO_REUSEPORT, the
kernel spreading connections as a load balancer would), share the Redis channel layer and the
database: a move made through one reaches a socket open on the other, and the same move sent
through both at once applies once. ``make loadtest-cluster`` plays the rest (a worker killed,
a web process restarted under load, 1,000 users: tests/load/cluster.py)."""

from __future__ import annotations

import contextlib
import json
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import redis
import websocket
from django.conf import settings
from rest_framework.authtoken.models import Token

from tests.load.processes import free_port, production_env, web_process
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
    """[the first's own port, the second's, the port they share]."""
    tmp_path = tmp_path_factory.mktemp("web")
    redis_url = settings.CELERY_BROKER_URL.rsplit("/", 1)[0] + f"/{REDIS_DB}"
    redis.Redis.from_url(redis_url).flushdb()
    ports = [free_port(), free_port()]
    shared = free_port()
    try:
        with contextlib.ExitStack() as running:
            for port in ports:
                env = production_env(
                    database=database_url(),
                    redis_url=redis_url,
                    media=tmp_path / "media",
                    port=port,
                )
                log = tmp_path / f"web-{port}.log"
                running.enter_context(web_process(env, port, log, shared=shared))
            yield [*ports, shared]
    finally:
        redis.Redis.from_url(redis_url).flushdb()


def _post(port: int, path: str, token: str, body: dict[str, Any]) -> tuple[int, Any]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 - loopback
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def _next_version(sock: Any) -> dict[str, Any]:
    """The socket's next version note (news of who is here is passed over)."""
    while True:
        message = json.loads(sock.recv())
        if message["type"] == "version":
            return dict(message)


def test_a_move_through_one_process_reaches_a_socket_on_the_other(
    two_web_processes, campaign, player, other_player
):
    first, second, _ = two_web_processes
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


def _socket(port: int, table: Any, token: str) -> Any:
    return websocket.create_connection(
        f"ws://127.0.0.1:{port}/ws/tables/raigo/{table.pk}/",
        header=[f"Authorization: Token {token}"],
        origin=f"http://127.0.0.1:{port}",
        timeout=10,
    )


def test_one_move_sent_through_both_processes_at_once_applies_once(
    two_web_processes, campaign, player, other_player
):
    """Eight copies of Marisa's move with the same expected version, four through each
    process at once: the database decides, one applies (201), seven are told the table moved
    on (409); a socket on each process hears the one new version, through the shared port too."""
    from minigames.models import TavernAction

    first, second, shared = two_web_processes
    table = two_humans("raigo", player, other_player, campaign=campaign)
    mover, watcher, action, version = next_move(table, (player, other_player))
    move_token, _ = Token.objects.get_or_create(user=mover)
    watch_token, _ = Token.objects.get_or_create(user=watcher)
    socks = [_socket(port, table, watch_token.key) for port in (first, second, shared)]
    try:
        for sock in socks:
            assert _next_version(sock) == {"type": "version", "version": version}
        body = {"action": action, "expected_version": version}
        path = f"/api/tavern/tables/{table.pk}/actions/"
        with ThreadPoolExecutor(8) as pool:
            answers = list(
                pool.map(
                    lambda port: _post(port, path, move_token.key, body)[0],
                    [first, second] * 4,
                )
            )
        assert Counter(answers) == {201: 1, 409: 7}
        assert TavernAction.objects.filter(table_id=table.pk, seq=version + 1).count() == 1
        for sock in socks:
            assert _next_version(sock) == {"type": "version", "version": version + 1}
    finally:
        for sock in socks:
            sock.close()
