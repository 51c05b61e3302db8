"""Settings for the test suite: real PostgreSQL and Redis at their standard local addresses.

``DATABASE_URL`` and ``REDIS_URL`` override the defaults. Tests that need a real Celery worker
start one themselves; everything else runs tasks eagerly so unit tests need no worker.
"""

import os
import secrets
import tempfile

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/0")

from .base import *  # noqa: F403
from .base import CELERY_BEAT_SCHEDULE, CHANNEL_REDIS_HOST, REDIS_URL

DEBUG = False
SECRET_KEY = "test-only-secret-key-not-for-production-0123456789abcdefghij"  # noqa: S105
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
CELERY_TASK_ALWAYS_EAGER = os.environ.get("CELERY_EAGER", "1") == "1"
CACHES = {
    "default": {
        "BACKEND": "config.redis_cache.RedisCache",
        "LOCATION": REDIS_URL,
        # this test process's own keys; the Celery workers its tests start share them
        # (tests/notifications/celery_worker.py), as a deployment's web and workers do
        "KEY_PREFIX": os.environ.get("TEST_CACHE_PREFIX") or f"test-{os.getpid()}",
    }
}
# The API rate is on as in production (the same classes: DRF binds them to its views at
# import), at an allowance no test reaches; the rate's own tests lower it.
REST_FRAMEWORK = {
    **REST_FRAMEWORK,  # noqa: F405
    "DEFAULT_THROTTLE_RATES": {"user": "1000000/hour", "poll": "1000000/hour"},
}
# Log-in and sign-up limits, likewise at allowances no test reaches (their tests lower them).
API_AUTH_RATE = "1000000/minute"
AUTH_USER_RATE = "1000000/hour"
SIGNUP_RATE = "1000000/hour"
PASSWORD_RESET_RATE = "1000000/hour"  # noqa: S105 - a rate, not a password
# The browser tests' live server is WSGI (no sockets): pages poll there. tests/push runs a
# real ASGI server with sockets on.
PUSH_SOCKETS = os.environ.get("PUSH_SOCKETS", "0") == "1"
# This test process's own channel-layer keys (parallel xdist processes share one Redis).
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "config.channel_layer.RedisChannelLayer",
        "CONFIG": {
            "hosts": [CHANNEL_REDIS_HOST],
            "prefix": os.environ.get("TEST_CHANNEL_PREFIX") or f"asgi-test-{os.getpid()}",
            "capacity": 200,
            "expiry": 30,
        },
    }
}
# Serve static files straight from the app folders: no collectstatic before tests.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# --- Notifications ---------------------------------------------------------------------------
# The webhook tests run a real HTTP receiver on 127.0.0.1; everywhere else loopback is refused.
WEBHOOK_ALLOW_LOOPBACK = True
# Celery isolation: this test process, and the workers its tests start (they get the same
# TEST_CELERY_PREFIX), use their own Redis key prefix for queues and unacknowledged messages, so
# parallel xdist processes, other runs and a development worker never take each other's tasks.
TEST_CELERY_PREFIX = os.environ.get("TEST_CELERY_PREFIX") or (
    f"wr-test-{os.getpid()}-{secrets.token_hex(3)}"
)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    **CELERY_BROKER_TRANSPORT_OPTIONS,  # noqa: F405
    "global_keyprefix": f"{TEST_CELERY_PREFIX}:",
    # A worker test that kills a worker sets a short timeout so the next worker restores the
    # unacknowledged message within seconds instead of minutes (base.py's, read from the same
    # CELERY_VISIBILITY_TIMEOUT).
    "unacked_restore_interval": 1,
    "unacked_restore_throttle": 1,
}
# A worker test that kills a worker gives the beat it starts short sweeps (seconds, not the
# production minute): base.py's values unless the environment says otherwise.
for _name in (
    "TAVERN_BOT_STALE_SECONDS",
    "TAVERN_SWEEP_SECONDS",
    "TABLE_WAITS_STALE_SECONDS",
    "TABLE_SWEEP_SECONDS",
    "TABLE_CLOCK_SWEEP_SECONDS",
    "TAVERN_ADVICE_SEARCH_SECONDS",
):
    if os.environ.get(_name):
        vars()[_name] = float(os.environ[_name])
for _entry, _every in (
    ("tavern-requeue-lost-bot-moves", TAVERN_SWEEP_SECONDS),  # noqa: F405
    ("tables-requeue-lost-waits", TABLE_SWEEP_SECONDS),  # noqa: F405
    ("tables-clock-sweep", TABLE_CLOCK_SWEEP_SECONDS),  # noqa: F405
):
    CELERY_BEAT_SCHEDULE[_entry] = {
        **CELERY_BEAT_SCHEDULE[_entry],
        "schedule": _every,
        "options": {"expires": max(0.5, _every - 1)},
    }
# Beat's schedule and lock in Redis (celery-redbeat) under this process's prefix; a beat test
# gives each beat it starts a prefix of its own (BEAT_KEY_PREFIX), or shares one on purpose.
CELERY_REDBEAT_KEY_PREFIX = os.environ.get("BEAT_KEY_PREFIX") or f"{TEST_CELERY_PREFIX}:redbeat:"
if os.environ.get("BEAT_LOCK_TIMEOUT"):
    CELERY_REDBEAT_LOCK_TIMEOUT = int(os.environ["BEAT_LOCK_TIMEOUT"])
if os.environ.get("BEAT_MAX_LOOP_INTERVAL"):
    CELERY_BEAT_MAX_LOOP_INTERVAL = float(os.environ["BEAT_MAX_LOOP_INTERVAL"])
# A beat test runs only the entries it names, every so many seconds ("name=seconds,...").
if os.environ.get("TEST_BEAT_ENTRIES"):
    _chosen = dict(item.split("=") for item in os.environ["TEST_BEAT_ENTRIES"].split(","))
    _all = dict(CELERY_BEAT_SCHEDULE)
    CELERY_BEAT_SCHEDULE.clear()
    for _name, _seconds in _chosen.items():
        CELERY_BEAT_SCHEDULE[_name] = {
            **_all[_name],
            "schedule": float(_seconds),
            "options": {"expires": max(0.5, float(_seconds) - 0.5)},
        }
# Uploads (portraits, maps: the demo seeder draws one) go to a folder of this run, shared with
# the workers it starts, never the checkout's media/; tests that read the files set their own.
MEDIA_ROOT = os.environ.get("TEST_MEDIA_ROOT") or os.path.join(
    tempfile.gettempdir(), f"{TEST_CELERY_PREFIX}-media"
)
# A worker test that retries for real shortens the backoff so it waits a second, not ten
# (tests/notifications/test_services.py); unset, the default from base.py stands.
if os.environ.get("NOTIFICATION_RETRY_BASE_SECONDS"):
    NOTIFICATION_RETRY_BASE_SECONDS = float(os.environ["NOTIFICATION_RETRY_BASE_SECONDS"])
# Worker subprocesses write email to files the tests read (their memory outbox is out of reach).
if os.environ.get("EMAIL_FILE_PATH"):
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    EMAIL_FILE_PATH = os.environ["EMAIL_FILE_PATH"]
# Secret Duel at a game table (tests/games/duel_tables): a second game on the table core,
# only in tests.
INSTALLED_APPS = [*INSTALLED_APPS, "tests.games.duel_tables"]  # noqa: F405
# The test teardown's flush empties the tables with DELETE, not TRUNCATE (its command's
# docstring: a twentieth of the time, the same end).
INSTALLED_APPS += ["tests.db_flush"]
API_AUTH_RATE = "10000/minute"  # the throttle test sets its own
