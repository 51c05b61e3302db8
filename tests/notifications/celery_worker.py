"""Start and stop real ``celery -A config worker`` processes for integration tests and benchmarks.

The worker runs the test settings against a database this process names (the test database
pytest-django created, or the benchmark's own), on the real Redis broker, with this process's
``TEST_CELERY_PREFIX`` so it only sees messages this process publishes. The caller must make the
in-process Celery app publish for real: :func:`real_publishing`.
"""

from __future__ import annotations

import contextlib
import os
import re
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

from tests.load.processes import free_port

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


def dead_url(scheme: str, path: str = "") -> str:
    """A URL on 127.0.0.1 at a port nothing listens on: connecting is refused at once."""
    return f"{scheme}://127.0.0.1:{free_port()}{path}"


@contextmanager
def dead_broker() -> Iterator[str]:
    """Make this process's Celery app publish to a broker port nothing listens on (a broker
    outage), then give it back its live broker. Use inside :func:`real_publishing`.

    Celery builds its broker connection pool and producer pool on the first publish, from the
    ``broker_write_url`` of that moment, and keeps them: changing the setting alone changes
    nothing. There is no public reset, so this clears the two cached pools (``app._pool`` and
    ``app.amqp._producer_pool``: exactly what Celery itself clears after a fork) and the next
    publish builds new ones for the dead URL; on the way out the dead pools are closed and the
    live ones put back untouched. Publishing stays bounded: Celery retries a failed publish
    ``task_publish_retry_policy["max_retries"]`` times (1, at once) and then raises.
    Yields the dead broker URL.
    """
    from config.celery import app

    assert app.conf.task_publish_retry_policy["max_retries"] is not None
    amqp = app.amqp
    # The setting as set (usually None: "the broker_url"), not the property that resolves it.
    saved = app.conf.get("broker_write_url"), app._pool, amqp._producer_pool
    url = dead_url("redis", "/0")
    app.conf.broker_write_url = url
    app._pool = amqp._producer_pool = None
    try:
        yield url
    finally:
        for pool in (amqp._producer_pool, app._pool):
            if pool is not None:
                pool.force_close_all()
        app.conf.broker_write_url, app._pool, amqp._producer_pool = saved


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
    """One worker process (prefork pool, concurrency 1) and its pool child.

    ``database_url`` points the worker at another database than this process's (a dead port:
    every task that touches the database meets a lost connection); ``environ`` adds settings
    the test settings read from the environment (e.g. ``NOTIFICATION_RETRY_BASE_SECONDS``);
    ``loglevel="INFO"`` makes the worker log every task it runs and retries (read them with
    :meth:`retry_countdowns`); ``queues`` names the queues it takes (``-Q``; every queue of
    ``CELERY_TASK_QUEUES`` by default, as a worker started without ``-Q`` takes them).
    """

    def __init__(
        self,
        *,
        visibility_timeout: int = 3600,
        email_dir: str | None = None,
        database_url: str | None = None,
        environ: dict[str, str] | None = None,
        loglevel: str = "WARNING",
        queues: tuple[str, ...] = (),
    ) -> None:
        self.queues = queues
        self.visibility_timeout = visibility_timeout
        self.email_dir = email_dir
        self.database_url = database_url
        self.environ = environ or {}
        self.loglevel = loglevel
        self.log = tempfile.NamedTemporaryFile(  # noqa: SIM115 (closed in stop())
            prefix="celery-worker-", suffix=".log", delete=False
        )
        self.proc: subprocess.Popen[bytes] | None = None

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings.test",
            DATABASE_URL=self.database_url or database_url(),
            REDIS_URL=settings.CELERY_BROKER_URL,
            CELERY_EAGER="0",
            TEST_CELERY_PREFIX=settings.TEST_CELERY_PREFIX,
            # the test's own cache, as a deployment's web and workers share theirs
            TEST_CACHE_PREFIX=settings.CACHES["default"]["KEY_PREFIX"],
            CELERY_VISIBILITY_TIMEOUT=str(self.visibility_timeout),
            PYTHONUNBUFFERED="1",
            # workers log through Django's LOGGING (config/celery.py), at the level asked for
            LOG_LEVEL=self.loglevel,
        )
        if self.email_dir:
            env["EMAIL_FILE_PATH"] = self.email_dir
        env.update(self.environ)
        return env

    def start(self, *, ready_timeout: float = 60, ping: bool = True) -> CeleryWorker:
        """Start the worker and wait until it answers a ping; ``ping=False`` returns at once
        (a test whose first task blocks the worker's one pool process waits for that task
        instead: :meth:`received`)."""
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
            f"--loglevel={self.loglevel}",
            f"--hostname=test-{os.getpid()}-{time.monotonic_ns()}@%h",
            *([f"--queues={','.join(self.queues)}"] if self.queues else []),
        ]
        self.proc = subprocess.Popen(  # noqa: S603
            command,
            cwd=ROOT,
            env=self.env(),
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: kill() takes the pool child too
        )
        if ping:
            self.wait_ready(ready_timeout)
        return self

    def wait_ready(self, timeout: float) -> None:
        """A ping task round trip: the worker consumes our queue and runs tasks."""
        from notifications.tasks import ping

        # to a queue this worker takes (a worker of "turns" alone never sees the ping's own)
        result = ping.apply_async(queue=self.queues[0] if self.queues else None)
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
        """The end of the worker's log (for failure messages)."""
        return self.log_text()[-5000:]

    def log_text(self) -> str:
        self.log.flush()
        return Path(self.log.name).read_text(errors="replace")

    def received(self, task_name: str) -> int:
        """How many ``task_name`` messages the worker has taken so far (Celery logs "Task
        <name>[<id>] received" at INFO, once the message is reserved for this worker)."""
        return len(re.findall(rf"Task {re.escape(task_name)}\[[^\]]+\] received", self.log_text()))

    def retry_countdowns(self, task_name: str) -> list[float]:
        """The countdown of every retry of ``task_name`` the worker logged, in order (Celery
        logs "Task <name>[<id>] retry: Retry in <N>s: <error>" at INFO)."""
        pattern = re.compile(rf"Task {re.escape(task_name)}\[[^\]]+\] retry: Retry in ([0-9.]+)s")
        return [float(n) for n in pattern.findall(self.log_text())]


