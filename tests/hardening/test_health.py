"""Health and readiness endpoints report each real service: the database, the cache, the Redis
broker, storage and (on /health/) a live Celery worker; a dead broker port and a missing worker
are reported as failures, not hidden."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from django.test import Client

from tests.notifications.celery_worker import CeleryWorker, real_publishing

pytestmark = pytest.mark.django_db(transaction=True)


class _Answer:
    def __init__(self, status: int, body: bytes) -> None:
        self.status_code = status
        self.content = body

    def json(self):
        return json.loads(self.content)


def _get(live_server, path: str) -> _Answer:
    """Over real HTTP from the live server's own thread: the health views are async, and a
    worker that already ran a browser test has Playwright's event loop in its main thread."""
    try:
        with urllib.request.urlopen(live_server.url + path, timeout=30) as response:  # noqa: S310
            return _Answer(response.status, response.read())
    except urllib.error.HTTPError as error:
        return _Answer(error.code, error.read())


def _checks(response) -> dict[str, bool]:
    """Check name → healthy, from django-health-check's JSON."""
    data = response.json()
    return {name.split("(")[0]: value == "OK" for name, value in data.items()}


def test_readiness_reports_database_cache_broker_and_storage(live_server):
    response = _get(live_server, "/health/ready/?format=json")
    assert response.status_code == 200
    checks = _checks(response)
    assert {"Database", "Cache", "Storage", "Redis"} <= set(checks)
    assert all(checks.values())


def test_readiness_fails_when_the_broker_port_is_dead(settings, live_server):
    settings.HEALTH_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = _get(live_server, "/health/ready/?format=json")
    assert response.status_code == 500
    checks = _checks(response)
    assert checks["Redis"] is False
    assert checks["Database"] is True


def test_readiness_checks_the_broker_where_celery_sends(settings, live_server):
    """A deployment with a broker of its own (BROKER_REDIS_URL): readiness asks that Redis,
    not the cache's, so a broker down fails it while the cache still answers."""
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = _get(live_server, "/health/ready/?format=json")
    assert response.status_code == 500
    checks = _checks(response)
    assert checks["Redis"] is False
    assert checks["Cache"] is True


def test_every_response_carries_a_request_id():
    response = Client().get("/api/health/")
    assert len(response["X-Request-ID"]) == 32
    given = "6a1f1d1c5e2b4f0a9c3d7e8f9a0b1c2d"
    echoed = Client().get("/api/health/", HTTP_X_REQUEST_ID=given)
    assert echoed["X-Request-ID"] == given


@pytest.mark.integration
@pytest.mark.xdist_group("celery-worker")
def test_full_health_needs_a_live_worker(django_db_setup, live_server):
    with real_publishing():
        without = _get(live_server, "/health/?format=json")
        assert without.status_code == 500
        assert _checks(without)["Ping"] is False
        worker = CeleryWorker().start()
        try:
            with_worker = _get(live_server, "/health/?format=json")
        finally:
            worker.stop()
    assert with_worker.status_code == 200, with_worker.content
    assert _checks(with_worker)["Ping"] is True
