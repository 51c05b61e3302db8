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
from .base import REDIS_URL

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
    "global_keyprefix": f"{TEST_CELERY_PREFIX}:",
    # A worker test that kills a worker sets a short timeout so the next worker restores the
    # unacknowledged message within seconds instead of an hour.
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "3600")),
    "unacked_restore_interval": 1,
    "unacked_restore_throttle": 1,
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
API_AUTH_RATE = "10000/minute"  # the throttle test sets its own
