"""Start-up objects out of the garbage collector's way, in every long-lived process.

A web or worker process holds a few hundred thousand objects it made while starting (Django,
the apps, the rulebook data, OpenSpiel's game registry) and keeps until it exits. Python's
collector walks all of them in every full collection, which the allocations of a battle's
moves or a bot's search trigger again and again: a tenth of the battle engine's time in the
benchmark process. ``gc.freeze()`` after start-up moves them to a permanent generation that is
never walked (the use Python's documentation gives for it); what requests and tasks allocate
is collected as before.
"""

from __future__ import annotations

import gc


def freeze_startup_objects() -> int:
    """Collect once, then freeze what is left; returns how many objects were frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
