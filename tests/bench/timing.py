"""Tiny timing helpers: best-of-N wall time per call, a ratio line for the report (with the
row's target and whether this run met it), and the JSON file a later run can be compared
with.

Every printed row is also recorded (:data:`ROWS`, in :func:`section` order), so one run leaves
``summary.json`` beside the benchmarks' own files and ``docs/performance.md`` is written from it
(``python -m tests.bench.doc``): the page always shows a whole run, never rows copied by hand."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def per_call(
    fn: Callable[[], object],
    *,
    number: int,
    repeat: int = 5,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """Best of ``repeat`` runs of ``number`` calls, in seconds per call (wall time, or
    ``clock``: ``time.process_time`` for CPU time on a shared machine)."""
    best = float("inf")
    for _ in range(repeat):
        start = clock()
        for _ in range(number):
            fn()
        best = min(best, (clock() - start) / number)
    return best


#: The rows printed in this process: section, name, value, ratio and target (``summary.json``).
ROWS: list[dict[str, Any]] = []
_SECTION = [""]


def section(title: str) -> None:
    """Print a benchmark's heading; the rows recorded after it belong to it."""
    _SECTION[0] = title
    print(f"== {title}")


def record(
    name: str,
    *,
    value: str,
    ratio: float | None = None,
    baseline: str | None = None,
    target: str | None = None,
    met: bool | None = None,
) -> None:
    """Keep one row for ``summary.json`` (``value`` in words with its unit: "3.2 ms")."""
    ROWS.append(
        {
            "section": _SECTION[0],
            "name": name,
            "value": value,
            "ratio": ratio,
            "baseline": baseline,
            "target": target,
            "met": met,
        }
    )


def amount(seconds: float) -> str:
    """A time per call in the unit that reads best (ns, µs, ms or s)."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def report(
    name: str,
    seconds: float,
    baseline_name: str,
    baseline: float,
    *,
    target: str | None = None,
    met: bool | None = None,
) -> None:
    """One line: the time per call, its ratio to the in-run baseline and, for a row with a
    target, the target and PASS or FAIL."""
    ratio = seconds / baseline if baseline else float("inf")
    verdict = ""
    if target is not None:
        verdict = f"  target {target}: {'PASS' if met else 'FAIL'}"
    print(
        f"{name:<48} {seconds * 1e6:10.1f} µs/call  "
        f"{ratio:8.2f}× {baseline_name} ({baseline * 1e6:.1f} µs){verdict}"
    )
    record(
        name,
        value=amount(seconds),
        ratio=ratio,
        baseline=f"{baseline_name} ({amount(baseline)})",
        target=target,
        met=met,
    )


def bench_dir() -> Path:
    """Where the JSON reports go: ``$WR_BENCH_DIR`` or ``test-artifacts/bench/``."""
    return Path(os.environ.get("WR_BENCH_DIR", "test-artifacts/bench"))


def write_json(name: str, results: dict[str, Any]) -> Path:
    """Write ``results`` to ``<bench_dir>/<name>.json`` (sorted keys, so runs diff cleanly)."""
    out = bench_dir() / f"{name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{'(written to ' + str(out) + ')':<48}")
    return out
