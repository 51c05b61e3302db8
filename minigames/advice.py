"""The advisor at practice tables: beside each of a seat's legal moves, the search bot's
estimated chance of winning after it (issue 12).

Why a worker computes it: the estimate is a second of search, and a web worker that searched
would serve nobody else for that second (the bots' moves are never computed in a web request
for the same reason). :func:`advice_for` answers from the cache or asks the worker once per
table version and seat (``None`` meanwhile: the API says 202, and the page asks again);
:func:`compute` is the task's work. Kept per version under the database's epoch
(:mod:`tables.epoch`): a version lost in a PostgreSQL crash may come back with another state.
With Celery eager (``make run``, most tests) the task runs at once, inside the request.
"""

from __future__ import annotations

from typing import Any, Final

from django.conf import settings
from django.core.cache import cache

from apibase.engine_words import in_language, stored
from minigames.engines.registry import get_engine
from tables import epoch

from .models import TavernTable

#: How long an estimate is kept (a table rarely stays at one version longer).
ADVICE_SECONDS: Final = 600


def pending_seconds() -> int:
    """How long one request for an estimate stands before another may be sent: a search lost
    with its worker (killed mid-search, or never delivered) is asked for again by the page's
    next request after this (``TAVERN_ADVICE_PENDING_SECONDS``, 30 s: the task's hard limit)."""
    return int(settings.TAVERN_ADVICE_PENDING_SECONDS)


def search_seconds() -> float:
    """The search's budget, in seconds (``TAVERN_ADVICE_SEARCH_SECONDS``, 1 s)."""
    return float(settings.TAVERN_ADVICE_SEARCH_SECONDS)


def advice_key(table_id: int, version: int, seat: int) -> str:
    """Where ``seat``'s advice at ``version`` of table ``table_id`` is kept in the cache."""
    return f"tavern-advice:{epoch.current()}:{table_id}:{version}:{seat}"


def advice_for(table: TavernTable, seat: int) -> list[dict[str, Any]] | None:
    """``seat``'s advice at ``table``'s version, or None while a worker computes it (asked
    here, once per version and seat)."""
    from .tasks import tavern_advise

    key = advice_key(table.pk, table.version, seat)
    advice: list[dict[str, Any]] | None = cache.get(key)
    if advice is None and cache.add(f"{key}:asked", 1, pending_seconds()):
        tavern_advise.delay(table.pk, table.version, seat)
        advice = cache.get(key)  # there already when the task ran eagerly
    if advice is None:
        return None
    # the labels are kept as the engine's words (JSON) and read in the asker's language
    return [{**a, "label": in_language(a["label"])} for a in advice]


def compute(table_id: int, version: int, seat: int) -> None:
    """Search and keep ``seat``'s advice at ``version`` of table ``table_id``; nothing if the
    table has moved on (nobody will ask for that version again)."""
    from minigames.bots import advise

    table = TavernTable.objects.filter(pk=table_id, version=version).first()
    if table is None:
        return
    engine = get_engine(table.game)
    state = engine.from_json(table.state)
    advice: list[dict[str, Any]] = []
    if seat in engine.waiting_on(state):
        advice = [
            {
                "action": a["action"],
                "label": stored(engine.describe_action(state, seat, a["action"])),
                "win_chance": round(a["win_chance"], 3),
                "visits": a["visits"],
            }
            for a in advise(engine, state, seat, seed=table_id, time_limit=search_seconds())
        ]
    cache.set(advice_key(table_id, version, seat), advice, ADVICE_SECONDS)
