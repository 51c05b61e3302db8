"""gunicorn settings for production (the Procfile's and docker-compose.yml's web process).

Every value can be changed from the environment. Workers are plain sync processes: the app keeps
nothing in process memory that another web process would need (sessions, caches, rate-limit
counters and lockouts live in PostgreSQL and Redis), so more workers or more machines behind a
load balancer serve the same site.
"""

from __future__ import annotations

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", f"0.0.0.0:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 20
keepalive = 5
# Refuse oversized request lines and headers before Django reads anything; bodies are bounded
# by Django's DATA_UPLOAD_MAX_MEMORY_SIZE and by the proxy in front (docs/deploy.md).
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190
accesslog = "-"
errorlog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


def post_worker_init(worker: object) -> None:
    """Each worker, once the app is loaded: start-up objects out of the collector's way
    (:mod:`config.startup_gc`)."""
    from config.startup_gc import freeze_startup_objects

    freeze_startup_objects()
