"""Hot reads whose SQL is compiled once and then only run.

Building and compiling an ORM query (filters, a role subquery, ``values_list``) took several
times as long as running it: on a battle's first load it was two fifths of the request. A read
whose SQL depends only on a few things known before the row (the game, the viewer) keeps its
compiled SQL under those, with :data:`ANY_ID` where the row's id goes, and each read puts its
own id in.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Final

from django.db import connections
from django.db.models import QuerySet

#: A primary key no row has (ids stop at 2**63 - 1; this one is never handed out).
ANY_ID: Final = 2**63 - 7
#: Compiled reads kept; cleared when full (one per viewer at most, per kind of read).
MAX_KEPT: Final = 1024

_VALUES: dict[Hashable, tuple[str, str, tuple[Any, ...]]] = {}


def values_row(key: Hashable, build: Callable[[int], QuerySet[Any]], pk: int) -> Any | None:
    """The first row of ``build(pk)`` (a ``values_list`` query set), compiled once per
    ``key`` from ``build(ANY_ID)``; None when there is none. A query whose parameters do not
    show the id apart is compiled each time (never wrong, only slower)."""
    compiled = _VALUES.get(key)
    if compiled is None:
        rows = build(ANY_ID)
        sql, params = rows.query.sql_with_params()
        if list(params).count(ANY_ID) != 1:
            return build(pk).first()
        if len(_VALUES) >= MAX_KEPT:
            _VALUES.clear()
        compiled = _VALUES[key] = (rows.db, sql, tuple(params))
    db, sql, params = compiled
    with connections[db].cursor() as cursor:
        cursor.execute(sql, [pk if p == ANY_ID else p for p in params])
        return cursor.fetchone()
