"""Play-by-post's scheduled work: the daily digest of posts (beat runs it hourly; each member
hears of a day once)."""

from __future__ import annotations

from celery import shared_task

from . import digest


@shared_task(name="threads.send_daily_digests", soft_time_limit=120, time_limit=150)
def send_daily_digests() -> int:
    return digest.send_daily_digests()
