"""A long campaign's action log slows nothing down: on a log of a million rows, every statement
that reads or deletes it on the log page, the poll, the timeline and the retention task finds
its rows through an index, never by reading the whole table.

The million rows are made by one ``INSERT ... SELECT generate_series`` (20 finished battles of
50,000 moves each, beside a real battle in play; two of them ended over a year ago, for the
retention task to remove when it is set to), the table analysed as autovacuum would, and
every statement the real requests and the real retention task send is recorded and explained
by PostgreSQL (``EXPLAIN``, the plan it would run: no ``Seq Scan`` on the log).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from battles.models import Battle, BattleAction
from config import tasks
from tests.battles.conftest import play_until

pytestmark = pytest.mark.django_db

LOG = BattleAction._meta.db_table
BATTLES = 20
MOVES = 50_000


#: Of the finished battles, these many ended long ago.
OLD = 2


def _fill(real: Battle) -> list[int]:
    """BATTLES finished battles of the same campaign, MOVES log rows each, in one statement;
    the first OLD ended 400 days ago, the others 10."""
    fillers = Battle.objects.bulk_create(
        Battle(
            campaign_id=real.campaign_id,
            name=f"Old battle {n}",
            created_by_id=real.created_by_id,
            status="ended",
            state=real.state,
            initial=real.initial,
            version=MOVES,
        )
        for n in range(BATTLES)
    )
    ids = [b.pk for b in fillers]
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            INSERT INTO {LOG} (battle_id, seq, seat, action, events, version_after, created_at)
            SELECT b.id, s.n, 'gm', '{{"type": "end_turn"}}', '[]', s.n,
                   now() - interval '1 day' * ({BATTLES} - b.k) - interval '1 second' * s.n
            FROM unnest(%s::bigint[]) WITH ORDINALITY AS b(id, k)
            CROSS JOIN generate_series(1, {MOVES}) AS s(n)
            """,  # noqa: S608 - the table's name and two constants of this module
            [ids],
        )
        cursor.execute(f"ANALYZE {LOG}")
    for chosen, days in ((ids[:OLD], 400), (ids[OLD:], 10)):
        when = timezone.now() - timedelta(days=days)
        Battle.objects.filter(pk__in=chosen).update(ended_at=when, updated_at=when)
    return ids


@contextmanager
def recorded() -> Iterator[list[tuple[str, Any]]]:
    """Every statement this connection sends meanwhile, with its parameters."""
    statements: list[tuple[str, Any]] = []

    def record(execute, sql, params, many, context):
        statements.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        yield statements


def _scans(plan: dict[str, Any]) -> Iterator[tuple[str, str, str]]:
    """(node type, relation, index) of every node of a JSON plan."""
    yield plan["Node Type"], plan.get("Relation Name", ""), plan.get("Index Name", "")
    for child in plan.get("Plans", []):
        yield from _scans(child)


def explain(sql: str, params: Any) -> list[tuple[str, str, str]]:
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}", params)
        (raw,) = cursor.fetchone()
    plan = raw if isinstance(raw, list) else json.loads(raw)
    return list(_scans(plan[0]["Plan"]))


def _on_the_log(statements: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    return [(sql, params) for sql, params in statements if LOG in sql]


def test_a_million_log_rows_are_read_and_deleted_through_indexes(
    started, gm, player, api_for, client_for, settings
):
    battle = started.battle
    play_until(started, gm, started.other_pc)
    battle.refresh_from_db()
    began = time.monotonic()
    fillers = _fill(battle)
    filled = time.monotonic() - began
    assert BattleAction.objects.count() >= BATTLES * MOVES
    long_one = fillers[3]

    plans: dict[str, list[tuple[str, str, str]]] = {}
    reads = {
        "log page": lambda: api_for(player).get(f"/api/battles/{battle.pk}/log/?after=0"),
        "a long battle's log page": lambda: api_for(gm).get(
            f"/api/battles/{long_one}/log/?after=40000&limit=100"
        ),
        "poll": lambda: api_for(player).get(
            f"/api/battles/{battle.pk}/state/?since={battle.version - 1}"
        ),
        "timeline": lambda: client_for(gm).get(f"/campaigns/{battle.campaign_id}/timeline/"),
    }
    for name, read in reads.items():
        with recorded() as statements:
            answer = read()
        assert answer.status_code == 200, (name, answer.content[:500])
        for n, (sql, params) in enumerate(_on_the_log(statements)):
            plans[f"{name} #{n + 1}"] = explain(sql, params)
    assert any(key.startswith("log page") for key in plans), plans
    assert any(key.startswith("a long battle") for key in plans), plans
    assert any(key.startswith("poll") for key in plans), plans
    # The timeline lists battles by their start and end, never reading their logs.
    assert not any(key.startswith("timeline") for key in plans), plans

    settings.FINISHED_TABLE_RETENTION_DAYS = 365
    with recorded() as statements:
        began = time.monotonic()
        assert tasks.prune_finished_tables.delay().get() == OLD
        pruned = time.monotonic() - began
    deletes = _on_the_log(statements)
    assert deletes, "the retention task deleted the log rows of the battles it removed"
    for n, (sql, params) in enumerate(deletes):
        plans[f"retention #{n + 1}"] = explain(sql, params)
    assert not BattleAction.objects.filter(battle_id__in=fillers[:OLD]).exists()
    kept = BattleAction.objects.filter(battle_id__in=fillers[OLD:])
    assert kept.count() == (BATTLES - OLD) * MOVES

    on_log = {
        name: [(node, index) for node, relation, index in nodes if relation == LOG]
        for name, nodes in plans.items()
    }
    seq_scans = {name: nodes for name, nodes in on_log.items() if ("Seq Scan", "") in nodes}
    assert not seq_scans, seq_scans
    assert all(nodes for nodes in on_log.values()), on_log  # each one did touch the log
    print(
        f"\n{BATTLES * MOVES} rows made in {filled:.1f} s; {OLD * MOVES} pruned in {pruned:.1f} s"
    )
    for name, nodes in on_log.items():
        print(f"{name}: {nodes}")
