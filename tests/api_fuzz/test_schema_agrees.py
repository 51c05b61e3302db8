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
                assert {"413", "415"} <= documented, (method, path)
    error = schema["components"]["schemas"]["Error"]
    assert error["required"] == ["detail"]


def test_a_body_of_a_type_no_parser_reads_is_a_documented_415(schema, player):
    """Found by schemathesis (a multipart body it sent arrived with an empty media type): DRF
    answers 415 in the API's error shape for a body it has no parser for, and the schema
    documents 415 on every write (config/openapi.py)."""
    response = _api(player).post("/api/characters/", data=b"name", content_type="text/plain")
    assert response.status_code == 415
    assert response.json() == {"detail": 'Unsupported media type "text/plain" in request.'}
    assert "415" in schema["paths"]["/api/characters/"]["post"]["responses"]


def test_an_unknown_api_path_answers_json():
    response = APIClient().get("/api/battles/not-a-number/")
    assert response.status_code == 404
    assert response.json() == {"detail": "Not found."}


def _declared(schema, body, at: str, components) -> list[str]:
    """Every key of ``body`` that ``schema`` (OpenAPI, refs into ``components``) does not
    declare: the schema allows undeclared keys, so a field left out of a serializer would pass
    schemathesis's check unseen."""
    while "$ref" in schema:
        schema = components[schema["$ref"].rsplit("/", 1)[1]]
    missing: list[str] = []
    if isinstance(body, dict) and "properties" in schema:
        for key, value in body.items():
            if key not in schema["properties"]:
                missing.append(f"{at}.{key}")
            else:
                missing += _declared(schema["properties"][key], value, f"{at}.{key}", components)
    elif isinstance(body, list) and "items" in schema:
        for i, item in enumerate(body):
            missing += _declared(schema["items"], item, f"{at}[{i}]", components)
    return missing


def _agrees(schema, path: str, method: str, url: str, response) -> None:
    """A real answer checked against the generated schema the way the schemathesis test
    checks generated requests' answers (tests/api_fuzz/test_schemathesis.py), and every key
    in it declared."""
    import requests
    import schemathesis

    operation = schemathesis.openapi.from_dict(schema)[path][method.upper()]
    operation.validate_response(
        schemathesis.Response(
            status_code=response.status_code,
            headers={k.lower(): [v] for k, v in response.headers.items()},
            content=response.content,
            request=requests.Request(method.upper(), f"http://testserver{url}").prepare(),
            elapsed=0.0,
            verify=True,
        )
    )
    code = str(response.status_code)
    body = schema["paths"][path][method]["responses"][code]["content"]["application/json"]
    components = schema["components"]["schemas"]
    assert _declared(body["schema"], response.json(), "", components) == [], (method, url)


def test_the_taverns_answers_agree_with_the_schema(schema, campaign, player, other_player):
    """The tavern's games, tables (a staked campaign table, finished, with its rematch), the
    state, the log and the rematch's two answers, each as the schema says, every key in it."""
    from minigames import services
    from tests.minigames.conftest import character, play_out, two_humans

    reimu = character(player, campaign, "Reimu", 200)
    marisa = character(other_player, campaign, "Marisa", 150)
    table = two_humans("raigo", player, other_player, campaign=campaign, stake=10,
                       host_character=reimu, guest_character=marisa)  # fmt: skip
    play_out(table, {0: player, 1: other_player})
    api = _api(player)
    T = "/api/tavern/tables/{id}/"
    asked = [
        ("/api/tavern/games/", "get", "/api/tavern/games/"),
        (T + "rematch/", "post", f"/api/tavern/tables/{table.pk}/rematch/"),  # 201
        (T + "rematch/", "post", f"/api/tavern/tables/{table.pk}/rematch/"),  # 200
        ("/api/tavern/tables/", "get", "/api/tavern/tables/"),
        ("/api/tavern/tables/", "get", f"/api/tavern/tables/?campaign={campaign.pk}&limit=1"),
        (T, "get", f"/api/tavern/tables/{table.pk}/"),
        (T + "state/", "get", f"/api/tavern/tables/{table.pk}/state/"),
        (T + "log/", "get", f"/api/tavern/tables/{table.pk}/log/?limit=2"),
        (T + "replay/", "get", f"/api/tavern/tables/{table.pk}/replay/?step=1&limit=2"),
        (T + "replay/", "get", f"/api/tavern/tables/{table.pk}/replay/"),  # the end, a result
    ]
    codes = []
    for path, method, url in asked:
        response = getattr(api, method)(url)
        codes.append(response.status_code)
        _agrees(schema, path, method, url, response)
    assert codes == [200, 201, 200, 200, 200, 200, 200, 200, 200, 200]
    assert api.get(f"/api/tavern/tables/{table.pk}/log/?limit=2").json()["next_after"]
    resigned = two_humans("spirit_war", player, other_player, campaign=campaign)
    services.tavern_resign(table_id=resigned.pk, by=other_player)  # an outcome of its own
    url = f"/api/tavern/tables/{resigned.pk}/"
    _agrees(schema, T, "get", url, api.get(url))
