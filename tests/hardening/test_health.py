"""Health and readiness endpoints report each real service: the database, the cache, the Redis
broker, storage and (on /health/) a live Celery worker; a dead broker port and a missing worker
are reported as failures, not hidden."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.notifications.celery_worker import CeleryWorker, real_publishing

pytestmark = pytest.mark.django_db(transaction=True)


def _checks(response) -> dict[str, bool]:
    """Check name → healthy, from django-health-check's JSON."""
    data = response.json()
    return {name.split("(")[0]: value == "OK" for name, value in data.items()}


def test_readiness_reports_database_cache_broker_and_storage():
    response = Client().get("/health/ready/?format=json")
    assert response.status_code == 200
    checks = _checks(response)
    assert {"Database", "Cache", "Storage", "Redis"} <= set(checks)
    assert all(checks.values())


def test_readiness_fails_when_the_broker_port_is_dead(settings):
    settings.HEALTH_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = Client().get("/health/ready/?format=json")
    assert response.status_code == 500
    checks = _checks(response)
    assert checks["Redis"] is False
    assert checks["Database"] is True


def test_every_response_carries_a_request_id():
    response = Client().get("/api/health/")
    assert len(response["X-Request-ID"]) == 32
    given = "6a1f1d1c5e2b4f0a9c3d7e8f9a0b1c2d"
    echoed = Client().get("/api/health/", HTTP_X_REQUEST_ID=given)
    assert echoed["X-Request-ID"] == given


@pytest.mark.integration
@pytest.mark.xdist_group("celery-worker")
def test_full_health_needs_a_live_worker(django_db_setup):
    with real_publishing():
        without = Client().get("/health/?format=json")
        assert without.status_code == 500
        assert _checks(without)["Ping"] is False
        worker = CeleryWorker().start()
        try:
            with_worker = Client().get("/health/?format=json")
        finally:
            worker.stop()
    assert with_worker.status_code == 200, with_worker.content
    assert _checks(with_worker)["Ping"] is True
