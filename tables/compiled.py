"""Hot reads whose SQL is compiled once and then only run.

Building and compiling an ORM query (filters, a role subquery, ``values_list``) took several
times as long as running it: ten times for a move's table read, two fifths of a battle's first
load. A read whose SQL depends only on a few things known before the row (the game, the
viewer) keeps its compiled SQL under those, with :data:`ANY_ID` where the row's id goes, and
each read puts its own id in. A read of model instances also keeps how the row's columns
become the instance (Django's raw query set worked that out again on every read).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Final, NamedTuple, cast

from django.db import connections
from django.db.models import JSONField, QuerySet

from tables import hot_sql

#: A primary key no row has (ids stop at 2**63 - 1; this one is never handed out).
ANY_ID: Final = 2**63 - 7
#: Compiled reads kept; cleared when full (one per viewer at most, per kind of read).
MAX_KEPT: Final = 1024

_KEPT: dict[Hashable, Any] = {}


def forget_all() -> None:
    """Drop every compiled read (tests that compare with and without)."""
    _KEPT.clear()


def _keep(key: Hashable, compiled: Any) -> None:
    if len(_KEPT) >= MAX_KEPT:
        _KEPT.clear()
    _KEPT[key] = compiled


def _sql(rows: QuerySet[Any]) -> tuple[str, tuple[Any, ...]] | None:
    """The query's SQL and parameters, or None when the id is not told apart in them."""
    sql, params = rows.query.sql_with_params()
    return (sql, tuple(params)) if list(params).count(ANY_ID) == 1 else None


def _with_id(params: tuple[Any, ...], pk: int) -> list[Any]:
    return [pk if p == ANY_ID else p for p in params]


def _fetch(db: str, sql: str, params: tuple[Any, ...], pk: int) -> Any | None:
    # bound on the server, so PostgreSQL prepares a read it runs again and again
    # (``prepare_threshold``, config/settings/base.py) instead of parsing and planning it
    with hot_sql.bound_cursor(connections[db]) as cursor:
        cursor.execute(sql, _with_id(params, pk))
        return cursor.fetchone()


def values_row(key: Hashable, build: Callable[[int], QuerySet[Any]], pk: int) -> Any | None:
    """The first row of ``build(pk)`` (a ``values_list`` query set), compiled once per
    ``key`` from ``build(ANY_ID)``; None when there is none. A query whose parameters do not
    show the id apart is compiled each time (never wrong, only slower)."""
    compiled = _KEPT.get(("values", key))
    if compiled is None:
        rows = build(ANY_ID)
        found = _sql(rows)
        if found is None:
            return build(pk).first()
        compiled = (rows.db, *found)
        _keep(("values", key), compiled)
    db, sql, params = compiled
    return _fetch(db, sql, params, pk)


def seat_check(
    key: Hashable, build: Callable[[int], QuerySet[Any]], pk: int
) -> tuple[str, list[Any]] | None:
    """The SQL and parameters of ``build(pk)`` (a ``values_list`` of a row's seat columns),
    compiled once per ``key`` from ``build(ANY_ID)``, for a write to check them in the same
    statement (``tables.services``); None when the id is not told apart in them."""
    compiled = _KEPT.get(("check", key))
    if compiled is None:
        compiled = _sql(build(ANY_ID))
        if compiled is None:
            return None
        _keep(("check", key), compiled)
    sql, params = compiled
    return sql, _with_id(params, pk)


class _ModelReader(NamedTuple):
    """A compiled read and how its row becomes a model instance, as Django's raw query set
    works it out (``RawModelIterable``)."""

    model: Any
    db: str
    sql: str
    params: tuple[Any, ...]
    #: the model's field names given to ``from_db`` and their positions in the row
    names: tuple[str, ...]
    positions: tuple[int, ...]
    #: (attribute, position) of each annotation
    annotations: tuple[tuple[str, int], ...]
    #: position → (converters, expression), as ``SQLCompiler.get_converters`` gives them
    converters: dict[int, tuple[list[Any], Any]]

    def instance(self, row: Any) -> Any:
        connection = connections[self.db]
        values = list(row)
        for pos, (convs, expression) in self.converters.items():
            value = values[pos]
            for convert in convs:
                value = convert(value, expression, connection)
            values[pos] = value
        instance = self.model.from_db(self.db, self.names, [values[p] for p in self.positions])
        for attribute, pos in self.annotations:
            setattr(instance, attribute, values[pos])
        return instance


def _model_reader(rows: QuerySet[Any], sql: str, params: tuple[Any, ...], pk: int) -> Any:
    """The reader, and the instance of this first read (read by Django's raw query set, whose
    column mapping the reader keeps)."""
    raw = rows.model._default_manager.raw(sql, _with_id(params, pk))
    first = next(iter(raw), None)  # runs the query; its cursor gives the columns below
    names, positions, annotations = raw.resolve_model_init_order()
    fields = [raw.model_fields.get(c) for c in raw.columns]
    cols = [f.get_col(f.model._meta.db_table) if f else None for f in fields]
    connection = connections[raw.db]
    compiler = connection.ops.compiler("SQLCompiler")(raw.query, connection, raw.db)
    reader = _ModelReader(
        raw.model,
        raw.db,
        sql,
        params,
        tuple(names),
        tuple(positions),
        tuple((a, p) for a, p in annotations),
        {
            pos: (_fast(convs), expr)
            for pos, (convs, expr) in compiler.get_converters(cast(Any, cols)).items()
        },
    )
    return reader, first


def _fast(converters: list[Any]) -> list[Any]:
    """``converters`` with a plain JSON field's decoding done by orjson (a move reads the whole
    game state: the standard library took three times as long to decode it)."""
    return [
        hot_sql.json_from_db
        if isinstance(getattr(c, "__self__", None), JSONField)
        and c.__func__ is JSONField.from_db_value
        and c.__self__.decoder is None
        else c
        for c in converters
    ]


def model_row(key: Hashable, build: Callable[[int], QuerySet[Any]], pk: int) -> Any | None:
    """The first instance of ``build(pk)`` (a query set of model rows), compiled once per
    ``key`` from ``build(ANY_ID)``; None when there is none. A query whose parameters do not
    show the id apart is compiled each time."""
    reader = _KEPT.get(("model", key))
    if reader is None:
        rows = build(ANY_ID)
        found = _sql(rows)
        if found is None:
            return build(pk).first()
        reader, first = _model_reader(rows, *found, pk)
        _keep(("model", key), reader)
        return first
    row = _fetch(reader.db, reader.sql, reader.params, pk)
    return None if row is None else reader.instance(row)
