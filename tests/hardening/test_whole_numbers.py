"""Whole numbers in query strings and ids in paths are ASCII digits: Python's int() read
``?since=1_0`` as 10 and ``?since=٣`` (Arabic-Indic three) as 3, and ``str.isdigit()`` passed
``²``, which int() then refused. One reader (apibase/numbers.py) for every app."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from apibase.numbers import MAX_ID, int_query_param, object_id, whole_number
from tests.factories import CharacterFactory

pytestmark = pytest.mark.django_db

NOT_ASCII_WHOLE = ["1_0", "٣", "²", "+7", " 7", "7 ", "1.0", "", "-", "٣٣"]


@pytest.mark.parametrize("text", NOT_ASCII_WHOLE)
def test_only_ascii_digits_make_a_whole_number(text):
    assert whole_number(text) is None


def test_whole_numbers_and_ids_in_ascii_digits_are_read():
    assert whole_number("0") == 0
    assert whole_number("0042") == 42
    assert whole_number("9" * 5000) is None  # not read at all (int() refuses such strings)
    assert object_id("7") == 7
    assert object_id(7) == 7
    assert object_id(str(MAX_ID)) == MAX_ID
    assert object_id(str(MAX_ID + 1)) is None
    assert object_id("0") is None
    assert object_id(True) is None


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def tavern_state_url(player):
    created = _api(player).post(
        "/api/tavern/tables/",
        {"game": "raigo", "seats": [{"kind": "host"}, {"kind": "open"}]},
        format="json",
    )
    assert created.status_code == 201, created.content
    return f"/api/tavern/tables/{created.json()['id']}/state/"


@pytest.fixture
def battle_view_url(campaign, gm):
    created = _api(gm).post(
        f"/api/campaigns/{campaign.pk}/battles/", {"name": "Gate"}, format="json"
    )
    assert created.status_code == 201, created.content
    return f"/api/battles/{created.json()['id']}/state/"


@pytest.mark.parametrize("since", ["1_0", "٣", "²", "+1"])
def test_since_in_other_digits_is_refused_by_the_tavern_and_battles(
    player, gm, tavern_state_url, battle_view_url, since
):
    for user, url in [(player, tavern_state_url), (gm, battle_view_url)]:
        response = _api(user).get(url, {"since": since})
        assert response.status_code == 400, (url, response.status_code)
        assert response.json()["errors"]["since"] == ["A whole number, in the digits 0-9."]


def test_since_in_ascii_digits_still_polls_and_a_minus_is_refused(player, tavern_state_url):
    api = _api(player)
    version = api.get(tavern_state_url).json()["version"]
    assert api.get(tavern_state_url, {"since": str(version)}).status_code == 204
    refused = api.get(tavern_state_url, {"since": "-1"})
    assert refused.status_code == 400
    assert refused.json()["errors"]["since"] == ["A whole number from 0."]


@pytest.mark.parametrize("value", ["٣", "²", "1_0"])
def test_paging_and_page_numbers_in_other_digits_are_a_400(player, campaign, value):
    api = _api(player)
    assert api.get("/api/rolls/", {"limit": value}).status_code == 400
    assert api.get(f"/api/campaigns/{campaign.pk}/timeline/", {"page": value}).status_code == 400


def test_ids_written_with_an_underscore_name_nothing(player, campaign):
    """int("0_7") is 7: the campaign filter and the router's paths read it as an id."""
    character = CharacterFactory(owner=player, campaign=campaign, name="Cirno")
    api = _api(player)
    assert api.get("/api/characters/", {"campaign": f"0_{campaign.pk}"}).status_code == 404
    assert api.get(f"/api/characters/0_{character.pk}/").status_code == 404
    assert api.get(f"/api/characters/{character.pk}/").status_code == 200


def test_the_query_reader_keeps_missing_and_empty_as_the_default():
    from django.test import RequestFactory
    from rest_framework.request import Request

    request = Request(RequestFactory().get("/x/", {"after": ""}))
    assert int_query_param(request, "after", 5) == 5
    assert int_query_param(request, "since", None) is None
