"""Run the web server, a Celery worker and Celery beat together (``make run-full``).

A tiny process supervisor so the full stack needs no extra tool: if any process exits, the
others are stopped. Its one worker takes every queue, quickest first (``CELERY_TASK_QUEUES``);
the ``Procfile`` starts a worker per queue, as production does (docs/deploy.md).
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", default="8000")
    args = parser.parse_args()
    py = sys.executable
    commands = {
        "web": [py, "manage.py", "runserver", f"{args.host}:{args.port}"],
        "worker": [py, "-m", "celery", "-A", "config", "worker", "-l", "info", "-c", "2"],
        "beat": [
            py,
            "-m",
            "celery",
            "-A",
            "config",
            "beat",
            "-l",
            "info",
            "-s",
            ".celerybeat-schedule",
        ],
    }
    procs = {name: subprocess.Popen(cmd) for name, cmd in commands.items()}  # noqa: S603
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    try:
        while not stopping and all(p.poll() is None for p in procs.values()):
            time.sleep(0.5)
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.terminate()
        for proc in procs.values():
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
