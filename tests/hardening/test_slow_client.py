"""A slow client holds no web worker: the production web process, started as the Procfile starts
it (gunicorn with uvicorn's workers, config/asgi.py), with one worker only, serves other requests
promptly while a raw socket announces a body of 100,000 bytes and trickles it a byte at a time;
and cuts that request off with a 408 once ``REQUEST_BODY_TIMEOUT`` has passed.

Before, the web process was gunicorn's sync workers: the same client held its worker, and every
request behind it, for the worker's whole timeout (30 s).
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from rest_framework.authtoken.models import Token

from campaign.models import Campaign
from tests.factories import UserFactory
from tests.load.processes import ROOT, free_port, procfile, production_env
from tests.notifications.celery_worker import database_url

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

BODY_SECONDS = 3
MAX_BODY = 200_000
#: Time enough for a prompt answer on a loaded two-core machine, far below the 30 s a held
#: sync worker kept every other request waiting.
PROMPT = 5.0


@pytest.fixture
def web(tmp_path: Path) -> Iterator[int]:
    """The Procfile's web process on a free port, one worker; its port once it answers."""
    port = free_port()
    env = production_env(
        database=database_url(),
        redis_url=settings.CELERY_BROKER_URL.rsplit("/", 1)[0] + "/12",
        media=tmp_path / "media",
        port=port,
        REQUEST_BODY_TIMEOUT=str(BODY_SECONDS),
        MAX_REQUEST_BODY_BYTES=str(MAX_BODY),
    )
    command = procfile()["web"]
    if command[0] == "gunicorn":  # the same program, from this interpreter's environment
        command = [sys.executable, "-m", "gunicorn", *command[1:]]
    log = (tmp_path / "web.log").open("wb")
    proc = subprocess.Popen(  # noqa: S603 - the Procfile's own command
        command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, (tmp_path / "web.log").read_text()[-3000:]
            try:
                if _health(port).status == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, (tmp_path / "web.log").read_text()[-3000:]
            time.sleep(0.3)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def _health(port: int):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health/", timeout=PROMPT) as response:
        response.read()
        return response


class Trickler(threading.Thread):
    """A client that announces ``Content-Length: 100000``, sends 18 bytes, then one byte every
    half second until the server answers or closes; what it received and when."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.answer = b""
        self.closed_after: float | None = None
        self.sent = 0

    def run(self) -> None:
        head = (
            "POST /api/auth/token/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
        )
        started = time.monotonic()
        self.sock.sendall(head.encode() + b'{"username": "a",')  # 18 bytes of the body
        self.sent = 18
        self.sock.settimeout(0.5)
        while time.monotonic() - started < 40:
            try:
                data = self.sock.recv(65536)
            except TimeoutError:
                try:
                    self.sock.sendall(b" ")
                    self.sent += 1
                except OSError:
                    break
                continue
            except OSError:
                break
            if not data:
                break
            self.answer += data
        self.closed_after = time.monotonic() - started
        self.sock.close()


def test_a_slow_body_holds_no_worker_and_is_cut_off(web):
    slow = Trickler(web)
    slow.start()
    time.sleep(0.5)  # the slow request is in
    for _ in range(5):
        started = time.monotonic()
        assert _health(web).status == 200
        assert time.monotonic() - started < PROMPT
    slow.join(timeout=BODY_SECONDS + 30)
    assert slow.closed_after is not None
    assert slow.answer.startswith(b"HTTP/1.1 408 "), slow.answer[:200]
    assert b"did not arrive in time" in slow.answer
    assert slow.closed_after < BODY_SECONDS + PROMPT  # cut off, and the connection closed
    assert slow.sent < 100_000
    assert _health(web).status == 200  # and the worker serves on


def test_a_chunked_body_past_the_limit_is_a_413_before_django_reads_it(web):
    """A chunked body announces no size, so the door's Content-Length check cannot see it: the
    guard counts what arrives and stops at ``MAX_REQUEST_BODY_BYTES``.

    The body ends one byte past the limit (and never ends as a chunked body does): the server
    reads all of it before it answers, so it closes with nothing unread. Bytes still unread at
    its close would make its kernel reset the connection, and a reset can throw away the 413
    before this client reads it."""
    with socket.create_connection(("127.0.0.1", web), timeout=30) as sock:
        sock.sendall(
            b"POST /api/auth/token/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        chunk = b"x" * (MAX_BODY // 4)
        for _ in range(4):  # exactly the 200 kB allowed ...
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        sock.sendall(b"1\r\nx\r\n")  # ... and one byte more, in one small segment
        answer = b""
        while data := sock.recv(65536):
            answer += data
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
    assert _health(web).status == 200


def test_a_body_sent_in_pieces_reaches_django_whole(web):
    """The guard reads the body from the socket in pieces and Django reads the same body from
    memory (``config.request_guard.with_read_body``): a new campaign whose JSON arrives in three
    segments, with pauses between them, is made with every word of it; one whose JSON breaks
    off, sent the same way, is a 400 and makes nothing."""
    user = UserFactory(username="trickled")
    token = Token.objects.create(user=user).key
    description = " ".join(["The moon is wrong."] * 40)

    def post(body: bytes) -> bytes:
        thirds = [body[: len(body) // 3], body[len(body) // 3 : -5], body[-5:]]
        with socket.create_connection(("127.0.0.1", web), timeout=30) as sock:
            sock.sendall(
                b"POST /api/campaigns/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                b"Authorization: Token %s\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\n\r\n" % (token.encode(), len(body))
            )
            for piece in thirds:
                sock.sendall(piece)
                time.sleep(0.2)
            answer = b""
            while data := sock.recv(65536):
                answer += data
        return answer

    body = json.dumps({"name": "The Eternal Night", "description": description}).encode()
    made = post(body)
    assert made.startswith(b"HTTP/1.1 201 "), made[:300]
    campaign = Campaign.objects.get(created_by=user)
    assert (campaign.name, campaign.description) == ("The Eternal Night", description)
    broken = post(body[:-1])
    assert broken.startswith(b"HTTP/1.1 400 "), broken[:300]
    assert Campaign.objects.filter(created_by=user).count() == 1
