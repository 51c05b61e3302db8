"""Tiny timing helpers: best-of-N wall time per call, and a ratio line for the report."""

from __future__ import annotations

import time
from collections.abc import Callable


def per_call(fn: Callable[[], object], *, number: int, repeat: int = 5) -> float:
    """Best of ``repeat`` runs of ``number`` calls, in seconds per call."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best


def report(name: str, seconds: float, baseline_name: str, baseline: float) -> None:
    ratio = seconds / baseline if baseline else float("inf")
    print(
        f"{name:<48} {seconds * 1e6:10.1f} µs/call  "
        f"{ratio:8.2f}× {baseline_name} ({baseline * 1e6:.1f} µs)"
    )
