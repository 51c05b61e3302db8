"""Settings shared by every mode, read from environment variables.

``DATABASE_URL`` picks the database (default: an SQLite file in the project). ``REDIS_URL``
picks the Celery broker, result backend and cache; without it Celery runs tasks eagerly in the
web process and the cache is local memory, so the app runs with nothing else installed.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import django_stubs_ext
import environ
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django_guid.integrations import CeleryIntegration, SentryIntegration
from kombu import Exchange, Queue

from config import observability, sqlite

# Django's generic classes take type arguments at run time too (ModelForm[User]), as typed.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent.parent

env = environ.Env()

SECRET_KEY = env("SECRET_KEY", default="dev-only-insecure-key-change-me-in-production")
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# Daphne's runserver (ASGI, WebSockets included) is make run's alone: config/settings/local.py
# puts it first. Its app installs Twisted's reactor on start, about 0.4 s of CPU that no other
# process (a web server, a Celery worker, a test) needs.
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
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
    "tables.clocks",
    "tables.undo",
    # Rated tables' ratings, leaderboards and history (its own migrations: table_ratings).
    "tables.ratings",
    "decks",
    "gmtools",
    # The campaign wiki (docs/wiki.md).
    "wiki",
    "battles",
    # Play-by-post: a campaign's threads, posts, inline rolls and reactions (threads/).
    "threads",
    "minigames",
    # Chat at every game table: a nested app of the table core with its own migrations.
    "tables.chat",
    "config",
    "axes",
    "health_check",
    "django_guid",
    "django_prometheus",
]

MIDDLEWARE = [
    # Outermost: a request starts in the default language and leaves none behind for the
    # thread's next one (accounts/languages.py); it reads nothing of the request.
    "accounts.languages.FreshLanguageMiddleware",
    # First: an oversized body is refused before anything reads it (config/body_limit.py).
    "config.body_limit.BodyLimitMiddleware",
    # First, so every log line of the request (and its Celery tasks) carries the request id.
    "django_guid.middleware.guid_middleware",
    # Requests, responses and their latency by view (django-prometheus), and the moves' count
    # and time by game (config/metrics.py), measured around everything below.
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "config.metrics.MoveMetricsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After the session, before CommonMiddleware (Django's documented place): a visitor's
    # language from the switcher's cookie, else her browser's Accept-Language (docs/i18n.md).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A signed-in table poll's session, user, rate and head in one Redis script, handed to
    # each part before anything reads them (tables/poll_session.py).
    "tables.poll_session.SessionPollMiddleware",
    "accounts.time_zones.TimeZoneMiddleware",
    # A signed-in user's preferred language over the visitor's (needs the user: after auth).
    "accounts.languages.PreferredLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Each rendered form's post runs once (apibase/form_once.py).
    "apibase.form_once.OnceFormMiddleware",
    # A view that truly needs Redis while it is away answers 503, not 500 (apibase/redis_down.py).
    "apibase.redis_down.RedisDownMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
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
                # LANGUAGE_CODE and LANGUAGES for <html lang> and the header's switcher
                "django.template.context_processors.i18n",
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
    # DB_TRANSACTION_POOLER: the app reaches PostgreSQL through PgBouncer in transaction mode
    # (docs/deploy.md, "Several machines"): a server connection serves other clients between two
    # transactions, so nothing may outlive one: no prepared statements (PgBouncer 1.18, Debian
    # 12's) and no server-side cursors (Django's ``.iterator()``).
    _pooler = env.bool("DB_TRANSACTION_POOLER", default=False)
    _prepare = env("DB_PREPARE_THRESHOLD", default="off" if _pooler else "5")
    DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = (
        None if _prepare.lower() == "off" else int(_prepare)
    )
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = _pooler
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# A plain move (nothing but the table row and its log row written) commits without waiting for
# PostgreSQL's WAL flush: most of a move's time otherwise. After a crash of PostgreSQL, moves
# acknowledged in its last ~0.6 s (3 × wal_writer_delay) can be lost; money, awards, accounts and
# any move that writes other rows always wait for the flush. Cache keys carry the server's start
# time, so a lost move is never served from a cache (tables/epoch.py, docs/deploy.md).
TABLE_MOVES_ASYNC_COMMIT = env.bool("TABLE_MOVES_ASYNC_COMMIT", default=True)
# The game tables' speed-ups (compiled reads, states and rows kept in the process, the unchanged
# poll from Redis, the rendered view cache) behind one switch (tables/store.py): off, every read
# asks the database and every answer is the same, only slower.
TABLE_FAST_PATHS = env.bool("TABLE_FAST_PATHS", default=True)

AUTH_USER_MODEL = "accounts.User"
# --- Brute-force protection (django-axes): the log-in page and the API's token endpoint ----
# After AXES_FAILURE_LIMIT wrong passwords for one user name from one address, that pair is
# locked out for the cool-off time (429 with Retry-After, accounts/lockout.py); a success resets
# the count. Locking by the pair, not the user name alone, stops a stranger from locking a
# player out of her own account.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # the signed-in user from the cache (accounts/backends.py); Django's own after it only for
    # sessions signed in before it was listed (a session names the backend that signed it)
    "accounts.backends.CachedModelBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
AXES_VERBOSE = False
# Log-in attempts, on the log-in page and the API's token endpoint alike, are also counted per
# client address and per user name (apibase/throttles.py; a 429 with Retry-After past either),
# and sign-ups per address.
API_AUTH_RATE = env("API_AUTH_RATE", default="30/minute")
AUTH_USER_RATE = env("AUTH_USER_RATE", default="100/hour")
SIGNUP_RATE = env("SIGNUP_RATE", default="10/hour")
# Password-reset emails asked for, per client address and per email address (accounts/views.py).
PASSWORD_RESET_RATE = env("PASSWORD_RESET_RATE", default="5/hour")
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

# --- Languages (docs/i18n.md) ------------------------------------------------------------
# English is the source language; the project's catalogs are locale/<dir>/LC_MESSAGES/
# django.po and djangojs.po (Django's code zh-hans, directory zh_Hans). Each language is named
# in itself: the switcher shows the names to readers of every language.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("ja", "日本語"),
    ("zh-hans", "简体中文"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The switcher's choice for visitors (a signed-in user's is also saved on her account).
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "/media/"
MEDIA_ROOT = env.path("MEDIA_ROOT", default=str(BASE_DIR / "media"))
#: Uploads (portraits, maps, handouts) on disk under MEDIA_ROOT, or in S3-compatible object
#: storage once a bucket is named: several web machines then share them. They are never public
#: either way: a member's request is checked and answered with the file, or with a signed URL
#: that expires after MEDIA_URL_SECONDS (apibase/media.py; docs/deploy.md, "Uploads").
MEDIA_S3_BUCKET = env("MEDIA_S3_BUCKET", default="")
MEDIA_URL_SECONDS = env.int("MEDIA_URL_SECONDS", default=60)
MEDIA_STORAGE: dict[str, Any] = (
    {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": MEDIA_S3_BUCKET,
            "endpoint_url": env("MEDIA_S3_ENDPOINT_URL", default=None),
            "region_name": env("MEDIA_S3_REGION", default=None),
            "access_key": env("MEDIA_S3_ACCESS_KEY_ID", default=None),
            "secret_key": env("MEDIA_S3_SECRET_ACCESS_KEY", default=None),
            "addressing_style": env("MEDIA_S3_ADDRESSING_STYLE", default=None),
            "signature_version": "s3v4",
            "default_acl": "private",
            "querystring_auth": True,
            "querystring_expire": MEDIA_URL_SECONDS,
            "file_overwrite": False,
        },
    }
    if MEDIA_S3_BUCKET
    else {"BACKEND": "django.core.files.storage.FileSystemStorage"}
)
STORAGES = {
    "default": MEDIA_STORAGE,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# --- Redis, cache and Celery -------------------------------------------------------------
REDIS_URL = env("REDIS_URL", default="")
# A Redis that does not answer (stopped, frozen, cut off) costs a request at most this long per
# connection (redis-py waits 5 s by default; Redis answers in well under a millisecond), and a
# process that met one leaves it alone for REDIS_RETRY_SECONDS, failing at once meanwhile (and
# a 503 that needs Redis says Retry-After: that long). apibase/redis_down.py, docs/deploy.md.
REDIS_SOCKET_TIMEOUT = env.float("REDIS_SOCKET_TIMEOUT", default=0.5)
REDIS_RETRY_SECONDS = env.float("REDIS_RETRY_SECONDS", default=5.0)
#: Celery's broker (the queues, task results, beat's schedule and lock) on a Redis of its own
#: where a deployment splits them: the broker must keep every message (persisted, never
#: evicted), while the cache, the sessions' copies and the channel layer on ``REDIS_URL`` may
#: lose any key (the cache evicts the least used under a memory limit). Unset: ``REDIS_URL``
#: serves both (docker-compose.yml, docs/deploy.md, "Several machines").
BROKER_REDIS_URL = env("BROKER_REDIS_URL", default="") or REDIS_URL

# --- Pushed updates (Django Channels: apibase/push.py, docs/push.md) ----------------------
ASGI_APPLICATION = "config.asgi.application"
# Pages open WebSockets (they poll while none is open). Off only where the server cannot take
# them: the test suite's live server is Django's WSGI one (its push tests run uvicorn).
PUSH_SOCKETS = env.bool("PUSH_SOCKETS", default=True)
#: The channel layer's Redis connection. A socket's consumer waits on Redis with a blocking
#: pop of 5 s (channels-redis) and redis-py's own read timeout is 5 s too: its reads must wait
#: longer, or an idle socket's consumer fails with "Timeout reading from" and its page
#: reconnects every few seconds (tests/push/test_sockets.py keeps one open past it).
#: Its pool may open as many connections as a web worker keeps sockets (``WEB_CONNECTIONS``):
#: redis-py's asyncio pool stops at 100 and then fails at once, so a burst of pages opening
#: their sockets together (every page of a restarted web process reconnecting) got 500s on
#: the handshake ("Too many connections") where each needs one connection for a moment.
CHANNEL_REDIS_HOST = {
    "address": REDIS_URL,
    "socket_timeout": 15,
    "socket_connect_timeout": 2,
    "max_connections": env.int("WEB_CONNECTIONS", default=1000),
}
if REDIS_URL:
    # Every web process shares one layer, so a move made through one reaches sockets on all.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.channel_layer.RedisChannelLayer",
            "CONFIG": {
                "hosts": [CHANNEL_REDIS_HOST],
                "prefix": env("CHANNEL_PREFIX", default="asgi"),
                "capacity": 200,
                "expiry": 30,
            },
        }
    }
else:
    # make run: one process, no extra service.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "config.redis_cache.RedisCache",
            "LOCATION": REDIS_URL,
            # two deployments (or a deployment and a benchmark) sharing one Redis database
            "KEY_PREFIX": env("CACHE_KEY_PREFIX", default=""),
        }
    }
    CELERY_BROKER_URL = BROKER_REDIS_URL
    CELERY_RESULT_BACKEND = BROKER_REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
    # Beat keeps its schedule in Redis under a lock (celery-redbeat): however many beats start,
    # one holds the lock and sends; the others wait to take over. A beat killed whole holds
    # it until BEAT_LOCK_TIMEOUT runs out; a restarted beat finds when each entry last ran,
    # so nothing due is sent twice or skipped (docs/operations.md, "Beat").
    CELERY_BEAT_SCHEDULER = "redbeat.RedBeatScheduler"
    CELERY_REDBEAT_REDIS_URL = BROKER_REDIS_URL
    CELERY_REDBEAT_KEY_PREFIX = env("BEAT_KEY_PREFIX", default="redbeat:")
    CELERY_REDBEAT_LOCK_TIMEOUT = env.int("BEAT_LOCK_TIMEOUT", default=30)
    CELERY_REDBEAT_REDIS_OPTIONS = {"socket_timeout": 2.0, "socket_connect_timeout": 1.0}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True

# Sessions: read from the cache (Redis, or local memory under ``make run``), written to both,
# the database behind it; a signed-in request asks the database nothing to learn who is asking.
# Redis away: reads and sign-ins fall back to the database, signing out answers 503
# (accounts/sessions.py, docs/decisions/sessions-in-cache.md).
SESSION_ENGINE = "accounts.sessions"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_TIME_LIMIT = 60
CELERY_TASK_SOFT_TIME_LIMIT = 45
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Beat wakes at least this often (seconds): it renews its lock, and a waiting beat asks for it.
CELERY_BEAT_MAX_LOOP_INTERVAL: float = 5.0
CELERY_BEAT_SCHEDULE: dict[str, dict[str, object]] = {}

# --- Celery queues: work split by kind (docs/deploy.md, "Workers and queues") ------------------
# Each kind of work has its own queue, so a slow kind never holds up a quick one: a worker
# started for a queue (``-Q turns``) takes nothing else. A worker started with no ``-Q`` takes
# them all, in this order (a small site's one worker): the Redis transport's "priority" order
# asks the queues in the order listed, so a waiting move or "your turn" goes before a digest,
# and a digest before an export.
#   turns   moves made for players (reaction timeouts), "your turn", urgent notices, the sweeps
#           that enqueue a lost move or "your turn" again: seconds matter
#   notify  notifications and digests, reminders, the delivery sweeper: a minute is fine
#   bots    bot moves and the practice advisor's search: CPU-heavy, kept apart so a crowd of
#           searching bots never delays a player's notice (and bots never wait behind digests)
#   bulk    retention, backups and exports: long, never urgent
CELERY_QUEUE_NAMES: tuple[str, ...] = ("turns", "notify", "bots", "bulk")
CELERY_TASK_QUEUES = tuple(
    Queue(name, Exchange(name, type="direct"), routing_key=name) for name in CELERY_QUEUE_NAMES
)
# A task no route names (the readiness ping, a new task before its route is added) goes here;
# tests/test_settings.py holds every task of the project to a route.
CELERY_TASK_DEFAULT_QUEUE = "notify"
CELERY_TASK_DEFAULT_EXCHANGE = "notify"
CELERY_TASK_DEFAULT_ROUTING_KEY = "notify"
#: The tasks of each queue (CELERY_TASK_ROUTES is made from it).
CELERY_QUEUE_TASKS: dict[str, tuple[str, ...]] = {
    "turns": (
        "tables.turn_notify",
        "battles.turn_notify",
        "tables.requeue_lost_waits",
        "tables.clock_due",
        "tables.clock_sweep",
        "minigames.reaction_timeouts",
        "minigames.requeue_lost_bot_moves",
    ),
    "notify": (
        "notifications.deliver",
        "notifications.deliver_in_app",
        "notifications.deliver_digest",
        "notifications.send_turn_reminders",
        "notifications.send_scheduled_notifications",
        "gmtools.send_rsvp_reminders",
        "notifications.send_digests",
        "notifications.requeue_stale_deliveries",
        "notifications.ping",
        "threads.send_daily_digests",
    ),
    "bots": ("minigames.bot_move", "minigames.advise"),
    "bulk": (
        "config.clear_expired_sessions",
        "config.prune_notifications",
        "config.prune_table_talk",
        "config.prune_finished_tables",
    ),
}
CELERY_TASK_ROUTES = {
    task: {"queue": queue} for queue, tasks in CELERY_QUEUE_TASKS.items() for task in tasks
}
# An urgent notification (your turn, a turn reminder, a session about to start) is delivered
# from this queue, not behind the digests in "notify" (notifications/tasks.py).
NOTIFICATION_URGENT_QUEUE = "turns"
# A message is acknowledged only once its task is done (acks_late, on every task that may run
# twice): a worker killed whole leaves it in Redis's unacknowledged set, and Redis hands it out
# again once it has been unacknowledged this long. It must outlast the longest a message is
# held legitimately: a delayed retry waits in its worker until its countdown (at most
# NOTIFICATION_RETRY_MAX_SECONDS, 600 s) and then runs (at most 150 s, the longest hard time
# limit); a shorter timeout would hand a waiting retry to a second worker, and again every
# timeout until it ran (tests/test_settings.py holds it to that). Lost work does not wait for
# it: the sweeps below enqueue a lost bot move or "your turn" within a minute, and the
# notifications' sweeper a lost delivery.
CELERY_VISIBILITY_TIMEOUT = env.int("CELERY_VISIBILITY_TIMEOUT", default=900)
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
    "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
    # A broker that does not answer: a publish gives up within seconds, not never (a worker's
    # blocking read waits 1 s at a time, under this).
    "socket_timeout": 2.0,
    "socket_connect_timeout": 1.0,
    # A worker that takes several queues asks them in the order given (CELERY_TASK_QUEUES).
    "queue_order_strategy": "priority",
}
# A publish that fails is tried once more, at once; then the caller logs it (a committed move is
# never a 500 for it) and the sweeps enqueue what was lost. While the broker counts as down
# (apibase/redis_down.py) a publish fails at once (config/celery.py).
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_BROKER_CONNECTION_TIMEOUT = 1.0
# The sweeps for lost tasks (beat, below): a table that has waited on a bot seat longer than
# TAVERN_BOT_STALE_SECONDS (above a bot move's 30 s hard limit, so a move still being computed
# is not doubled) gets its move enqueued again; a table in play whose "your turn" was not
# told for TABLE_WAITS_STALE_SECONDS (above the notify task's 40 s hard limit) gets it again.
# With the sweeps every 10 s, a lost move or notice is enqueued within a minute of a worker
# being there to run it (tests/minigames/test_worker_crash.py).
TAVERN_BOT_STALE_SECONDS = 40.0
TAVERN_SWEEP_SECONDS = 10.0
TABLE_WAITS_STALE_SECONDS = 45.0
TABLE_SWEEP_SECONDS = 10.0
# Turn clocks (tables/clocks): a deadline's own task is queued when it is near; the sweep ticks
# every clock whose moment has passed (a task lost with its worker, a deadline days off).
TABLE_CLOCK_SWEEP_SECONDS = 10.0
# The tavern's advisor: a request for an estimate stands this long before the page's next
# request asks again (a search lost with its worker); the search's own budget.
TAVERN_ADVICE_PENDING_SECONDS = 30
TAVERN_ADVICE_SEARCH_SECONDS = 1.0

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
# Web Push (notifications/webpush.py): the VAPID private key `manage.py vapid_keys` makes, and
# whom push services may write to about the site (a mailto: or https: URL; DEFAULT_FROM_EMAIL
# when empty). No key: the push channel is unavailable and the settings page says so.
VAPID_PRIVATE_KEY = env("VAPID_PRIVATE_KEY", default="")
VAPID_SUBJECT = env("VAPID_SUBJECT", default="")
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
        # The tavern: a bot move lost with its worker is enqueued again.
        "tavern-requeue-lost-bot-moves": {
            "task": "minigames.requeue_lost_bot_moves",
            "schedule": TAVERN_SWEEP_SECONDS,
            "options": {"expires": TAVERN_SWEEP_SECONDS - 1},
        },
        # Every game table: clocks whose reminder or deadline has passed run out (tables/clocks).
        "tables-clock-sweep": {
            "task": "tables.clock_sweep",
            "schedule": TABLE_CLOCK_SWEEP_SECONDS,
            "options": {"expires": TABLE_CLOCK_SWEEP_SECONDS - 1},
        },
        # Every game table: a "your turn" lost with its worker is enqueued again.
        "tables-requeue-lost-waits": {
            "task": "tables.requeue_lost_waits",
            "schedule": TABLE_SWEEP_SECONDS,
            "options": {"expires": TABLE_SWEEP_SECONDS - 1},
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
        "gmtools-rsvp-reminders": {
            "task": "gmtools.send_rsvp_reminders",
            "schedule": 300.0,
            "options": {"expires": 295},
        },
        "notifications-digests": {
            "task": "notifications.send_digests",
            "schedule": 60.0,
            "options": {"expires": 55},
        },
        # Play-by-post: yesterday's posts, told once to each member (threads/digest.py).
        "threads-daily-digests": {
            "task": "threads.send_daily_digests",
            "schedule": 3600.0,
            "options": {"expires": 1800},
        },
        "notifications-requeue-stale": {
            "task": "notifications.requeue_stale_deliveries",
            "schedule": NOTIFICATION_SWEEP_SECONDS,
            "options": {"expires": NOTIFICATION_SWEEP_SECONDS - 1},
        },
    }
)

# --- Retention: data that stays bounded (config/retention.py, docs/operations.md) ---------------
# Hourly tasks on the "bulk" queue remove what is past these; each run deletes batches of
# RETENTION_BATCH rows for at most RETENTION_RUN_SECONDS and the next goes on from there.
NOTIFICATION_RETENTION_DAYS = env.int("NOTIFICATION_RETENTION_DAYS", default=90)
DELIVERY_RETENTION_DAYS = env.int("DELIVERY_RETENTION_DAYS", default=30)
TABLE_CHAT_RETENTION_DAYS = env.int("TABLE_CHAT_RETENTION_DAYS", default=180)
LOGIN_LOG_RETENTION_DAYS = env.int("LOGIN_LOG_RETENTION_DAYS", default=90)
# Finished tables are kept whole (their log replays them); a number of days deletes the ones
# ended and untouched that long, whole. 0: never.
FINISHED_TABLE_RETENTION_DAYS = env.int("FINISHED_TABLE_RETENTION_DAYS", default=0)
RETENTION_BATCH = 2000
RETENTION_RUN_SECONDS = 60.0
RETENTION_EVERY_SECONDS = 3600.0
CELERY_BEAT_SCHEDULE.update(
    {
        f"retention-{name}": {
            "task": f"config.{task}",
            "schedule": RETENTION_EVERY_SECONDS,
            "options": {"expires": RETENTION_EVERY_SECONDS / 2},
        }
        for name, task in (
            ("sessions", "clear_expired_sessions"),
            ("notifications", "prune_notifications"),
            ("table-talk", "prune_table_talk"),
            ("finished-tables", "prune_finished_tables"),
        )
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
        "AttendanceStatusEnum": "gmtools.models.AttendanceStatus",
        "TavernGameEnum": "minigames.api.TAVERN_GAME_CHOICES",
        "CardGameEnum": "decks.games.GAME_CHOICES",
        "ClockModeEnum": "tables.clocks.controls.MODE_CHOICES",
        "ClockRuleEnum": "tables.clocks.controls.RULE_CHOICES",
        "WikiVisibilityEnum": "wiki.models.Visibility",
    }
)

# --- Metrics: /metrics for Prometheus (config/metrics.py, docs/operations.md) ----------------
# The scraper sends "Authorization: Bearer <METRICS_TOKEN>"; unset, /metrics answers 404. A
# token, not a staff session: a scraper has no browser to sign in with, and a token is given to
# it alone and changed without touching anyone's account.
METRICS_TOKEN = env("METRICS_TOKEN", default="")

# --- Error reporting: Sentry, or anything that takes its protocol (GlitchTip, a relay) --------
# One setting switches it on: with SENTRY_DSN set, every web, worker and beat process reports
# unhandled errors, failed tasks and error log lines there (config/observability.py); unset,
# nothing is sent anywhere. Personal data (addresses, cookies, user names) is never sent.
SENTRY_DSN = env("SENTRY_DSN", default="")
SENTRY_ENVIRONMENT = env("SENTRY_ENVIRONMENT", default="production")
SENTRY_TRACES_SAMPLE_RATE = env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0)
observability.sentry_init(
    SENTRY_DSN, environment=SENTRY_ENVIRONMENT, traces_sample_rate=SENTRY_TRACES_SAMPLE_RATE
)

# --- Logs: one line per record on stderr; JSON in production (LOG_FORMAT=json) ---------------
# Every record carries the request id (django-guid: taken from an incoming X-Request-ID header
# when it is a valid UUID, else made up; returned in the response's X-Request-ID and passed on
# to the Celery tasks the request enqueues), so one click can be followed through web and worker.
# The id crosses into Celery in a header of each task message (django-guid's Celery
# integration): a task logs the id of the request, or of the task, that enqueued it, and passes
# it on to the tasks it enqueues; a task beat started gets an id of its own. Workers and beat
# log through LOGGING below too (config/celery.py), so their lines carry the id as the web's do.
DJANGO_GUID = {
    "GUID_HEADER_NAME": "X-Request-ID",
    "VALIDATE_GUID": True,
    "RETURN_HEADER": True,
    "EXPOSE_HEADER": True,
    "INTEGRATIONS": [
        CeleryIntegration(
            use_django_logging=False, log_parent=False, sentry_integration=bool(SENTRY_DSN)
        ),
        # the id of a request as a tag of the errors it reports
        *([SentryIntegration()] if SENTRY_DSN else []),
    ],
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
                "rename_fields": {
                    "correlation_id": "request_id",
                    "levelname": "level",
                    "asctime": "timestamp",
                },
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
# The largest JSON body the API reads (apibase/parsers.py): a character, a deck, a battle's
# setup are a few kB; files come as multipart uploads, under the limits above and below.
MAX_JSON_BODY_BYTES = env.int("MAX_JSON_BODY_BYTES", default=1024 * 1024)
# The largest body of any request (a portrait, a handout, a campaign archive), checked from the
# Content-Length header before the body is read.
MAX_REQUEST_BODY_BYTES = env.int("MAX_REQUEST_BODY_BYTES", default=20 * 1024 * 1024)
# The production web process (config/asgi.py): the seconds a request's whole body may take to
# arrive (a 408 after), and how many requests one worker process hands Django at once.
REQUEST_BODY_TIMEOUT = env.int("REQUEST_BODY_TIMEOUT", default=15)
WEB_THREADS = env.int("WEB_THREADS", default=4)
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