class CeleryBeat:
    """One ``celery -A config beat`` process on this process's queue prefix: it publishes the
    beat schedule of the test settings (``environ`` shortens the sweeps, e.g.
    ``TAVERN_SWEEP_SECONDS``) for the test's workers to run, as production's beat does."""

    def __init__(
        self, *, environ: dict[str, str] | None = None, key_prefix: str | None = None
    ) -> None:
        self.environ = environ or {}
        # Its schedule and lock in Redis (celery-redbeat): its own unless shared on purpose (a
        # test of two beats at once, or of one restarted), so the beats of earlier tests (killed
        # with SIGKILL, their lock still held) never hold up this one.
        self.key_prefix = key_prefix or (
            f"{settings.TEST_CELERY_PREFIX}:redbeat-{time.monotonic_ns()}:"
        )
        self.dir = tempfile.TemporaryDirectory(prefix="celery-beat-")
        self.log_path = Path(self.dir.name) / "beat.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> CeleryBeat:
        env = CeleryWorker(
            environ={"BEAT_KEY_PREFIX": self.key_prefix, **self.environ}, loglevel="INFO"
        ).env()
        command = [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "beat",
            "--loglevel=INFO",
            "--schedule",
            str(Path(self.dir.name) / "schedule"),
        ]
        with self.log_path.open("ab") as log:  # a restarted beat writes on after its lines
            self.proc = subprocess.Popen(  # noqa: S603
                command,
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return self

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")[-3000:] if self.log_path.exists() else ""

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def kill(self) -> None:
        """SIGKILL the beat: nothing it holds (its lock in Redis) is given back."""
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        self.kill()
        self.dir.cleanup()


def unacked_messages() -> int:
    """How many messages of this process's queues Redis holds as delivered to a worker and not
    acknowledged (kombu's ``unacked`` hash, under the test's key prefix)."""
    import redis

    prefix = settings.CELERY_BROKER_TRANSPORT_OPTIONS["global_keyprefix"]
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    try:
        return int(client.hlen(f"{prefix}unacked"))
    finally:
        client.close()


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
