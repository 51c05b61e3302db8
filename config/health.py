"""Health endpoints for load balancers and orchestrators (django-health-check does the checks).

* ``/api/health/`` - liveness: the process answers (no dependency; also the benchmarks' baseline).
* ``/health/ready/`` - readiness: this web process can serve, so the database, the cache, the
  Celery broker (Redis, when configured) and file storage all answer. A load balancer sends
  traffic only to a ready process.
* ``/health/`` - everything readiness checks, plus at least one Celery worker answering a ping,
  so an operator sees every service of the deployment on one page (JSON with ``?format=json``).

The checks are chosen from settings when a request arrives, so a deployment (or a test) that
changes ``REDIS_URL`` is checked against what it really uses.
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


def _broker_check() -> list[Any]:
    url = getattr(settings, "HEALTH_BROKER_URL", "") or settings.REDIS_URL
    if not url:
        return []  # eager Celery (``make run``): no broker to check

    def client() -> redis.asyncio.Redis:
        return redis.asyncio.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)

    return [Redis(client_factory=client)]


class ReadinessView(HealthCheckView):
    include_workers = False

    def get_checks(self) -> Iterable[Any]:
        checks: list[Any] = [Database(), Cache(), Storage(), *_broker_check()]
        if self.include_workers and settings.REDIS_URL:
            checks.append(Ping(timeout=_TIMEOUT, limit=1))
        return checks


class FullHealthView(ReadinessView):
    include_workers = True


class HealthView(APIView):
    """Liveness check for load balancers; also the benchmarks' minimal-endpoint baseline."""

    permission_classes = [permissions.AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(responses={200: dict})
    def get(self, request: Request) -> Response:
        return Response({"status": "ok"})
