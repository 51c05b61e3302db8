"""A real HTTP webhook receiver on 127.0.0.1 for the tests (``http.server`` in a thread).

It records every request (path, headers, JSON body) and answers with the statuses it is told to;
it can hold the first request until the test releases it, to kill a worker mid-send.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class WebhookReceiver:
    """Start with :meth:`start`; always :meth:`stop` (fixtures do)."""

    statuses: deque[int] = field(default_factory=deque)
    default_status: int = 204
    delay: float = 0.0
    hold_first: bool = False
    headers_for: dict[int, dict[str, str]] = field(default_factory=dict)
    requests: list[Received] = field(default_factory=list)
    arrived: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/hook"

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.server_address[1])

    def keys(self) -> list[str]:
        """The Idempotency-Key of every POST, in arrival order."""
        return [r.headers.get("Idempotency-Key", "") for r in self.requests]

    def deduplicated(self) -> dict[str, Any]:
        """What a receiver that honours Idempotency-Key keeps: one body per key."""
        kept: dict[str, Any] = {}
        for r in self.requests:
            kept.setdefault(r.headers.get("Idempotency-Key", ""), r.body)
        return kept

    def start(self) -> WebhookReceiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = raw.decode(errors="replace")
                with receiver._lock:
                    first = not receiver.requests
                    receiver.requests.append(Received(self.path, dict(self.headers), body))
                    status = (
                        receiver.statuses.popleft()
                        if receiver.statuses
                        else receiver.default_status
                    )
                receiver.arrived.set()
                if first and receiver.hold_first:
                    receiver.release.wait(30)
                if receiver.delay:
                    receiver.release.wait(receiver.delay)
                self.send_response(status)
                for name, value in receiver.headers_for.get(status, {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a client (a killed worker) that hung up is expected here

        self._server = Server(("127.0.0.1", 0), Handler)
        threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        return self

    def stop(self) -> None:
        self.release.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
