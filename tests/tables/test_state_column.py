"""Issue 15: a game table's ``state`` and ``initial`` are PostgreSQL ``json`` (kept as the
text written), not ``jsonb`` (parsed on every write, printed on every read): every move reads
the whole state and writes the whole new one, and jsonb's parse of a battle's state was a
measurable part of a move (tables/fields.py). What is read back must be what was written, on
every path that reads it (the ORM, the move's compiled read, a key lookup)."""

from __future__ import annotations

import pytest
from django.db import connection

from battles.models import Battle
from minigames.models import TavernTable
from tests.factories import CampaignFactory, UserFactory

pytestmark = pytest.mark.django_db

STATE = {
    "arena": {"width": 8, "height": 6},
    "names": ["Cirno ❄", "a line\u2028end", ""],
    "nested": [{"a": [[], {}]}, None, True, 1.5, -3],
    "seed": 2**80,  # beyond 64 bits: the standard library's encoder writes it
}


def _column(table: str, column: str) -> tuple[str, str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT format_type(atttypid, atttypmod), attcompression FROM pg_attribute"
            " WHERE attrelid = %s::regclass AND attname = %s",
            [table, column],
        )
        kind, compression = cursor.fetchone()
    return kind, compression


@pytest.mark.parametrize("model", [Battle, TavernTable])
@pytest.mark.parametrize("column", ["state", "initial"])
def test_the_state_columns_are_json_compressed_with_lz4(model, column):
    kind, compression = _column(model._meta.db_table, column)
    assert kind == "json"
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
        )
        has_lz4 = cursor.fetchone()[0]
    assert compression == ("l" if has_lz4 else "")


def test_a_state_reads_back_as_written_on_every_path():
    gm = UserFactory()
    campaign = CampaignFactory(created_by=gm)
    battle = Battle.objects.create(
        campaign=campaign, created_by=gm, name="Lake", state=STATE, initial=STATE
    )
    fresh = Battle.objects.get(pk=battle.pk)
    assert fresh.state == STATE and fresh.initial == STATE
    assert list(Battle.objects.filter(pk=battle.pk).values_list("state__arena__width")) == [(8,)]
    Battle.objects.filter(pk=battle.pk).update(state={**STATE, "seed": 1})
    assert Battle.objects.get(pk=battle.pk).state["seed"] == 1
