"""Run every benchmark: ``python -m tests.bench`` (``make bench``), or only some of them:
``python -m tests.bench dice battle_engine`` (names: see ``PARTS``)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable


def _parts() -> dict[str, Callable[[], object]]:
    from tests.bench import (
        bench_battle,
        bench_dice,
        bench_idle_tabs,
        bench_notifications,
        bench_push,
        bench_tavern,
        bench_web,
    )

    return {
        "dice": bench_dice.run,
        "notifications": bench_notifications.run,
        "battle": bench_battle.run,
        "battle_engine": bench_battle.run_engine,
        "web": bench_web.run,
        "web_polls": bench_web.run_polls,
        "tavern": bench_tavern.run,
        "push": bench_push.run,
        "idle_tabs": bench_idle_tabs.run,
    }


#: What ``make bench`` runs, in order (``battle_engine`` is part of ``battle``; ``web_polls``,
#: the polls of ``web`` alone, is for comparing a change to them).
PARTS = ("dice", "notifications", "battle", "web", "tavern", "push", "idle_tabs")


def main(argv: list[str]) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    import logging

    logging.disable(logging.WARNING)
    parts = _parts()
    # as every web and worker process does once started (config/startup_gc.py)
    from config.startup_gc import freeze_startup_objects

    freeze_startup_objects()
    chosen = argv or list(PARTS)
    unknown = [name for name in chosen if name not in parts]
    if unknown:
        print(f"unknown benchmark {', '.join(unknown)}; choose from {', '.join(parts)}")
        return 2
    for name in chosen:
        parts[name]()
    from tests.bench.timing import ROWS, write_json

    write_json("summary", {"parts": chosen, "machine": machine(), "rows": ROWS})
    return 0


def machine() -> dict[str, object]:
    """What the run's ratios were measured on (the page shows it beside the table)."""
    import platform

    return {
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "system": f"{platform.system()} {platform.machine()}",
    }


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
