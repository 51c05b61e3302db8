"""Issue 15: the API's answers and the hot statements' JSON are encoded by orjson
(``apibase.renderers.FastJSONRenderer``, ``tables.hot_sql``) and decoded by it on the move's
read. They must say exactly what the standard library's encoders said: the same JSON value
for everything the API sends, and the standard path for anything orjson refuses."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from decimal import Decimal

import pytest
from django.db import connection
from django.utils.translation import gettext_lazy
from rest_framework.renderers import JSONRenderer

from apibase.renderers import FastJSONRenderer, RenderedJSON
from tables import hot_sql

UTC = dt.UTC

SAMPLES = [
    {"version": 3, "view": {"hp": [1, 2.5, None, True], "name": "Cirno ❄"}},
    {"when": dt.datetime(2026, 11, 24, 12, 0, 1, 123456, tzinfo=UTC)},
    {"when": dt.datetime(2026, 11, 24, 12, 0, tzinfo=dt.timezone(dt.timedelta(hours=9)))},
    {"day": dt.date(2026, 11, 24), "naive": dt.datetime(2026, 11, 24, 8, 30)},
    {"price": Decimal("1.50"), "id": uuid.UUID(int=7), "word": gettext_lazy("Spellcards")},
    {"set": {3}, "tuple": (1, 2), 5: "an int key", "nested": [{"a": [[]]}]},
    {"text": "a line\u2028and a paragraph\u2029end"},
    [],
    "plain",
]


@pytest.mark.parametrize("data", SAMPLES, ids=range(len(SAMPLES)))
def test_the_fast_renderer_says_what_drfs_says(data):
    fast = FastJSONRenderer().render(data)
    drf = JSONRenderer().render(data)
    assert json.loads(fast) == json.loads(drf)
    assert b"\xe2\x80\xa8" not in fast and b"\xe2\x80\xa9" not in fast  # escaped, as DRF does


def test_what_orjson_refuses_goes_through_drf():
    huge = {"seed": 2**80}  # beyond 64 bits
    assert FastJSONRenderer().render(huge) == JSONRenderer().render(huge)


def test_an_indented_answer_is_drfs():
    data = {"a": [1, 2]}
    indented = FastJSONRenderer().render(data, "application/json; indent=2")
    assert indented == JSONRenderer().render(data, "application/json; indent=2")
    assert b"\n" in indented


def test_a_rendered_body_passes_through():
    assert FastJSONRenderer().render(RenderedJSON(b'{"a":1}')) == b'{"a":1}'


@pytest.mark.parametrize(
    "value", [{"a": [1, 2.5, None]}, {"1": "x"}, {"seed": 2**80}, "text", 7, [], {"k": "é❄"}]
)
def test_hot_sql_dumps_and_loads_the_standard_librarys_values(value):
    encoded = hot_sql.dumps(value)
    assert json.loads(encoded) == json.loads(json.dumps(value))
    assert hot_sql.json_from_db(encoded.decode(), None, None) == json.loads(json.dumps(value))


def test_hot_sql_reads_what_django_reads():
    assert hot_sql.json_from_db(None, None, None) is None
    assert hot_sql.json_from_db("not json", None, None) == "not json"  # as Django does


@pytest.mark.django_db
def test_a_bound_cursor_binds_on_the_server_and_sends_fast_json():
    with hot_sql.bound_cursor(connection) as cursor:
        cursor.execute(
            "SELECT %s::jsonb -> 'a', %s::int", hot_sql.fast_json([_jsonb({"a": [1, "❄"]}), 4])
        )
        text, number = cursor.fetchone()
        assert (json.loads(text), number) == ([1, "❄"], 4)
        assert "$1" in cursor.cursor._query.query.decode()  # a placeholder, not the value


def _jsonb(value):
    return connection.ops.adapt_json_value(value, None)


def test_djangos_plain_json_values_are_the_ones_made_fast():
    assert hot_sql.fast_json([_jsonb({"a": 1})])[0].dumps is hot_sql.dumps


def test_a_json_field_with_its_own_encoder_keeps_it():
    from functools import partial

    from django.core.serializers.json import DjangoJSONEncoder
    from psycopg.types.json import Jsonb

    own = Jsonb({"a": 1}, dumps=partial(json.dumps, cls=DjangoJSONEncoder))
    plain = Jsonb({"a": 1}, dumps=json.dumps)
    kept, fast = hot_sql.fast_json([own, plain])
    assert kept is own
    assert fast.dumps is hot_sql.dumps and fast.obj == {"a": 1}
