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
    assert set(services) == {"db", "redis", "migrate", "web", "beat", *workers}
    assert services["web"]["command"][0] == "gunicorn"
    for name, command in procfile().items():
        if name.startswith("worker-"):
            assert services[name]["command"] == command
    assert services["beat"]["command"][:4] == ["celery", "-A", "config", "beat"]
    assert services["migrate"]["command"][-2:] == ["migrate", "--noinput"]
    for name in ("web", "beat", "migrate", *workers):
        env = services[name]["environment"]
        assert env["DJANGO_SETTINGS_MODULE"] == "config.settings.production"
        assert env["DATABASE_URL"].startswith("postgres://")
        assert env["REDIS_URL"].startswith("redis://redis:")
        assert services[name]["depends_on"]["db"]["condition"] == "service_healthy"
    assert services["web"]["depends_on"]["migrate"]["condition"] == (
        "service_completed_successfully"
    )
    assert "/health/ready/" in " ".join(services["web"]["healthcheck"]["test"])


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
