"""Web and worker processes freeze their start-up objects (config/startup_gc.py): gunicorn's
``post_worker_init`` hook and Celery's ``worker_process_init`` signal both do it, in a fresh
process so that nothing else in the test run has frozen anything first."""

from __future__ import annotations

import subprocess
import sys

from tests.load.processes import ROOT


def _fresh(code: str) -> str:
    out = subprocess.run(  # noqa: S603 - this interpreter, with code of this file
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={"DJANGO_SETTINGS_MODULE": "config.settings.test", "PATH": "/usr/bin:/bin"},
    )
    return out.stdout.strip()


def test_a_gunicorn_worker_freezes_what_start_up_made():
    frozen = _fresh(
        "import gc, django; django.setup(); import config.gunicorn as g;"
        "before = gc.get_freeze_count(); g.post_worker_init(None);"
        "print(before, gc.get_freeze_count())"
    )
    before, after = map(int, frozen.split())
    assert before == 0
    assert after > 50_000  # Django and the apps: tens of thousands of objects at least


def test_a_celery_worker_process_freezes_too():
    frozen = _fresh(
        "import gc, django; django.setup(); from celery.signals import worker_process_init;"
        "import config.celery; worker_process_init.send(sender=None);"
        "print(gc.get_freeze_count())"
    )
    assert int(frozen) > 50_000
