"""Pushed updates (issue 39): the time from a move to the other seat's socket, with 50 tables
open, on the Procfile's web process (production settings, the Redis channel layer).

Each of 50 RAIGO tables has both seats' sockets open (a thread per socket, as 50 browser
tabs would); moves are made one after another through the API, each timed from the moment its
request is sent (before its commit, so the figure bounds commit-to-socket from above) to the
moment the other seat's socket receives the new version. The baseline is the move's own round
trip (its POST, measured in the same run).
"""

from __future__ import annotations

import json
import secrets
import statistics
import threading
import time
import urllib.request
from typing import Any

from tests.bench.timing import record, section, write_json
from tests.push.moves import next_move

TABLES = 50
MOVES_PER_TABLE = 3
TARGET_P95_MS = 250.0


def _post(port: int, path: str, token: str, body: dict[str, Any]) -> int:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - loopback
        return int(response.status)


def _seed(tables: int) -> list[dict[str, Any]]:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from tests.minigames.conftest import two_humans

    users = get_user_model().objects
    seeded = []
    for n in range(tables):
        host = users.create(username=f"push-host-{n}")
        guest = users.create(username=f"push-guest-{n}")
        table = two_humans("raigo", host, guest)
        seeded.append(
            {
                "table": table.pk,
                "table_row": table,
                "users": [host, guest],
                "tokens": {u.pk: Token.objects.create(user=u).key for u in (host, guest)},
            }
        )
    return seeded


def run() -> dict[str, Any]:
    import websocket

    from tests.bench.bench_web import _server, _throwaway_database

    section(f"pushed updates ({TABLES} open tables, the Procfile's web process)")
    with _throwaway_database() as database:
        seeded = _seed(TABLES)
        with _server(database, secrets.token_urlsafe(50)) as port:
            arrived: dict[tuple[int, int, int], float] = {}
            sockets = []

            def listen(sock: Any, table: int, user: int) -> None:
                while True:
                    try:
                        message = json.loads(sock.recv())
                    except Exception:  # closed at the end
                        return
                    if message.get("type") == "version":
                        key = (table, int(message["version"]), user)
                        arrived.setdefault(key, time.perf_counter())

            latencies, round_trips = [], []
            try:
                for entry in seeded:  # both seats' pages open on every table
                    for user in entry["users"]:
                        sock = websocket.create_connection(
                            f"ws://127.0.0.1:{port}/ws/tables/raigo/{entry['table']}/",
                            header=[f"Authorization: Token {entry['tokens'][user.pk]}"],
                            origin=f"http://127.0.0.1:{port}",
                            timeout=30,
                        )
                        sockets.append(sock)
                        threading.Thread(
                            target=listen, args=(sock, entry["table"], user.pk), daemon=True
                        ).start()
                for _ in range(MOVES_PER_TABLE):
                    for entry in seeded:
                        mover, other, action, version = next_move(
                            entry["table_row"], tuple(entry["users"])
                        )
                        sent = time.perf_counter()
                        status = _post(
                            port,
                            f"/api/tavern/tables/{entry['table']}/actions/",
                            entry["tokens"][mover.pk],
                            {"action": action, "expected_version": version},
                        )
                        round_trips.append(time.perf_counter() - sent)
                        assert status == 201
                        key = (entry["table"], version + 1, other.pk)
                        deadline = time.perf_counter() + 5
                        while key not in arrived and time.perf_counter() < deadline:
                            time.sleep(0.0005)
                        latencies.append(arrived.get(key, float("inf")) - sent)
            finally:
                for sock in sockets:
                    sock.close()
    ms = sorted(x * 1000 for x in latencies)
    p50 = statistics.median(ms)
    p95 = ms[int(0.95 * (len(ms) - 1))]
    move = statistics.median(round_trips) * 1000
    results = {
        "tables": TABLES,
        "moves": len(ms),
        "move_to_socket_p50_ms": p50,
        "move_to_socket_p95_ms": p95,
        "move_round_trip_p50_ms": move,
        "lost": sum(1 for x in ms if x == float("inf")),
    }
    met = p95 <= TARGET_P95_MS and results["lost"] == 0
    print(
        f"{'move to the other seat (p50 / p95)':<48}{p50:8.1f} / {p95:.1f} ms"
        f"   {p95 / move:5.2f}x the move's round trip   target p95 <= {TARGET_P95_MS:.0f} ms"
        f"   {'ok' if met else 'MISSED'}"
    )
    record(
        f"move to the other seat's socket, p95 ({TABLES} open tables)",
        value=f"{p95:.1f} ms (p50 {p50:.1f} ms)",
        ratio=p95 / move,
        baseline=f"the move's own round trip, p50 {move:.1f} ms",
        target=f"p95 <= {TARGET_P95_MS:.0f} ms",
        met=met,
    )
    write_json("push", results)
    return results
