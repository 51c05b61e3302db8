"""The Celery application. Tasks are discovered in every installed app's ``tasks.py``.

With ``REDIS_URL`` unset (the embedded default) settings make Celery run tasks eagerly in the
web process, so ``make run`` needs no broker.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("westernroses")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
