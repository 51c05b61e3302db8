"""Fail loudly, before any test runs, when PostgreSQL or Redis cannot be reached.

The suite runs against the real services; skipping integration tests when one is down would
let a red build look green. Run as ``python -m config.services_check``.
"""

from __future__ import annotations

import os
import sys


def check_database(url: str) -> str | None:
    if not url.startswith(("postgres://", "postgresql://")):
        return None
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=5) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        return f"PostgreSQL at {url} is unreachable: {exc}"
    return None


def check_redis(url: str) -> str | None:
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=5).ping()
    except redis.RedisError as exc:
        return f"Redis at {url} is unreachable: {exc}"
    return None


def main() -> int:
    db = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
    rd = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    problems = [p for p in (check_database(db), check_redis(rd)) if p]
    for problem in problems:
        print(f"ERROR: {problem}", file=sys.stderr)
    if problems:
        print(
            "The test suite needs both services; see README, 'Running the tests'.",
            file=sys.stderr,
        )
        return 1
    print(f"services ok: {db} and {rd}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
