"""Hardening finding 7: the schema and the responses agree. Each case below was a mismatch the
attack found; the answers are checked against the generated schema itself."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_members_is_a_plain_list_in_schema_and_answer(schema, campaign, player):
    answer = schema["paths"]["/api/campaigns/{id}/members/"]["get"]["responses"]["200"]
    body = answer["content"]["application/json"]["schema"]
    assert body["type"] == "array"
    response = _api(player).get(f"/api/campaigns/{campaign.pk}/members/")
    assert response.status_code == 200
    assert isinstance(response.json(), list)
    assert len(response.json()) == 3


def test_invited_user_is_nullable_and_is_null_for_an_open_link(schema, campaign, gm):
    field = schema["components"]["schemas"]["Invitation"]["properties"]["invited_user"]
    assert field.get("nullable") is True
    created = _api(gm).post(f"/api/campaigns/{campaign.pk}/invitations/", {}, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["invited_user"] is None


@pytest.mark.parametrize("value", ["maybe", "2", "tru"])
def test_a_non_boolean_unread_is_refused(player, value):
    response = _api(player).get(f"/api/notifications/?unread={value}")
    assert response.status_code == 400
    assert "unread" in response.json()["errors"]


@pytest.mark.parametrize(("value", "status"), [("true", 200), ("false", 200), ("0", 200)])
def test_boolean_unread_values_are_accepted(player, value, status):
    assert _api(player).get(f"/api/notifications/?unread={value}").status_code == status


def test_a_non_integer_offset_is_refused(player):
    response = _api(player).get("/api/notifications/?offset=abc")
    assert response.status_code == 400
    assert "offset" in response.json()["errors"]


def test_every_operation_documents_the_error_answers(schema):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            documented = set(operation["responses"])
            assert {"400", "401", "403", "404", "429"} <= documented, (method, path)
            if method in ("post", "put", "patch"):
                assert "413" in documented, (method, path)
    error = schema["components"]["schemas"]["Error"]
    assert error["required"] == ["detail"]


def test_an_unknown_api_path_answers_json():
    response = APIClient().get("/api/battles/not-a-number/")
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}
