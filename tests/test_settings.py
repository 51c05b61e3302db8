"""Settings modes: the embedded default runs without services; production passes --deploy."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _clean_env() -> dict[str, str]:
    """The environment without what the browser tests set for themselves."""
    return {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}


def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in _clean_env().items() if k not in ("DATABASE_URL", "REDIS_URL")}
    return subprocess.run(  # noqa: S603
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_embedded_default_is_sqlite_with_eager_celery_and_memory_cache():
    out = _run(
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings.local';"
        "django.setup(); from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER,"
        " s.CACHES['default']['BACKEND'])"
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [
        "django.db.backends.sqlite3",
        "True",
        "django.core.cache.backends.locmem.LocMemCache",
    ]


def test_redis_url_switches_broker_and_cache():
    out = _run(
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings.local';"
        "django.setup(); from django.conf import settings as s;"
        "print(s.CELERY_BROKER_URL, s.CELERY_TASK_ALWAYS_EAGER, s.CACHES['default']['BACKEND'],"
        " s.DATABASES['default']['ENGINE'])",
        REDIS_URL="redis://127.0.0.1:6379/5",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/test",
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [
        "redis://127.0.0.1:6379/5",
        "False",
        "config.redis_cache.RedisCache",
        "config.postgresql",  # Django's, with a cheaper health check
    ]


def test_production_settings_pass_check_deploy_without_warnings():
    out = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={
            **_clean_env(),
            "DJANGO_SETTINGS_MODULE": "config.settings.production",
            "SECRET_KEY": "k8#Zq!v2Lr@9pX$w4Tn&6Ym*3Bc^7Hd(1Gf)5Js+0Ae=Ru_Wi-Oy~Qs.Ml,Kz;Vx",
            "ALLOWED_HOSTS": "roses.example.com",
        },
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues" in out.stdout


def test_moves_commit_without_the_flush_in_production_unless_turned_off():
    """Issue 15 (docs/deploy.md, "Durability of moves"): on by default, off by its variable."""
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings.production';"
        "django.setup(); from django.conf import settings as s; print(s.TABLE_MOVES_ASYNC_COMMIT)"
    )
    production = {
        "SECRET_KEY": "k8#Zq!v2Lr@9pX$w4Tn&6Ym*3Bc^7Hd(1Gf)5Js+0Ae=Ru_Wi-Oy~Qs.Ml,Kz;Vx",
        "ALLOWED_HOSTS": "roses.example.com",
    }
    default = _run(code, **production)
    off = _run(code, **production, TABLE_MOVES_ASYNC_COMMIT="false")
    assert (default.returncode, off.returncode) == (0, 0), default.stderr + off.stderr
    assert (default.stdout.strip(), off.stdout.strip()) == ("True", "False")


def test_production_refuses_to_start_without_a_secret_key():
    out = _run(
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings.production';"
        "django.setup()",
        ALLOWED_HOSTS="roses.example.com",
        SECRET_KEY="",
    )
    assert out.returncode != 0


@pytest.mark.django_db
def test_demo_data_is_idempotent_and_logs_in():
    from django.contrib.auth import authenticate
    from django.core.management import call_command
    from django.test import RequestFactory

    from campaign.models import Campaign, Membership, Roll

    call_command("seed_demo", stdout=io.StringIO())
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    assert "roses-gm-demo" in out.getvalue()
    assert Campaign.objects.count() == 1
    assert Membership.objects.count() == 3
    assert Roll.objects.count() == 3
    request = RequestFactory().post("/accounts/login/")
    assert authenticate(request, username="gm", password="roses-gm-demo") is not None
    assert authenticate(request, username="reimu", password="roses-reimu-demo") is not None


def test_cache_key_prefix_gives_a_deployment_its_own_keyspace():
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings.local';"
        "django.setup(); from django.core.cache import cache; print(cache.make_key('head'))"
    )
    shared = _run(code, REDIS_URL="redis://127.0.0.1:6379/5")
    own = _run(code, REDIS_URL="redis://127.0.0.1:6379/5", CACHE_KEY_PREFIX="staging")
    assert shared.returncode == own.returncode == 0, (shared.stderr, own.stderr)
    assert (shared.stdout.strip(), own.stdout.strip()) == (":1:head", "staging:1:head")
