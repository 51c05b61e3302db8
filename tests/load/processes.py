"""The Procfile's processes, their production environment and a free loopback port: shared by
`make loadtest` (tests/load/run.py), `make loadtest-cluster` (tests/load/cluster.py) and the
tests that start the production processes (tests/hardening, tests/push)."""

from __future__ import annotations

import os
import secrets
import shlex
import socket
import subprocess
import sys
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


def production_env(
    *, database: str, redis_url: str, media: Path, port: int | None = None, **extra: str
) -> dict[str, str]:
    """The environment the Procfile's processes run with in production, on loopback: this
    process's environment without its Django settings, production settings, a fresh secret
    key, one web worker unless ``extra`` says otherwise, and this interpreter's programs first
    on the path (gunicorn, celery). ``extra`` adds or overrides variables."""
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "DATABASE_URL": database,
        "REDIS_URL": redis_url,
        "WEB_CONCURRENCY": "1",
        "MEDIA_ROOT": str(media),
        "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}",
    }
    if port is not None:
        env["PORT"] = str(port)
    return {**env, **extra}


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


def _children(pid: int) -> list[int]:
    """Every descendant of ``pid`` now running (from /proc: each process names its parent)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        kids = parents.get(todo.pop(), [])
        found += kids
        todo += kids
    return found


def cpu_seconds(pids: list[int], descendants: bool = True) -> float:
    """CPU seconds ``pids`` (and, with ``descendants``, every process they started) have spent
    so far, user and system, threads that ended included (``/proc/<pid>/stat``). Unlike a
    request's wall time it hardly grows with the load other programs put on a shared machine,
    so a load test's CPU seconds per move hold on a busy machine too."""
    every = set(pids)
    if descendants:
        for pid in pids:
            every.update(_children(pid))
    ticks = 0
    for pid in every:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        ticks += int(fields[11]) + int(fields[12])  # utime and stime, after the name
    return ticks / os.sysconf("SC_CLK_TCK")
