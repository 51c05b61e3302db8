"""Requests sent at the same instant from real threads, for the concurrency tests.

Each call runs in a thread of its own, with its own database connection (closed when it ends),
and all are released together by a barrier: what decides between them is the database (a row
lock, a version-checked write), not the test's timing. An error in any thread fails the test.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection


def at_once(calls: Sequence[Callable[[], Any]]) -> list[Any]:
    """Run every call at the same instant, each in its own thread; their answers, sorted."""
    barrier = threading.Barrier(len(calls))
    answers: list[Any] = []
    errors: list[BaseException] = []

    def run(call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            answers.append(call())
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()  # this thread's own connection

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors, errors
    return sorted(answers)
