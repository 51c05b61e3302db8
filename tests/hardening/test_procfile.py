"""The production processes come up as the Procfile starts them: gunicorn with production
settings, a Celery worker and beat, on this machine's PostgreSQL and Redis; the health page
served by that gunicorn reports every service healthy (database, cache, broker, storage, worker)."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

from tests.load.processes import free_port, procfile
from tests.notifications.celery_worker import database_url

ROOT = Path(__file__).resolve().parent.parent.parent

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("celery-worker"),
]


def test_procfile_names_gunicorn_a_worker_and_beat():
    processes = procfile()
    assert processes["web"][0] == "gunicorn"
    assert processes["worker"][:4] == ["celery", "-A", "config", "worker"]
    assert processes["beat"][:4] == ["celery", "-A", "config", "beat"]


def test_the_procfile_processes_come_up_and_report_healthy(tmp_path):
    port = free_port()
    redis_url = settings.CELERY_BROKER_URL.rsplit("/", 1)[0] + "/12"  # a db of its own
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "DATABASE_URL": database_url(),
        "REDIS_URL": redis_url,
        "PORT": str(port),
        "WEB_CONCURRENCY": "2",
        "MEDIA_ROOT": str(tmp_path / "media"),
        "PATH": f"{ROOT / '.venv' / 'bin'}:{os.environ.get('PATH', '')}",
    }
    processes = procfile()
    procs: dict[str, subprocess.Popen[bytes]] = {}
    logs = {name: (tmp_path / f"{name}.log").open("wb") for name in ("web", "worker", "beat")}
    try:
        for name in ("web", "worker", "beat"):
            command = list(processes[name])
            if name == "beat":
                command += ["--schedule", str(tmp_path / "beat-schedule")]
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
