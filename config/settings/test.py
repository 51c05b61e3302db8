"""Settings for the test suite: real PostgreSQL and Redis at their standard local addresses.

``DATABASE_URL`` and ``REDIS_URL`` override the defaults. Tests that need a real Celery worker
start one themselves; everything else runs tasks eagerly so unit tests need no worker.
"""

import os

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
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": f"test-{os.getpid()}",
    }
}
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_CLASSES": []}  # noqa: F405
# Serve static files straight from the app folders: no collectstatic before tests.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
