"""Run every benchmark: ``python -m tests.bench`` (``make bench``)."""

from __future__ import annotations

import os
import sys

import django


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    django.setup()
    import logging

    logging.disable(logging.WARNING)
    from tests.bench import (
        bench_battle,
        bench_dice,
        bench_notifications,
        bench_tavern,
        bench_web,
    )

    for module in (bench_dice, bench_notifications, bench_battle, bench_web, bench_tavern):
        module.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
