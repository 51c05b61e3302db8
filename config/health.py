"""Health endpoints for load balancers and orchestrators (django-health-check does the checks).

* ``/api/health/`` - liveness: the process answers (no dependency, not even the API rate's
  counter; also the benchmarks' baseline).
* ``/health/ready/`` - readiness: this web process can serve, so the database, the cache, the
  Celery broker (Redis, when configured) and file storage all answer. A load balancer sends
  traffic only to a ready process.
* ``/health/`` - everything readiness checks, plus a Celery worker answering a ping for every
  queue, so an operator sees every service of the deployment on one page (JSON with
  ``?format=json``); it waits ``_TIMEOUT`` for the workers' answers.

The checks are chosen from settings when a request arrives, so a deployment (or a test) that
changes ``REDIS_URL`` is checked against what it really uses. Each gives up quickly: the cache
through its short socket timeouts (``REDIS_SOCKET_TIMEOUT``, ``config.redis_cache``), the
broker's check after ``_REDIS_TIMEOUT`` (1 s), so a stopped or frozen Redis is reported within
a second or two.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any

import redis.asyncio
from django.conf import settings
from drf_spectacular.utils import extend_schema
from health_check.checks import Cache, Database, Storage
from health_check.contrib.celery import Ping
from health_check.contrib.redis import Redis
from health_check.views import HealthCheckView
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

_TIMEOUT = datetime.timedelta(seconds=2)
#: A Redis answers in well under a millisecond, or not at all.
_REDIS_TIMEOUT = datetime.timedelta(seconds=1)


def _broker_check() -> list[Any]:
    url = getattr(settings, "HEALTH_BROKER_URL", "") or settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://")):
        return []  # eager Celery (``make run``): no broker to check

    def client() -> redis.asyncio.Redis:
        seconds = _REDIS_TIMEOUT.total_seconds()
        return redis.asyncio.Redis.from_url(
            url, socket_connect_timeout=seconds, socket_timeout=seconds
        )

    return [Redis(client_factory=client)]


class ReadinessView(HealthCheckView):  # type: ignore[misc]  # django-health-check ships no types
    include_workers = False

    def get_checks(self) -> Iterable[Any]:
        checks: list[Any] = [Database(), Cache(), Storage(), *_broker_check()]
        if self.include_workers and settings.REDIS_URL:
            # Every worker's answer within the timeout (not the first's alone): the check then
            # names a queue no worker takes (CELERY_TASK_QUEUES: a worker per queue).
            checks.append(Ping(timeout=_TIMEOUT, limit=None))
        return checks


class FullHealthView(ReadinessView):
    include_workers = True


class HealthView(APIView):
    """Liveness check for load balancers; also the benchmarks' minimal-endpoint baseline."""

    permission_classes = [permissions.AllowAny]
    authentication_classes: list[type] = []
    # Liveness touches nothing: not even the API rate's counter in Redis (with Redis frozen it
    # waited for Redis's answer on every probe).
    throttle_classes: list[type] = []

    @extend_schema(responses={200: dict})
    def get(self, request: Request) -> Response:
        return Response({"status": "ok"})
