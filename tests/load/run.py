"""`make loadtest`: the app under production settings with gunicorn, PostgreSQL, Redis and a
Celery worker on this machine, driven by locust (headless) with 200 simulated users on loopback.

Steps: a throwaway PostgreSQL database is created and migrated; tests/load/seed.py fills it;
the Procfile's web (gunicorn) and worker processes start on it; locust runs
tests/load/locustfile.py for a fixed time; the report gives requests per second, p50/p99
latency and the error count; tests/load/verify.py then checks that no battle move was lost or
applied twice and every turn notification was delivered exactly once. Exit status 0 only when
there were no errors and both checks pass. Everything is stopped and the database dropped at
the end, whatever happened.

Options (environment): LOADTEST_USERS (200), LOADTEST_SECONDS (60), DATABASE_URL (the server;
the database name is replaced), LOADTEST_REDIS_URL (redis://127.0.0.1:6379/3, flushed first:
keep it for the load test).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from tests.load.processes import free_port, procfile, production_env

ROOT = Path(__file__).resolve().parent.parent.parent
BIN = Path(sys.executable).parent


def database(base_url: str, name: str) -> str:
    parts = urlsplit(base_url)
    return urlunsplit(parts._replace(path=f"/{name}"))


def admin(base_url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(database(base_url, "postgres"), autocommit=True) as conn:
        conn.execute(sql)


def _percentile(histogram: dict[int, int], fraction: float) -> float:
    total = sum(histogram.values())
    seen = 0
    for ms in sorted(histogram):
        seen += histogram[ms]
        if seen >= fraction * total:
            return float(ms)
    return 0.0


def summarise(stats: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    histogram: dict[int, int] = {}
    requests = failures = 0
    for entry in stats:
        if entry["method"] == "WS":
            continue  # a socket's notes are counted by name below, not as requests
        requests += entry["num_requests"]
        failures += entry["num_failures"]
        for ms, count in entry["response_times"].items():
            histogram[int(float(ms))] = histogram.get(int(float(ms)), 0) + count
    failures += sum(entry["num_failures"] for entry in stats if entry["method"] == "WS")
    return {
        "requests": requests,
        "requests_per_second": round(requests / seconds, 1),
        "p50_ms": _percentile(histogram, 0.50),
        "p95_ms": _percentile(histogram, 0.95),
        "p99_ms": _percentile(histogram, 0.99),
        "errors": failures,
        "by_request": {
            entry["name"]: {
                "requests": entry["num_requests"],
                "errors": entry["num_failures"],
                "p50_ms": _percentile(
                    {int(float(k)): v for k, v in entry["response_times"].items()}, 0.5
                ),
                "p95_ms": _percentile(
                    {int(float(k)): v for k, v in entry["response_times"].items()}, 0.95
                ),
            }
            for entry in stats
        },
    }


def main() -> int:
    users = int(os.environ.get("LOADTEST_USERS", "200"))
    seconds = int(os.environ.get("LOADTEST_SECONDS", "60"))
    base = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
    redis_url = os.environ.get("LOADTEST_REDIS_URL", "redis://127.0.0.1:6379/3")
    name = f"loadtest_{os.getpid()}"
    port = free_port()
    work = Path(tempfile.mkdtemp(prefix="wr-loadtest-"))
    env = production_env(
        database=database(base, name),
        redis_url=redis_url,
        media=work / "media",
        port=port,
        WEB_CONCURRENCY=os.environ.get("WEB_CONCURRENCY", "4"),
        LOG_LEVEL="WARNING",
        API_USER_RATE="100000/hour",
        API_POLL_RATE="100000/hour",
        LOADTEST_USERS=str(work / "users.json"),
        LOADTEST_OUT=str(work),
    )
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    admin(base, f'CREATE DATABASE "{name}"')
    procs: list[subprocess.Popen[bytes]] = []
    try:
        print(f"Load test: {users} users for {seconds} s; work folder {work}", flush=True)
        for step in (
            ["manage.py", "migrate", "--noinput", "-v0"],
            ["-m", "tests.load.seed", env["LOADTEST_USERS"], str(users)],
        ):
            subprocess.run([sys.executable, *step], cwd=ROOT, env=env, check=True)  # noqa: S603
        processes = procfile()
        for process in [name for name in processes if name == "web" or name.startswith("worker")]:
            log = (work / f"{process}.log").open("wb")
            procs.append(
                subprocess.Popen(  # noqa: S603 - the Procfile's own commands
                    processes[process], cwd=ROOT, env=env, stdout=log, stderr=log
                )
            )
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/?format=json") as r:
                    if r.status == 200:
                        break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("the app did not become healthy; see the logs") from None
            time.sleep(0.5)
        started = time.monotonic()
        subprocess.run(  # noqa: S603
            [
                str(BIN / "locust"),
                "-f",
                str(ROOT / "tests" / "load" / "locustfile.py"),
                "--headless",
                "--users",
                str(users),
                "--spawn-rate",
                str(max(1, users // 5)),
                "--run-time",
                f"{seconds}s",
                "--stop-timeout",
                "10",
                "--host",
                f"http://127.0.0.1:{port}",
                "--only-summary",
                "--json-file",
                str(work / "stats"),
                "--loglevel",
                "WARNING",
            ],
            cwd=ROOT,
            env=env,
            check=False,
            stdout=subprocess.DEVNULL,
        )
        elapsed = time.monotonic() - started
        stats = json.loads((work / "stats.json").read_text())
        summary = summarise(stats, elapsed)
        checked = subprocess.run(  # noqa: S603
            [sys.executable, "-m", "tests.load.verify", str(work)],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        verdict = json.loads(checked.stdout.strip().splitlines()[-1])
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        admin(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    report = {"users": users, "seconds": seconds, **summary, "checks": verdict}
    (ROOT / "loadtest-report.json").write_text(json.dumps(report, indent=2))
    print(
        f"{summary['requests']} requests in {elapsed:.0f} s: {summary['requests_per_second']}/s, "
        f"p50 {summary['p50_ms']:.0f} ms, p99 {summary['p99_ms']:.0f} ms, "
        f"{summary['errors']} errors"
    )
    for name_, row in sorted(summary["by_request"].items()):
        print(
            f"  {name_:<14} {row['requests']:>7} requests  "
            f"p50 {row['p50_ms']:>5.0f} ms  {row['errors']} errors"
        )
    moves, notes = verdict["moves"], verdict["notifications"]
    print(
        f"moves applied: {moves['moves_applied']} at {moves['tables']} battles and tavern tables; "
        f"turn notifications: {notes['turn_notifications']}"
    )
    problems = moves["problems"] + notes["problems"] + verdict["ledger"]["problems"]
    for problem in problems:
        print(f"PROBLEM: {problem}")
    print("Report written to loadtest-report.json")
    return 0 if summary["errors"] == 0 and not problems else 1


if __name__ == "__main__":
    sys.exit(main())
