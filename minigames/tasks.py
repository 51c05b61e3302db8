"""Celery tasks of the tavern (autodiscovered): bot moves, the advisor's estimates, reaction
timeouts and the sweep for lost bot moves.

A bot's move is computed here, never in a web request (issue 12): :func:`tavern_bot_move` is
enqueued on commit whenever a table starts waiting on a bot seat, and applies the move through
the table core's service like a human's (a stale one is recomputed). The beat task
:func:`tavern_reaction_timeouts` declines, for a human seat, a reaction she has not answered
in time (the engine's ``timeout_action``). :func:`tavern_advise` searches for the advisor at a
practice table, for the same reason out of the web request (:mod:`minigames.advice`).

**Nothing waits on a lost task.** A bot move and a search are safe to run twice or late: the
move is played only while the table is still at the version that asked for it (a table moved
on has asked again), and a search only keeps an estimate for the version it was asked for. So
both are acknowledged only once done (``acks_late``) and put back at once when their pool
process dies (``reject_on_worker_lost``). A worker killed whole leaves its message in Redis's
unacknowledged set until the broker's visibility timeout (``CELERY_VISIBILITY_TIMEOUT``), so the
beat task :func:`tavern_requeue_lost_bot_moves` enqueues a bot move again for every table that
has waited on a bot longer than ``TAVERN_BOT_STALE_SECONDS`` (above the task's hard time
limit, so a move still being computed is not doubled); the advisor's search is asked for again
by the page's next request (:func:`minigames.advice.advice_for`).
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import InterfaceError, OperationalError

from tables.tasks import MAX_RETRIES, retry_in

logger = logging.getLogger(__name__)


@shared_task(
    bind=True,
    name="minigames.bot_move",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    max_retries=MAX_RETRIES,
    soft_time_limit=20,
    time_limit=30,
)
def tavern_bot_move(self: Task[..., Any], table_id: int, seat: int, version: int) -> str:
    """Play bot seat ``seat`` of table ``table_id`` while the table is at ``version``, the
    state that enqueued it (a late or repeated run finds it moved on and does nothing)."""
    from .services import tavern_bot_play

    try:
        return tavern_bot_play(table_id, seat, version=version)
    except (SoftTimeLimitExceeded, OperationalError, InterfaceError) as exc:
        logger.warning("tavern_bot_move(%s, %s, v%s) interrupted: %r", table_id, seat, version, exc)
        if self.request.is_eager:
            return "retry-later"
        raise self.retry(countdown=retry_in(self.request.retries)) from exc


@shared_task(name="minigames.reaction_timeouts", ignore_result=True, soft_time_limit=50)
def tavern_reaction_timeouts() -> int:
    """Decline the reactions human seats have not answered in time (every 15 s from beat)."""
    from .services import tavern_timeouts

    return tavern_timeouts()


@shared_task(
    name="minigames.advise",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    soft_time_limit=20,
    time_limit=30,
)
def tavern_advise(table_id: int, version: int, seat: int) -> None:
    """The advisor's estimates for ``seat`` at ``version`` of table ``table_id`` (kept in the
    cache; a lost run is asked for again by the page's next request)."""
    from .advice import compute

    compute(table_id, version, seat)


@shared_task(
    name="minigames.requeue_lost_bot_moves",
    ignore_result=True,
    soft_time_limit=50,
    time_limit=60,
)
def tavern_requeue_lost_bot_moves() -> int:
    """Beat: enqueue a bot move again for every table that has waited on a bot seat longer
    than its budget (every ``TAVERN_SWEEP_SECONDS``); returns how many were enqueued."""
    from .services import tavern_lost_bot_moves

    return tavern_lost_bot_moves()
