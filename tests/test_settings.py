"""Settings modes: the embedded default runs without services; production passes --deploy."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

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
    """``make run``'s settings; its email (a password reset's link) is written to the console."""
    out = _run(
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings.local';"
        "django.setup(); from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER,"
        " s.CACHES['default']['BACKEND'],"
        " s.DATABASES['default']['OPTIONS']['transaction_mode'], s.EMAIL_BACKEND)",
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [
        "django.db.backends.sqlite3",
        "True",
        "django.core.cache.backends.locmem.LocMemCache",
        "IMMEDIATE",  # config/sqlite.py
        "django.core.mail.backends.console.EmailBackend",
    ]


def test_only_make_runs_settings_serve_runserver_by_daphne():
    """``make run``'s runserver is Daphne's (HTTP and WebSockets in one process, docs/deploy.md);
    the production and test settings leave Daphne's app out, whose start installs Twisted's
    reactor that their processes never use."""
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings.{}';"
        "django.setup(); from django.conf import settings as s;"
        "from django.core.management import get_commands;"
        "print(get_commands()['runserver'], 'daphne' in s.INSTALLED_APPS)"
    )
    local = _run(code.format("local"))
    assert local.returncode == 0, local.stderr
    assert local.stdout.split() == ["daphne", "True"]
    production = _run(
        code.format("production"),
        SECRET_KEY="k8#Zq!v2Lr@9pX$w4Tn&6Ym*3Bc^7Hd(1Gf)5Js+0Ae=Ru_Wi-Oy~Qs.Ml,Kz;Vx",
        ALLOWED_HOSTS="roses.example.com",
        REDIS_URL="redis://cache.example.com:6379/0",
    )
    assert production.returncode == 0, production.stderr
    assert production.stdout.split()[1] == "False"


def test_sqlite_transactions_that_read_then_write_wait_for_each_other(
    tmp_path: Path, django_db_blocker: Any
):
    """The embedded default's options (config/sqlite.py) on a real SQLite file. Two threads
    each read which seat is free and then take it, as joining a tavern seat does, and both
    try to read before either writes. With SQLite's deferred transactions both read, and the
    second to write failed at once with "database is locked" (a 500 under ``make run``).
    With ``BEGIN IMMEDIATE`` the second waits at its ``BEGIN`` until the first commits, then
    reads the seat the first took and takes the next: no failure, no seat taken twice."""
    from django.db.utils import ConnectionHandler

    from config import sqlite

    database = sqlite.configure(
        {"ENGINE": "django.db.backends.sqlite3", "NAME": str(tmp_path / "db.sqlite3")}
    )
    handler = ConnectionHandler({"default": database})  # one connection per thread
    # a database of its own, outside the suite's PostgreSQL: pytest-django's guard lifted
    django_db_blocker.unblock()
    try:
        failures = _race_for_seats(handler)
        setup = handler["default"]
        with setup.cursor() as cursor:
            cursor.execute("SELECT n FROM seat ORDER BY n")
            taken = [n for (n,) in cursor.fetchall()]
            cursor.execute("PRAGMA journal_mode")
            (journal,) = cursor.fetchone()
        setup.close()
    finally:
        django_db_blocker.restore()
    assert failures == []
    assert taken == [0, 1]
    assert journal == "wal"


def _race_for_seats(handler: Any) -> list[str]:
    """Two transactions that each count the seats taken and take the next one; each waits
    (briefly) after its read for the other to have read too. Returns the errors raised."""
    from django.db.utils import OperationalError

    with handler["default"].cursor() as cursor:
        cursor.execute("CREATE TABLE seat (n integer)")
    both_read = threading.Barrier(2)
    failures: list[str] = []

    def take_a_seat() -> None:
        connection = handler["default"]
        # what transaction.atomic() does on SQLite: BEGIN, in the configured mode
        connection.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM seat")
                (taken,) = cursor.fetchone()
                # Deferred, both get here; immediate, the second is still at its BEGIN, so
                # the first stops waiting and the barrier breaks for both.
                with contextlib.suppress(threading.BrokenBarrierError):
                    both_read.wait(timeout=0.5)
                cursor.execute("INSERT INTO seat VALUES (%s)", [taken])
            connection.commit()
        except OperationalError as exc:
            failures.append(str(exc))
            connection.rollback()
        finally:
            connection.set_autocommit(True)
            connection.close()

    threads = [threading.Thread(target=take_a_seat) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failures


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


def test_behind_a_transaction_pooler_nothing_outlives_a_transaction():
    """Issue 41 (docs/deploy.md, "Several machines"): with DB_TRANSACTION_POOLER (PgBouncer in
    transaction mode) no statement is prepared on the server and no cursor is kept there;
    without it, statements run five times are prepared."""
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings.production';"
        "django.setup(); from django.conf import settings as s; d = s.DATABASES['default'];"
        "print(d['OPTIONS']['prepare_threshold'], d['DISABLE_SERVER_SIDE_CURSORS'])"
    )
    production = {
        "SECRET_KEY": "k8#Zq!v2Lr@9pX$w4Tn&6Ym*3Bc^7Hd(1Gf)5Js+0Ae=Ru_Wi-Oy~Qs.Ml,Kz;Vx",
        "ALLOWED_HOSTS": "roses.example.com",
        "DATABASE_URL": "postgres://app@db.example.com:6432/roses",
    }
    direct = _run(code, **production)
    pooled = _run(code, **production, DB_TRANSACTION_POOLER="true")
    assert (direct.returncode, pooled.returncode) == (0, 0), direct.stderr + pooled.stderr
    assert direct.stdout.split() == ["5", "False"]
    assert pooled.stdout.split() == ["None", "True"]


def test_a_broker_of_its_own_takes_celery_and_beat_and_leaves_the_cache_and_sockets():
    """Issue 41 (docs/deploy.md, "Several machines"): BROKER_REDIS_URL moves Celery's queues,
    results and beat's lock to a Redis of their own; the cache, the sessions' copies and the
    channel layer stay on REDIS_URL; unset, REDIS_URL serves all of them."""
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings.production';"
        "django.setup(); from django.conf import settings as s;"
        "print(s.CELERY_BROKER_URL, s.CELERY_RESULT_BACKEND, s.CELERY_REDBEAT_REDIS_URL,"
        " s.CACHES['default']['LOCATION'],"
        " s.CHANNEL_LAYERS['default']['CONFIG']['hosts'][0]['address'])"
    )
    production = {
        "SECRET_KEY": "k8#Zq!v2Lr@9pX$w4Tn&6Ym*3Bc^7Hd(1Gf)5Js+0Ae=Ru_Wi-Oy~Qs.Ml,Kz;Vx",
        "ALLOWED_HOSTS": "roses.example.com",
        "REDIS_URL": "redis://cache.example.com:6379/0",
    }
    split = _run(code, **production, BROKER_REDIS_URL="redis://broker.example.com:6379/0")
    one = _run(code, **production)
    assert (split.returncode, one.returncode) == (0, 0), split.stderr + one.stderr
    broker, cache = "redis://broker.example.com:6379/0", "redis://cache.example.com:6379/0"
    assert split.stdout.split() == [broker, broker, broker, cache, cache]
    assert one.stdout.split() == [cache] * 5


def test_production_sockets_wait_on_redis_longer_than_the_layers_blocking_read():
    """An idle socket's consumer waits on Redis with a blocking pop of 5 s; production's channel
    layer reads with a longer timeout, as the tests' does, or idle sockets close under load
    with "Timeout reading from" (seen by ``make loadtest-cluster``: tests/push/test_sockets.py
    keeps one open past it on the test settings)."""
    out = _run(
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings.production';"
        "django.setup(); from django.conf import settings as s;"
        "print(s.CHANNEL_LAYERS['default']['CONFIG']['hosts'][0]['socket_timeout'])",
        SECRET_KEY="k8#Zq!v2Lr@9pX$w4Tn&6Ym*3Bc^7Hd(1Gf)5Js+0Ae=Ru_Wi-Oy~Qs.Ml,Kz;Vx",
        ALLOWED_HOSTS="roses.example.com",
        REDIS_URL="redis://cache.example.com:6379/0",
    )
    assert out.returncode == 0, out.stderr
    assert float(out.stdout) > 5


def test_the_channel_layers_pool_holds_a_connection_for_every_socket_a_worker_keeps():
    """redis-py's asyncio pool stops at 100 connections and then fails at once: 300 sockets
    opened together on one web worker got 500s on the handshake ("Too many connections").
    The layer's pool follows WEB_CONNECTIONS, the sockets a worker keeps open."""
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='config.settings.production';"
        "django.setup(); from django.conf import settings as s;"
        "from channels_redis.utils import create_pool;"
        "print(create_pool(s.CHANNEL_LAYERS['default']['CONFIG']['hosts'][0]).max_connections)"
    )
    production = {
        "SECRET_KEY": "k8#Zq!v2Lr@9pX$w4Tn&6Ym*3Bc^7Hd(1Gf)5Js+0Ae=Ru_Wi-Oy~Qs.Ml,Kz;Vx",
        "ALLOWED_HOSTS": "roses.example.com",
        "REDIS_URL": "redis://cache.example.com:6379/0",
    }
    default = _run(code, **production)
    raised = _run(code, **production, WEB_CONNECTIONS="2500")
    assert (default.returncode, raised.returncode) == (0, 0), default.stderr + raised.stderr
    assert (int(default.stdout), int(raised.stdout)) == (1000, 2500)


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
    # the roll log's three, and the demo thread's inline roll and secret roll (threads/demo.py)
    assert Roll.objects.count() == 5
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


