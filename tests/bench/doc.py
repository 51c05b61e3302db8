"""Write ``docs/performance.md`` from the last ``make bench`` run's ``summary.json``:
``python -m tests.bench.doc`` (``make bench`` runs it at its end).

Why generated: a table copied by hand drifts from the code it measures; this page is always one
whole run, each row a ratio to a baseline measured in that same run, with its target."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tests.bench.timing import bench_dir

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "performance.md"

INTRO = """# Performance

`make bench` runs every benchmark and writes each part's JSON and `summary.json` to
`test-artifacts/bench/`; `python -m tests.bench.doc` turns the summary into this page (`make
bench` does both). Every figure is a ratio to a baseline measured in the same run, so a loaded
machine moves both alike; a row with a target says whether this run met it. The web rows run on
the production processes (the Procfile's web server, production settings, a throwaway PostgreSQL
database and Redis) and are p50 ratios to `GET /api/health/` on that server.

Why the hot paths are built the way they are: [`decisions/`](decisions/). What each benchmark
does: `tests/bench/`.
"""


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|")


def render(summary: dict[str, Any]) -> str:
    """The page for one run's summary."""
    machine = summary.get("machine", {})
    lines = [
        INTRO,
        f"The run below: {machine.get('cores', '?')} cores, Python {machine.get('python', '?')}, "
        f"{machine.get('system', '?')}.",
        "",
    ]
    current = None
    for row in summary["rows"]:
        if row["section"] != current:
            current = row["section"]
            lines += [
                "",
                f"## {current[:1].upper() + current[1:]}",
                "",
                "| row | value | ratio | baseline | target | met |",
                "| --- | --- | --- | --- | --- | --- |",
            ]
        ratio = "" if row["ratio"] is None else f"{row['ratio']:.2f}×"
        met = {True: "yes", False: "**no**", None: ""}[row["met"]]
        lines.append(
            f"| {_cell(row['name'])} | {_cell(row['value'])} | {ratio} | "
            f"{_cell(row['baseline'] or '')} | {_cell(row['target'] or '')} | {met} |"
        )
    return "\n".join(lines) + "\n"


def main() -> int:
    source = bench_dir() / "summary.json"
    if not source.exists():
        print(f"{source} is missing: run `make bench` first.")
        return 1
    PAGE.write_text(render(json.loads(source.read_text(encoding="utf-8"))), encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)} from {source}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
