"""Every request body is bounded field by field, not only by the 1 MB JSON body limit: each string
has a maxLength and each array a maxItems in the schema, and the API refuses more with a 400 in
words. The walk covers every operation in the schema (all of it is the project's own API under
/api/; DRF's token view is served through the project's subclass). Exempt, and why: strings with
an enum (one of a few words) or a format the field parses itself (date-time; binary is a file,
bounded by its endpoint's size limit), and free-form JSON objects (a character draft, a card's
data, an action), whose contents are bounded by the JSON depth and the services that read them.
"""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

from campaign.models import MAX_NAMED, MAX_PROSE
from gmtools.models import GMNote, Handout

pytestmark = pytest.mark.django_db

EXEMPT_FORMATS = {"date-time", "date", "binary"}


def _walk(schema: dict[str, Any], components: dict[str, Any], where: str, seen: frozenset[str]):
    """Yield (where, schema) for every writable schema inside ``schema``, refs resolved."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name not in seen:
            yield from _walk(components[name], components, f"{where}<{name}>", seen | {name})
        return
    if schema.get("readOnly"):
        return
    for key in ("allOf", "oneOf", "anyOf"):
        for sub in schema.get(key, []):
            yield from _walk(sub, components, where, seen)
    yield where, schema
    for name, sub in schema.get("properties", {}).items():
        yield from _walk(sub, components, f"{where}.{name}", seen)
    if isinstance(schema.get("additionalProperties"), dict):
        yield from _walk(schema["additionalProperties"], components, f"{where}.*", seen)
    if schema.get("type") == "array":
        yield from _walk(schema.get("items", {}), components, f"{where}[]", seen)


def _unbounded(schema: dict[str, Any]) -> list[str]:
    components = schema.get("components", {}).get("schemas", {})
    found = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            for media, body in operation.get("requestBody", {}).get("content", {}).items():
                where = f"{method.upper()} {path} ({media}) "
                for field, sub in _walk(body["schema"], components, where, frozenset()):
                    kind = sub.get("type")
                    if (
                        kind == "string"
                        and "maxLength" not in sub
                        and "enum" not in sub
                        and sub.get("format") not in EXEMPT_FORMATS
                    ):
                        found.append(f"{field}: a string without maxLength")
                    if kind == "array" and "maxItems" not in sub:
                        found.append(f"{field}: an array without maxItems")
    return found


def test_every_request_string_and_array_in_the_schema_is_bounded():
    assert _unbounded(SchemaGenerator().get_schema(request=None, public=True)) == []


def test_the_walk_finds_unbounded_fields_however_deep():
    """The check itself works, on a schema written out by hand."""
    schema = {
        "paths": {
            "/api/x/": {
                "post": {
                    "requestBody": {
                        "content": {"application/json": {"schema": {"$ref": "#/c/Outer"}}}
                    }
                }
            }
        },
        "components": {
            "schemas": {
                "Outer": {
                    "type": "object",
                    "properties": {
                        "ok": {"type": "string", "maxLength": 5},
                        "kind": {"type": "string", "enum": ["a", "b"]},
                        "at": {"type": "string", "format": "date-time"},
                        "seen": {"type": "string", "readOnly": True},
                        "lines": {"type": "array", "maxItems": 3, "items": {"$ref": "#/c/In"}},
                    },
                },
                "In": {
                    "type": "object",
                    "properties": {
                        "body": {"type": "string"},
                        "tags": {"type": "array", "items": {"type": "string", "maxLength": 9}},
                    },
                },
            }
        },
    }
    assert _unbounded(schema) == [
        "POST /api/x/ (application/json) <Outer>.lines[]<In>.body: a string without maxLength",
        "POST /api/x/ (application/json) <Outer>.lines[]<In>.tags: an array without maxItems",
    ]


def _words(response) -> str:
    return str(response.json()["errors"])


def test_long_prose_is_refused_in_words(campaign, gm, api_for):
    api = api_for(gm)
    too_long = "x" * (MAX_PROSE + 1)
    c = campaign.pk
    created = api.post("/api/campaigns/", {"name": "ok", "description": too_long}, format="json")
    assert created.status_code == 400
    assert "no more than 20000 characters" in _words(created)
    for url, body in [
        (f"/api/campaigns/{c}/", {"description": too_long}),
        (f"/api/campaigns/{c}/notes/", {"title": "t", "body": "x" * 900_000}),
        (f"/api/campaigns/{c}/handouts/", {"title": "t", "body": "x" * 900_000}),
        (
            f"/api/campaigns/{c}/sessions/",
            {"title": "t", "starts_at": "2030-01-01T20:00:00Z", "agenda": too_long},
        ),
    ]:
        send = api.patch if url.endswith(f"/{c}/") else api.post
        response = send(url, body, format="json")
        assert response.status_code == 400, (url, response.status_code)
        assert "no more than 20000 characters" in _words(response), url
    assert not GMNote.objects.exists()
    assert not Handout.objects.exists()
    campaign.refresh_from_db()
    assert campaign.description != too_long
    fits = api.post("/api/campaigns/", {"name": "ok", "description": "x" * MAX_PROSE})
    assert fits.status_code == 201


def test_a_huge_recipient_list_is_refused_before_any_lookup(
    campaign, gm, player, api_for, django_assert_max_num_queries
):
    api = api_for(gm)
    ids = list(range(1, 100_000))  # 690 kB: under the API's 1 MB JSON limit
    with django_assert_max_num_queries(12):  # the token, the campaign and access: no IN query
        response = api.post(
            f"/api/campaigns/{campaign.pk}/handouts/",
            {"title": "t", "recipients": ids},
            format="json",
        )
    assert response.status_code == 400
    assert f"no more than {MAX_NAMED} elements" in _words(response)


def test_lists_with_a_real_maximum_are_refused_past_it(campaign, gm, player, api_for):
    seats = [{"kind": "open"}] * 7
    response = api_for(player).post(
        "/api/tavern/tables/", {"game": "spirit_war", "seats": seats}, format="json"
    )
    assert response.status_code == 400
    assert "no more than 6 elements" in _words(response)
    events = ["loot_awarded"] * 100
    response = api_for(gm).put(
        f"/api/campaigns/{campaign.pk}/webhook/",
        {"webhook_url": "", "events": events, "digest_minutes": 0},
        format="json",
    )
    assert response.status_code == 400
    assert "events" in response.json()["errors"]


def test_the_token_endpoint_bounds_user_name_and_password(player):
    from rest_framework.test import APIClient

    response = APIClient().post(
        "/api/auth/token/", {"username": "u" * 151, "password": "p" * 900_000}, format="json"
    )
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert set(errors) == {"username", "password"}


def test_every_tavern_game_fits_the_seat_bound():
    from minigames.engines.registry import ENGINE_MODULES, get_engine
    from minigames.services import MAX_SEATS

    assert max(get_engine(slug).max_seats for slug in ENGINE_MODULES) == MAX_SEATS
