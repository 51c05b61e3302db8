"""Error reporting is switched on by one setting: with SENTRY_DSN naming a server (here a
plain HTTP server this test starts on 127.0.0.1, speaking as much of Sentry's protocol as
taking events needs), a task that fails in a real worker is reported there, with its error;
with SENTRY_DSN unset the same failure sends nothing anywhere."""

from __future__ import annotations

import gzip
import json
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from tables.tasks import table_turn_notify
from tests.notifications.celery_worker import CeleryWorker, real_publishing, wait_for

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("celery-worker"),
]


class SentryServer:
    """Takes every POST (Sentry's envelopes) and keeps its decoded items."""

    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []
        self.paths: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                encoding = self.headers.get("Content-Encoding", "")
                if encoding == "gzip":
                    raw = gzip.decompress(raw)
                elif encoding == "deflate":
                    raw = zlib.decompress(raw)
                elif encoding == "br":
                    import brotli

                    raw = brotli.decompress(raw)
                server.paths.append(self.path)
                for line in raw.splitlines():
                    try:
                        item = json.loads(line)
                    except ValueError:
                        continue
                    if isinstance(item, dict):
                        server.items.append(item)
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def dsn(self) -> str:
        return f"http://publickey@127.0.0.1:{self.httpd.server_address[1]}/42"

    def events(self) -> list[dict[str, Any]]:
        return [item for item in self.items if "exception" in item]

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def sentry():
    server = SentryServer()
    yield server
    server.stop()


def _fail_a_task(worker: CeleryWorker) -> None:
    """A "your turn" for a game nobody registered: the task raises, as a bug would."""
    table_turn_notify.apply_async(args=[1, 1], kwargs={"slug": "no-such-game"})
    wait_for(
        lambda: "tables.turn_notify" in worker.log_text() and "raised" in worker.log_text(),
        what=f"the task's failure:\n{worker.output()}",
    )


def test_a_failed_task_is_reported_to_the_server_the_dsn_names(sentry):
    with real_publishing():
        worker = CeleryWorker(loglevel="INFO", environ={"SENTRY_DSN": sentry.dsn})
        try:
            worker.start()
            _fail_a_task(worker)
            wait_for(sentry.events, timeout=20, what=f"an event:\n{worker.output()}")
        finally:
            worker.stop()
    assert sentry.paths[0] == "/api/42/envelope/"
    (event, *_) = sentry.events()
    (error,) = event["exception"]["values"][-1:]
    assert error["type"] == "LookupError"
    assert "no-such-game" in error["value"]
    assert event["environment"] == "production"
    assert "user" not in event or not event["user"].get("ip_address")
    frames = [frame["function"] for frame in error["stacktrace"]["frames"]]
    assert "table_turn_notify" in frames


def test_with_no_dsn_nothing_is_sent(sentry):
    with real_publishing():
        worker = CeleryWorker(loglevel="INFO", environ={"SENTRY_DSN": ""})
        try:
            worker.start()
            _fail_a_task(worker)
            time.sleep(2)  # what a started SDK sends, it sends within a second
        finally:
            worker.stop()
    assert sentry.paths == []
