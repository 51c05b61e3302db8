"""The Celery application. Tasks are discovered in every installed app's ``tasks.py``.

With ``REDIS_URL`` unset (the embedded default) settings make Celery run tasks eagerly in the
web process, so ``make run`` needs no broker.
"""

import os

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("westernroses")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _freeze_startup_objects(**kwargs: object) -> None:
    """Each worker process, once started: start-up objects out of the collector's way
    (:mod:`config.startup_gc`; a bot's search allocates a great deal)."""
    from config.startup_gc import freeze_startup_objects

    freeze_startup_objects()
