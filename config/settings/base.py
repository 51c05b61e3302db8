"""Settings shared by every mode, read from environment variables.

``DATABASE_URL`` picks the database (default: an SQLite file in the project). ``REDIS_URL``
picks the Celery broker, result backend and cache; without it Celery runs tasks eagerly in the
web process and the cache is local memory, so the app runs with nothing else installed.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import environ
from csp.constants import NONE, SELF, UNSAFE_INLINE

from config import sqlite

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()

SECRET_KEY = env("SECRET_KEY", default="dev-only-insecure-key-change-me-in-production")
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "accounts",
    "campaign",
    "notifications",
    "characters",
    "spellcards",
    "tables",
    "decks",
    "battles",
    "minigames",
    "config",
    "axes",
    "health_check",
    "django_guid",
]

MIDDLEWARE = [
    # First: an oversized body is refused before anything reads it (config/body_limit.py).
    "config.body_limit.BodyLimitMiddleware",
    # First, so every log line of the request (and its Celery tasks) carries the request id.
    "django_guid.middleware.guid_middleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.time_zones.TimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Each rendered form's post runs once (apibase/form_once.py).
    "apibase.form_once.OnceFormMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into accounts.lockout's answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "notifications.context.notifications",
            ],
            # {% csrf_token %} also writes the form's one-time token (apibase/form_once.py).
            "builtins": ["apibase.form_once"],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# SQLite waits for a write lock instead of failing at once (config/sqlite.py).
sqlite.configure(DATABASES["default"])
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's, with a health check that needs no round trip (config/postgresql/base.py).
    DATABASES["default"]["ENGINE"] = "config.postgresql"
    # Statements a connection runs again and again (a move's read and write, the poll's
    # version query) are prepared on the server after a few runs, so PostgreSQL stops parsing
    # and planning them every time. Django turns this off by default for transaction-mode
    # poolers (PgBouncer before 1.21); behind one, set DB_PREPARE_THRESHOLD to "off".
    _prepare = env("DB_PREPARE_THRESHOLD", default="5")
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = (
        None if _prepare.lower() == "off" else int(_prepare)
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# A plain move (nothing but the table row and its log row written) commits without waiting for
# PostgreSQL's WAL flush: most of a move's time otherwise. After a crash of PostgreSQL, moves
# acknowledged in its last ~0.6 s (3 × wal_writer_delay) can be lost; money, awards, accounts and
# any move that writes other rows always wait for the flush. Cache keys carry the server's start
# time, so a lost move is never served from a cache (tables/epoch.py, docs/deploy.md).
TABLE_MOVES_ASYNC_COMMIT = env.bool("TABLE_MOVES_ASYNC_COMMIT", default=True)

AUTH_USER_MODEL = "accounts.User"
# --- Brute-force protection (django-axes): the log-in page and the API's token endpoint ----
# After AXES_FAILURE_LIMIT wrong passwords for one user name from one address, that pair is
# locked out for the cool-off time (429 with Retry-After, accounts/lockout.py); a success resets
# the count. Locking by the pair, not the user name alone, stops a stranger from locking a
# player out of her own account.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
AXES_VERBOSE = False
# The API's token endpoint is also throttled per client address (config/throttles.py).
API_AUTH_RATE = env("API_AUTH_RATE", default="30/minute")
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # no longer than the token endpoint takes (accounts/passwords.py)
    {"NAME": "accounts.passwords.MaximumLengthValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "/media/"
MEDIA_ROOT = env.path("MEDIA_ROOT", default=str(BASE_DIR / "media"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# --- Redis, cache and Celery -------------------------------------------------------------
REDIS_URL = env("REDIS_URL", default="")

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "config.redis_cache.RedisCache",
            "LOCATION": REDIS_URL,
            # two deployments (or a deployment and a benchmark) sharing one Redis database
            "KEY_PREFIX": env("CACHE_KEY_PREFIX", default=""),
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_TIME_LIMIT = 60
CELERY_TASK_SOFT_TIME_LIMIT = 45
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {}

# --- Email -------------------------------------------------------------------------------
vars().update(env.email_url("EMAIL_URL", default="consolemail://"))
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="Western Roses <noreply@localhost>")
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=10)

# --- Notifications (campaign/notifications, docs/notifications.md) -----------------------
# Links in emails and webhooks need the site's public address.
SITE_URL = env("SITE_URL", default="http://127.0.0.1:8000")
# Webhooks may only reach public addresses; only the test settings let loopback through.
WEBHOOK_ALLOW_LOOPBACK = False
WEBHOOK_TIMEOUT_SECONDS = env.float("WEBHOOK_TIMEOUT_SECONDS", default=5.0)
# Bounded retries with exponential backoff and jitter. The longest wait stays well under the
# Redis visibility timeout (1 hour), so a delayed retry is not redelivered early.
NOTIFICATION_MAX_ATTEMPTS = 5
NOTIFICATION_RETRY_BASE_SECONDS = 10.0
NOTIFICATION_RETRY_MAX_SECONDS = 600.0
# Pending deliveries untouched this long, with no retry still to come, lost their message (a
# worker killed whole with the task in flight, a broker outage at commit): the sweeper, every
# NOTIFICATION_SWEEP_SECONDS, enqueues them again. Longer than a delivery task may run (its hard
# limit is 40 s), so a task still running is not doubled; with the sweep interval a lost
# delivery goes out within a minute (tests/notifications/test_worker_crash.py). Digests run up
# to 75 s and are not urgent.
NOTIFICATION_STALE_SECONDS = 45
NOTIFICATION_DIGEST_STALE_SECONDS = 90
NOTIFICATION_SWEEP_SECONDS = 10.0
CELERY_BEAT_SCHEDULE.update(
    {
        # The tavern: a human seat that has not answered a reaction in time declines it.
        "tavern-reaction-timeouts": {
            "task": "minigames.reaction_timeouts",
            "schedule": 15.0,
            "options": {"expires": 14},
        },
        "notifications-turn-reminders": {
            "task": "notifications.send_turn_reminders",
            "schedule": 60.0,
            "options": {"expires": 55},
        },
        "notifications-scheduled": {
            "task": "notifications.send_scheduled_notifications",
            "schedule": 60.0,
            "options": {"expires": 55},
        },
        "notifications-digests": {
            "task": "notifications.send_digests",
            "schedule": 60.0,
            "options": {"expires": 55},
        },
        "notifications-requeue-stale": {
            "task": "notifications.requeue_stale_deliveries",
            "schedule": NOTIFICATION_SWEEP_SECONDS,
            "options": {"expires": NOTIFICATION_SWEEP_SECONDS - 1},
        },
    }
)

# --- REST API ----------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first, so an unauthenticated request gets 401 with WWW-Authenticate.
        "accounts.token_cache.CachedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "config.pagination.BoundedLimitOffsetPagination",
    "DEFAULT_RENDERER_CLASSES": [
        "apibase.renderers.FastJSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_PARSER_CLASSES": [
        "apibase.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "config.api_errors.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["apibase.throttles.UserRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "user": env("API_USER_RATE", default="6000/hour"),
        # the reads pages repeat to stay live (apibase.throttles.POLL_SCOPE): an open battle
        # page asks 9,600 times an hour; this leaves room for three such pages at once
        "poll": env("API_POLL_RATE", default="30000/hour"),
    },
}
SPECTACULAR_SETTINGS: dict[str, Any] = {
    "TITLE": "Western Roses API",
    "DESCRIPTION": (
        "Campaigns, dice, characters, spellcards and tavern games for the Western Roses RPG. "
        "Authenticate with a session cookie or `Authorization: Token <key>` "
        "(get a key from POST /api/auth/token/)."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.openapi.add_error_responses",
    ],
}
# One schema name per choice set shared by several serializers.
SPECTACULAR_SETTINGS.setdefault("ENUM_NAME_OVERRIDES", {}).update(
    {
        "NotificationEventEnum": "notifications.models.EventType",
        "NotificationChannelEnum": "notifications.models.NotificationChannel",
        "DigestMinutesEnum": "notifications.models.DIGEST_MINUTES_CHOICES",
        "BattleStatusEnum": "battles.models.BattleStatus",
        "AttendanceStatusEnum": "campaign.models.AttendanceStatus",
        "TavernGameEnum": "minigames.api.TAVERN_GAME_CHOICES",
        "CardGameEnum": "decks.games.GAME_CHOICES",
    }
)

# --- Logs: one line per record on stderr; JSON in production (LOG_FORMAT=json) ---------------
# Every record carries the request id (django-guid: taken from an incoming X-Request-ID header
# when it is a valid UUID, else made up; returned in the response's X-Request-ID and passed on
# to the Celery tasks the request enqueues), so one click can be followed through web and worker.
DJANGO_GUID = {
    "GUID_HEADER_NAME": "X-Request-ID",
    "VALIDATE_GUID": True,
    "RETURN_HEADER": True,
    "EXPOSE_HEADER": True,
}
LOG_FORMAT = env("LOG_FORMAT", default="text")
LOG_LEVEL = env("LOG_LEVEL", default="INFO")


def logging_settings(log_format: str, level: str) -> dict[str, Any]:
    """Django's LOGGING for ``log_format`` ("text" or "json"), so production can switch."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": "django_guid.log_filters.CorrelationId"}},
        "formatters": {
            "text": {
                "format": "%(asctime)s %(levelname)s %(name)s [%(correlation_id)s] %(message)s"
            },
            "json": {
                "()": "pythonjsonlogger.json.JsonFormatter",
                "format": "%(asctime)s %(levelname)s %(name)s %(correlation_id)s %(message)s",
                "rename_fields": {"correlation_id": "request_id", "levelname": "level"},
            },
        },
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "filters": ["request_id"],
                "formatter": "json" if log_format == "json" else "text",
            }
        },
        "root": {"handlers": ["console"], "level": level},
        # Routine chatter (a request id made up, a log-in counted) only when something is wrong.
        "loggers": {
            "django_guid": {"level": "WARNING"},
            "axes": {"level": "WARNING"},
        },
    }


LOGGING = logging_settings(LOG_FORMAT, LOG_LEVEL)

# --- Content-Security-Policy (django-csp), in every mode so the browser tests see violations --
# Scripts only from our own static files (no inline script anywhere, the API docs included:
# config/urls.py serves Swagger UI's start-up script as a file). Inline style attributes stay
# allowed: server-rendered charts and SVG icons size themselves with them, and a style cannot
# run code.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, UNSAFE_INLINE],
        "img-src": [SELF, "data:", "blob:"],
        "media-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# --- Uploads -----------------------------------------------------------------------------
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
# The largest body of any request (a portrait, a handout, a campaign archive), checked from the
# Content-Length header before the body is read.
MAX_REQUEST_BODY_BYTES = env.int("MAX_REQUEST_BODY_BYTES", default=20 * 1024 * 1024)
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
