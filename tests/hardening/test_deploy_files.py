"""docker-compose.yml starts every production service from one image with the Procfile's
commands; where Docker's compose plugin is installed, `docker compose config` accepts it (this
machine has only the Docker client, so the structural checks below always run)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from django.conf import settings

from tests.load.processes import procfile

ROOT = Path(__file__).resolve().parent.parent.parent


def _compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def _has_compose() -> bool:
    if not shutil.which("docker"):
        return False
    done = subprocess.run(
        ["docker", "compose", "version"],  # noqa: S607 - whichever docker is on PATH
        capture_output=True,
        check=False,
    )
    return done.returncode == 0


def test_compose_runs_every_service_of_the_procfile():
    services = _compose()["services"]
    workers = {f"worker-{queue}" for queue in settings.CELERY_QUEUE_NAMES}
    infrastructure = {"db", "pgbouncer", "broker", "cache"}
    assert set(services) == {*infrastructure, "migrate", "web", "beat", *workers}
    assert services["web"]["command"][0] == "gunicorn"
    for name, command in procfile().items():
        if name.startswith("worker-"):
            assert services[name]["command"] == command
    assert services["beat"]["command"][:4] == ["celery", "-A", "config", "beat"]
    assert services["migrate"]["command"][-2:] == ["migrate", "--noinput"]
    assert services["web"]["depends_on"]["migrate"]["condition"] == (
        "service_completed_successfully"
    )
    assert "/health/ready/" in " ".join(services["web"]["healthcheck"]["test"])


def test_compose_puts_pgbouncer_in_front_and_splits_redis():
    """Issue 41 (docs/deploy.md, "Several machines"): every long-running app process reaches
    PostgreSQL through PgBouncer in transaction mode, with the app told so; migrations go
    straight to PostgreSQL; the broker keeps every message while the cache may drop keys; each
    app process names the broker and the cache on their own instances."""
    services = _compose()["services"]
    workers = {f"worker-{queue}" for queue in settings.CELERY_QUEUE_NAMES}
    bouncer = services["pgbouncer"]["environment"]
    assert bouncer["POOL_MODE"] == "transaction"
    assert bouncer["DB_HOST"] == "db"
    assert services["pgbouncer"]["depends_on"]["db"]["condition"] == "service_healthy"
    port = bouncer["LISTEN_PORT"]
    for name in ("web", "beat", *workers):
        env = services[name]["environment"]
        assert env["DJANGO_SETTINGS_MODULE"] == "config.settings.production"
        assert env["DATABASE_URL"].startswith("postgres://")
        assert env["DATABASE_URL"].split("@")[1].startswith(f"pgbouncer:{port}/"), name
        assert env["DB_TRANSACTION_POOLER"] == "true"
        assert env["REDIS_URL"].startswith("redis://cache:")
        assert env["BROKER_REDIS_URL"].startswith("redis://broker:")
        for needed in ("pgbouncer", "broker", "cache"):
            assert services[name]["depends_on"][needed]["condition"] == "service_healthy"
    migrate = services["migrate"]["environment"]
    assert migrate["DATABASE_URL"].split("@")[1].startswith("db:5432/")
    assert "DB_TRANSACTION_POOLER" not in migrate
    assert migrate["BROKER_REDIS_URL"].startswith("redis://broker:")
    broker = services["broker"]["command"]
    assert broker[broker.index("--appendonly") + 1] == "yes"
    assert broker[broker.index("--maxmemory-policy") + 1] == "noeviction"
    cache = services["cache"]["command"]
    assert cache[cache.index("--maxmemory-policy") + 1] == "allkeys-lru"
    assert "volumes" in services["broker"] and "volumes" not in services["cache"]


def test_no_secret_is_written_in_the_compose_file():
    text = (ROOT / "docker-compose.yml").read_text()
    assert "SECRET_KEY:" not in text
    assert "env_file: .env" in text


@pytest.mark.skipif(not _has_compose(), reason="Docker's compose plugin is not installed here")
def test_docker_compose_accepts_the_file(tmp_path):
    (tmp_path / ".env").write_text("SECRET_KEY=x\nALLOWED_HOSTS=localhost\n")
    done = subprocess.run(  # noqa: S603 - a fixed command
        ["docker", "compose", "-f", str(ROOT / "docker-compose.yml"), "config", "-q"],  # noqa: S607
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
