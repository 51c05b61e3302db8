"""Large bodies are refused early and every error body is bounded.

A campaign's house rules sent as 200,000 unknown keys (2.3 MB) took 2.9 to 10.8 s to refuse and
answered 6.7 MB of errors, one per key. Now a JSON body over ``MAX_JSON_BODY_BYTES`` (1 MB) is a
413 before it is decoded; a map of house rules with more keys than there are house rules is a
400 before any key is read; and an error body lists at most ``MAX_ERRORS`` messages (the
``detail`` counts the rest), each clipped, whatever the endpoint (config/api_errors.py).
"""

from __future__ import annotations

import json

import pytest

from config.api_errors import MAX_ERRORS, MAX_KEY, MAX_MESSAGE, bounded_errors
from westernroses.house_rules import HOUSE_RULES_META

pytestmark = pytest.mark.django_db

#: Comfortably above what MAX_ERRORS messages of MAX_MESSAGE characters take.
BOUND = 32 * 1024


def _patch(api, campaign, body: bytes):
    return api.generic(
        "PATCH", f"/api/campaigns/{campaign.pk}/", body, content_type="application/json"
    )


def _unknown_rules(count: int, width: int = 8) -> bytes:
    rules = {f"r{i:0{width}d}": 1 for i in range(count)}
    return json.dumps({"house_rules": rules}).encode()


def test_a_json_body_over_a_megabyte_is_a_413_before_it_is_read(api_for, gm, campaign):
    body = _unknown_rules(200_000)
    assert len(body) > 2_000_000
    response = _patch(api_for(gm), campaign, body)
    assert response.status_code == 413
    assert response.json() == {
        "detail": "A JSON body has at most 1,024 kB: nothing was read or saved."
    }


def test_more_house_rules_than_there_are_is_one_error(api_for, gm, campaign):
    body = _unknown_rules(50_000)
    assert len(body) < 1024 * 1024
    response = _patch(api_for(gm), campaign, body)
    assert response.status_code == 400
    assert len(response.content) < 1024
    assert response.json()["errors"] == {
        "house_rules": [f"At most {len(HOUSE_RULES_META)} entries; this map has 50,000."]
    }
    campaign.refresh_from_db()
    assert campaign.house_rules == {}


def test_unknown_house_rules_with_long_names_are_listed_clipped(api_for, gm, campaign):
    rules = {f"{i:02d}" + "x" * 20_000: 1 for i in range(len(HOUSE_RULES_META))}
    response = api_for(gm).patch(
        f"/api/campaigns/{campaign.pk}/", {"house_rules": rules}, format="json"
    )
    assert response.status_code == 400
    assert len(response.content) < BOUND
    listed = response.json()["errors"]["house_rules"]
    assert len(listed) == MAX_ERRORS
    assert all(len(key) <= MAX_KEY and key.endswith("…") for key in listed)
    assert response.json()["detail"] == (
        f"Invalid input: {len(HOUSE_RULES_META) - MAX_ERRORS:,} more problems are not listed."
    )


def test_thousands_of_bad_items_answer_a_bounded_body(api_for, gm, campaign):
    response = api_for(gm).post(
        f"/api/campaigns/{campaign.pk}/awards/",
        {"characters": ["x"] * 5000, "yen": 1},
        format="json",
    )
    assert response.status_code == 400
    assert len(response.content) < BOUND
    body = response.json()
    assert body["detail"] == "Invalid input: 4,980 more problems are not listed."
    assert len(body["errors"]["characters"]) == MAX_ERRORS


def test_the_bound_keeps_the_shape_and_clips_long_messages():
    errors = {
        "name": ["x" * 10_000],
        "seats": [{"kind": ["Choose one."]}, {}, {"deck": ["No such deck.", "Another."]}],
        "extra": [f"problem {i}" for i in range(100)],
    }
    bounded, left_out = bounded_errors(errors)
    assert len(bounded["name"][0]) == MAX_MESSAGE and bounded["name"][0].endswith("…")
    assert bounded["seats"] == [
        {"kind": ["Choose one."]},
        {},
        {"deck": ["No such deck.", "Another."]},
    ]
    assert bounded["extra"] == [f"problem {i}" for i in range(MAX_ERRORS - 4)]
    assert left_out == 100 - (MAX_ERRORS - 4)
    assert bounded_errors({"a": ["b"]}) == ({"a": ["b"]}, 0)


def test_the_schema_shows_the_house_rules_bound():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    update = schema["components"]["schemas"]["PatchedCampaignUpdateRequest"]
    assert update["properties"]["house_rules"]["maxProperties"] == len(HOUSE_RULES_META)
