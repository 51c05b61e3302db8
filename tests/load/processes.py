"""The Procfile's processes and a free loopback port: shared by `make loadtest`
(tests/load/run.py) and the test that starts the production processes
(tests/hardening/test_procfile.py), and the web process on its own (tests/push)."""

from __future__ import annotations

import shlex
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def procfile() -> dict[str, list[str]]:
    """Process name → its command, split as a shell would."""
    lines = (ROOT / "Procfile").read_text().splitlines()
    return {
        name.strip(): shlex.split(command)
        for name, command in (line.split(":", 1) for line in lines if line.strip())
    }


def free_port() -> int:
    """A port nothing listens on now, on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def web_process(
    env: dict[str, str], port: int, log: Path, shared: int | None = None
) -> Iterator[subprocess.Popen[bytes]]:
    """The Procfile's web command with ``env``, its output in ``log``, once
    ``/api/health/`` answers on ``port`` (60 s at most); stopped on leaving. With ``shared``,
    it also listens on that port with SO_REUSEPORT (gunicorn's ``--reuse-port``), which other
    web processes started so share: the kernel spreads new connections between them."""
    command = procfile()["web"]
    if shared is not None:
        binds = [f"127.0.0.1:{shared}", f"127.0.0.1:{port}"]
        command = [*command, "--reuse-port", *(a for b in binds for a in ("--bind", b))]
    with log.open("wb") as out:
        proc = subprocess.Popen(  # noqa: S603 - the Procfile's own command
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    url = f"http://127.0.0.1:{port}/api/health/"
                    with urllib.request.urlopen(url, timeout=5) as answer:
                        if answer.status == 200:
                            break
                except OSError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        raise AssertionError(log.read_text()[-3000:]) from None
                    time.sleep(0.3)
            yield proc
        finally:
            proc.terminate()
            try:
                # gunicorn's graceful shutdown waits up to its graceful_timeout for open sockets
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
