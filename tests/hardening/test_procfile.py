"""The production processes come up as the Procfile starts them: gunicorn with production
settings, a Celery worker per queue and beat, on this machine's PostgreSQL and Redis; the health
page served by that gunicorn reports every service healthy (database, cache, broker, storage, a
worker for every queue)."""

from __future__ import annotations

import json
import secrets
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

from tests.load.processes import free_port, procfile, production_env
from tests.notifications.celery_worker import database_url

ROOT = Path(__file__).resolve().parent.parent.parent

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("celery-worker"),
]


def _health_requests(port: int, token: str) -> float:
    """The liveness endpoint's requests so far, as /metrics counts them (django-prometheus)."""
    from prometheus_client.parser import text_string_to_metric_families

    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/metrics", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=5) as response:  # noqa: S310
        text = response.read().decode()
    return sum(
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == "django_http_requests_total_by_view_transport_method_total"
        and sample.labels.get("view") == "api-health"
    )


def test_procfile_names_gunicorn_a_worker_per_queue_and_beat():
    """One worker per queue, each started for its queue alone, so a slow kind of work never
    holds up a quick one (docs/deploy.md, "Workers and queues")."""
    processes = procfile()
    assert processes["web"][0] == "gunicorn"
    for queue in settings.CELERY_QUEUE_NAMES:
        command = processes[f"worker-{queue}"]
        assert command[:4] == ["celery", "-A", "config", "worker"]
        assert command[command.index("-Q") + 1] == queue
        assert command[command.index("-n") + 1] == f"{queue}@%h"  # one name per worker a host
    assert {name for name in processes if name.startswith("worker")} == {
        f"worker-{queue}" for queue in settings.CELERY_QUEUE_NAMES
    }
    assert processes["beat"][:4] == ["celery", "-A", "config", "beat"]


def test_the_procfile_processes_come_up_and_report_healthy(tmp_path):
    port = free_port()
    redis_url = settings.CELERY_BROKER_URL.rsplit("/", 1)[0] + "/12"  # a db of its own
    env = production_env(
        database=database_url(),
        redis_url=redis_url,
        media=tmp_path / "media",
        port=port,
        WEB_CONCURRENCY="2",
        METRICS_TOKEN=secrets.token_urlsafe(20),
    )
    processes = procfile()
    names = [name for name in processes if name != "release"]
    procs: dict[str, subprocess.Popen[bytes]] = {}
    logs = {name: (tmp_path / f"{name}.log").open("wb") for name in names}
    try:
        for name in names:
            command = list(processes[name])
            procs[name] = subprocess.Popen(  # noqa: S603 - the Procfile's own commands
                command, cwd=ROOT, env=env, stdout=logs[name], stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 60
        report: dict[str, str] = {}
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/health/?format=json", timeout=5
                ) as response:
                    report = json.loads(response.read())
                    if response.status == 200:
                        break
            except (OSError, ValueError):
                pass
            time.sleep(0.5)
        for name, proc in procs.items():
            assert proc.poll() is None, (name, (tmp_path / f"{name}.log").read_text())
        names = {key.split("(")[0]: value for key, value in report.items()}
        assert names.keys() >= {"Database", "Cache", "Storage", "Redis", "Ping"}, (
            report,
            (tmp_path / "web.log").read_text()[-3000:],
        )
        assert set(names.values()) == {"OK"}, report
        # Metrics: whichever of the two gunicorn workers answers the scrape counts the requests
        # both served (config/metrics.py's multiprocess directory, set up by config/gunicorn.py).
        for _ in range(6):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health/", timeout=5).close()
        totals = [_health_requests(port, env["METRICS_TOKEN"]) for _ in range(4)]
        assert len(set(totals)) == 1 and totals[0] >= 6, totals
    finally:
        for proc in procs.values():
            proc.terminate()
        for proc in procs.values():
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        for log in logs.values():
            log.close()