def test_the_broker_hands_out_again_only_what_no_worker_holds_and_sweeps_bound_the_rest():
    """A message is acknowledged once its task is done; a worker killed whole leaves it with
    Redis, which hands it out again after the visibility timeout. That timeout outlasts the
    longest a message is held legitimately (the longest retry countdown, then the longest hard
    time limit: a shorter one would hand a waiting retry to a second worker), and the sweeps
    enqueue lost bot moves and turn notices within a minute, after the task's own hard limit
    (a task still running is not doubled)."""
    from config.celery import app
    from config.settings import base
    from tables.tasks import RETRY_MAX_SECONDS

    app.loader.import_default_modules()  # every app's tasks, as a worker loads them
    ours = {name: task for name, task in app.tasks.items() if not name.startswith("celery.")}
    longest_run = max(task.time_limit or base.CELERY_TASK_TIME_LIMIT for task in ours.values())
    longest_wait = max(RETRY_MAX_SECONDS, base.NOTIFICATION_RETRY_MAX_SECONDS)
    assert base.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] > longest_wait + longest_run
    sweeps = {
        "minigames.bot_move": (base.TAVERN_BOT_STALE_SECONDS, base.TAVERN_SWEEP_SECONDS),
        "tables.turn_notify": (base.TABLE_WAITS_STALE_SECONDS, base.TABLE_SWEEP_SECONDS),
        "battles.turn_notify": (base.TABLE_WAITS_STALE_SECONDS, base.TABLE_SWEEP_SECONDS),
    }
    for name, (budget, every) in sweeps.items():
        assert ours[name].time_limit < budget and budget + every <= 60, name
    schedule = {entry["task"]: entry["schedule"] for entry in base.CELERY_BEAT_SCHEDULE.values()}
    assert schedule["minigames.requeue_lost_bot_moves"] == base.TAVERN_SWEEP_SECONDS
    assert schedule["tables.requeue_lost_waits"] == base.TABLE_SWEEP_SECONDS
