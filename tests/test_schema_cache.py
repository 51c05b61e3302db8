"""``/api/schema/`` is built once per process and format, then served from memory (issue 15):
the stored answer is the one a fresh build gives, per format, and only known languages and
versions are stored (a stranger cannot grow the cache)."""

from __future__ import annotations

import json

import pytest

from config.schema_view import CachedSchemaView

pytestmark = pytest.mark.django_db


@pytest.fixture
def fresh():
    CachedSchemaView.forget()
    yield
    CachedSchemaView.forget()


def test_the_schema_is_stored_once_per_format_and_served_the_same(fresh, api_for, player):
    api = api_for(player)
    first = api.get("/api/schema/?format=json")
    assert first.status_code == 200
    assert first["Content-Type"].startswith("application/vnd.oai.openapi+json")
    assert len(CachedSchemaView._rendered) == 1
    again = api.get("/api/schema/?format=json")
    assert again.content == first.content
    assert len(CachedSchemaView._rendered) == 1  # served from memory, nothing new built
    schema = json.loads(first.content)
    assert "/api/battles/{id}/actions/" in schema["paths"]
    yaml = api.get("/api/schema/")
    assert yaml["Content-Type"].startswith("application/vnd.oai.openapi")
    assert yaml.content.startswith(b"openapi:")
    assert "attachment" not in yaml["Content-Disposition"]
    assert len(CachedSchemaView._rendered) == 2  # YAML is its own entry


def test_the_stored_schema_equals_a_fresh_build(fresh, api_for, player):
    api = api_for(player)
    stored = api.get("/api/schema/?format=json").content
    CachedSchemaView.forget()
    assert api.get("/api/schema/?format=json").content == stored


def test_unknown_languages_are_answered_but_not_stored(fresh, api_for, player):
    api = api_for(player)
    response = api.get("/api/schema/?format=json&lang=zz-not-a-language")
    assert response.status_code == 200
    assert CachedSchemaView._rendered == {}


def test_the_schema_view_is_not_in_its_own_schema(fresh, api_for, player):
    paths = api_for(player).get("/api/schema/?format=json").json()["paths"]
    assert "/api/schema/" not in paths
