"""The Celery application. Tasks are discovered in every installed app's ``tasks.py``.

With ``REDIS_URL`` unset (the embedded default) settings make Celery run tasks eagerly in the
web process, so ``make run`` needs no broker.
"""

import os
from typing import Any

from celery import Celery, Task
from celery.signals import setup_logging, task_success, worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")


class GuardedTask(Task[..., Any]):
    """Every task's publishing: while the broker's Redis counts as down in this process
    (``apibase.redis_down``: the cache or an earlier publish met it stopped or frozen), a
    publish fails at once instead of waiting for the broker's timeouts again; a publish that
    fails marks it down. Callers log the failure (a committed move is never a 500 for it) and
    the sweeps enqueue what was lost once the broker answers."""

    def apply_async(self, *args: Any, **kwargs: Any) -> Any:
        if self.app.conf.task_always_eager:
            return super().apply_async(*args, **kwargs)
        from kombu.exceptions import OperationalError
        from redis.exceptions import RedisError

        from apibase.redis_down import address_of, check, mark_down

        url = str(self.app.conf.broker_write_url or self.app.conf.broker_url)
        redis = url.startswith(("redis://", "rediss://"))
        if redis:
            check(*address_of(url))
        try:
            return super().apply_async(*args, **kwargs)
        except (OperationalError, RedisError, OSError):
            if redis:
                mark_down(*address_of(url))
            raise


app = Celery("westernroses", task_cls=GuardedTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

#: celery-redbeat's settings, as Django names them (``CELERY_`` and the name in capitals).
_REDBEAT = (
    "redbeat_redis_url",
    "redbeat_key_prefix",
    "redbeat_lock_timeout",
    "redbeat_redis_options",
)


@app.on_after_configure.connect
def _redbeat_names(sender: Celery, **kwargs: object) -> None:
    """celery-redbeat looks its settings up by their own names, which the ``CELERY_`` namespace
    hides from it (it would fall back to the broker's URL and drop its client options): hand
    them over under those names."""
    from django.conf import settings

    sender.conf.update(
        {
            name: getattr(settings, f"CELERY_{name.upper()}")
            for name in _REDBEAT
            if hasattr(settings, f"CELERY_{name.upper()}")
        }
    )


@worker_process_init.connect
def _freeze_startup_objects(**kwargs: object) -> None:
    """Each worker process, once started: start-up objects out of the collector's way
    (:mod:`config.startup_gc`; a bot's search allocates a great deal)."""
    from config.startup_gc import freeze_startup_objects

    freeze_startup_objects()


@setup_logging.connect
def _django_logging(**kwargs: object) -> None:
    """Workers and beat log as the web does (Django's ``LOGGING``: JSON in production, each
    line with the request id its task carries), not in Celery's own format."""
    from logging.config import dictConfig

    from django.conf import settings

    dictConfig(settings.LOGGING)


@task_success.connect
def _count_moves(
    sender: Task[..., Any] | None = None, result: object = None, **kwargs: object
) -> None:
    """A bot's move played in this worker counts in ``westernroses_moves_total``
    (:mod:`config.metrics`)."""
    from config.metrics import bot_move_done

    bot_move_done(sender=sender, result=result)
