"""The GM tools' beat task: ask the members who have not answered a session (gmtools/rsvp.py)."""

from __future__ import annotations

from celery import shared_task

from . import rsvp


@shared_task(
    name="gmtools.send_rsvp_reminders",
    soft_time_limit=120,
    time_limit=150,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def send_rsvp_reminders() -> int:
    """Beat: ask once, per session starting within two days, who has not answered."""
    return rsvp.rsvp_reminders_send()
