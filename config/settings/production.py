"""Production: secrets and hosts must come from the environment; HTTPS everywhere.

``manage.py check --deploy`` passes with no warnings in this mode (tested).
"""

from django.core.exceptions import ImproperlyConfigured

from config.secret_key import secret_key_problems

from .base import *  # noqa: F403
from .base import LOG_LEVEL, MEDIA_STORAGE, env, logging_settings

DEBUG = False
LOG_FORMAT = env("LOG_FORMAT", default="json")
LOGGING = logging_settings(LOG_FORMAT, LOG_LEVEL)
SECRET_KEY = env("SECRET_KEY")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS")
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("Production needs ALLOWED_HOSTS in the environment.")
if problems := secret_key_problems(SECRET_KEY):
    raise ImproperlyConfigured(
        "SECRET_KEY is too weak for production: "
        + "; ".join(problems)
        + ". Generate one with: python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )

# Persistent database connections: a web worker keeps its PostgreSQL connection between
# requests instead of opening one per request (a new backend process and authentication, several
# ms on a busy machine, and the largest part of a move's or a poll's time). Checked before reuse,
# so a connection the database dropped is replaced, not failed on. 0 turns it off.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DB_CONN_MAX_AGE", default=600)  # noqa: F405
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True  # noqa: F405

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

STORAGES = {
    "default": MEDIA_STORAGE,
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
