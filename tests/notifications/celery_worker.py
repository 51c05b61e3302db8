"""Start and stop real ``celery -A config worker`` processes for integration tests and benchmarks.

The worker runs the test settings against a database this process names (the test database
pytest-django created, or the benchmark's own), on the real Redis broker, with this process's
``TEST_CELERY_PREFIX`` so it only sees messages this process publishes. The caller must make the
in-process Celery app publish for real: :func:`real_publishing`.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent.parent


def database_url() -> str:
    """A URL for the database this process is connected to (pytest-django's test database)."""
    s = connection.settings_dict
    auth = quote(s["USER"] or "")
    if s.get("PASSWORD"):
        auth = f"{auth}:{quote(s['PASSWORD'])}"
    host = s["HOST"] or "127.0.0.1"
    port = f":{s['PORT']}" if s.get("PORT") else ""
    return f"postgres://{auth}@{host}{port}/{quote(s['NAME'])}"


@contextmanager
def real_publishing() -> Iterator[object]:
    """Make this process's Celery app publish to the broker instead of running tasks eagerly."""
    from config.celery import app

    saved = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        yield app
    finally:
        # The broker connections stay in kombu's pools for the next user: closing them would
        # leave closed pools registered there.
        app.conf.task_always_eager = saved
        purge_broker_keys()


def purge_broker_keys() -> None:
    """Delete this process's queues and bindings from Redis (its own key prefix only)."""
    import redis

    prefix = settings.CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"]
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    try:
        keys = list(client.scan_iter(match=f"{prefix}*", count=500))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


class CeleryWorker:
    """One worker process (prefork pool, concurrency 1) and its pool child."""

    def __init__(self, *, visibility_timeout: int = 3600, email_dir: str | None = None) -> None:
        self.visibility_timeout = visibility_timeout
        self.email_dir = email_dir
        self.log = tempfile.NamedTemporaryFile(  # noqa: SIM115 (closed in stop())
            prefix="celery-worker-", suffix=".log", delete=False
        )
        self.proc: subprocess.Popen[bytes] | None = None

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings.test",
            DATABASE_URL=database_url(),
            REDIS_URL=settings.CELERY_BROKER_URL,
            CELERY_EAGER="0",
            TEST_CELERY_PREFIX=settings.TEST_CELERY_PREFIX,
            CELERY_VISIBILITY_TIMEOUT=str(self.visibility_timeout),
            PYTHONUNBUFFERED="1",
        )
        if self.email_dir:
            env["EMAIL_FILE_PATH"] = self.email_dir
        return env

    def start(self, *, ready_timeout: float = 60) -> CeleryWorker:
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=prefork",
            "--concurrency=1",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "--loglevel=WARNING",
            f"--hostname=test-{os.getpid()}-{time.monotonic_ns()}@%h",
        ]
        self.proc = subprocess.Popen(  # noqa: S603
            command,
            cwd=ROOT,
            env=self.env(),
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: kill() takes the pool child too
        )
        self.wait_ready(ready_timeout)
        return self

    def wait_ready(self, timeout: float) -> None:
        """A ping task round trip: the worker consumes our queue and runs tasks."""
        from notifications.tasks import ping

        result = ping.apply_async()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"The worker exited ({self.proc.returncode}):\n{self.output()}")
            if result.ready():
                result.get(timeout=1)
                result.forget()
                return
            time.sleep(0.05)
        raise TimeoutError(f"The worker did not answer a ping in {timeout} s:\n{self.output()}")

    def pool_children(self) -> list[int]:
        """PIDs of the prefork pool's child processes (Linux /proc)."""
        assert self.proc is not None
        path = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        return [int(pid) for pid in path.read_text().split()]

    def kill(self) -> None:
        """SIGKILL the whole worker (main process and pool child) at once: no cleanup runs."""
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError):  # the group may be gone already
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        """Kill the process group: by now the caller has waited for every task it cares about
        (a graceful shutdown costs seconds per test), and its queue is purged afterwards."""
        self.kill()
        self.log.close()
        Path(self.log.name).unlink(missing_ok=True)

    def output(self) -> str:
        self.log.flush()
        return Path(self.log.name).read_text(errors="replace")[-5000:]


def wait_for(
    predicate: Callable[[], object], *, timeout: float = 20, interval: float = 0.05, what: str = ""
) -> None:
    """Poll until ``predicate()`` is true, else fail with ``what``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(interval)
    raise AssertionError(f"Timed out after {timeout} s waiting for {what or predicate}")
