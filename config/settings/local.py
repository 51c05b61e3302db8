"""The embedded default for ``make run``: DEBUG on, SQLite and eager Celery unless set."""

from .base import *  # noqa: F403
from .base import env

DEBUG = env.bool("DEBUG", default=True)

# First: its runserver serves the ASGI application, WebSockets included (make run, run-full).
INSTALLED_APPS = ["daphne", *INSTALLED_APPS]  # noqa: F405
