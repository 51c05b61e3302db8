"""gunicorn settings for production (the Procfile's and docker-compose.yml's web process:
``gunicorn config.asgi:application --config config/gunicorn.py``).

Every value can be changed from the environment. Each worker is uvicorn's event loop
(:mod:`config.asgi_worker`) serving the ASGI app, whose guard (:mod:`config.request_guard`)
reads a request's whole body, within a deadline, before Django sees it: a slow client holds no
worker (docs/deploy.md, "The web server"). The app keeps nothing in process memory that another
web process would need (sessions, caches, rate-limit counters and lockouts live in PostgreSQL
and Redis), so more workers or more machines behind a load balancer serve the same site.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import tempfile
from typing import Protocol

bind = os.environ.get("GUNICORN_BIND", f"0.0.0.0:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
worker_class = "config.asgi_worker.Worker"
# A worker whose event loop stops answering gunicorn's heartbeat for this long is restarted.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "20"))
keepalive = 5
# A request's head is bounded by the worker (16 kB, config/asgi_worker.py), its body by the
# guard (MAX_REQUEST_BODY_BYTES and REQUEST_BODY_TIMEOUT, config/request_guard.py).
accesslog = "-"
errorlog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
# Every worker writes its metrics to files in one directory and /metrics sums them, so any
# worker's answer covers all (prometheus_client's multiprocess mode, config/metrics.py): a
# folder of this server's own unless PROMETHEUS_MULTIPROC_DIR names one (shared with the Celery
# workers of the same machine, their bot moves then counted there too). Set before any worker
# imports prometheus_client.
_OWN_METRICS_DIR = (
    ""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    else tempfile.mkdtemp(prefix="westernroses-metrics-")
)
os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", _OWN_METRICS_DIR)


def post_worker_init(worker: object) -> None:
    """Each worker, once the app is loaded: start-up objects out of the collector's way
    (:mod:`config.startup_gc`)."""
    from config.startup_gc import freeze_startup_objects

    freeze_startup_objects()


class _Worker(Protocol):
    pid: int


def child_exit(server: object, worker: _Worker) -> None:
    """A worker gone: its gauges (open WebSockets) no longer count (its counters still do)."""
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)


def on_exit(server: object) -> None:
    """The server stops: the metrics folder it made goes with it."""
    if _OWN_METRICS_DIR:
        shutil.rmtree(_OWN_METRICS_DIR, ignore_errors=True)
