"""Ids in request bodies are bounded: a whole number from 1 to the largest BigAutoField id,
written in the digits 0-9. Anything else is a 400 on the field before any query (a larger
number overflowed the database driver: a 500 on SQLite), in every app, and the schema shows
the bounds."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

from apibase.fields import MAX_ID
from gmtools.models import Handout
from tests.factories import CharacterFactory

pytestmark = pytest.mark.django_db

TOO_LARGE = MAX_ID + 1  # 9223372036854775808


@pytest.fixture
def cirno(campaign, player):
    return CharacterFactory(owner=player, campaign=campaign, name="Cirno")


def _bodies(campaign, gm, player, cirno):
    """(who, method, url, body, the field that must carry the error) for each id field."""
    c = campaign.pk
    handout = Handout.objects.create(campaign=campaign, author=gm, title="Map")
    deck_entry = [{"spellcard": TOO_LARGE, "copies": 1}]
    seats = [{"kind": "host", "character": TOO_LARGE}, {"kind": "open"}]
    return [
        (gm, "post", f"/api/campaigns/{c}/party/heal/", {"character": TOO_LARGE}, "character"),
        (gm, "post", f"/api/campaigns/{c}/party/status/", {"character": TOO_LARGE}, "character"),
        (gm, "post", f"/api/campaigns/{c}/level-ups/", {"character": TOO_LARGE}, "character"),
        (gm, "post", f"/api/campaigns/{c}/awards/", {"characters": [TOO_LARGE]}, "characters"),
        (gm, "post", f"/api/campaigns/{c}/notes/", {"title": "x", "session": TOO_LARGE}, "session"),
        (
            gm,
            "patch",
            f"/api/campaigns/{c}/handouts/{handout.pk}/",
            {"recipients": [TOO_LARGE]},
            "recipients",
        ),
        (
            gm,
            "post",
            f"/api/campaigns/{c}/handouts/",
            {"title": "x", "recipients": [TOO_LARGE]},
            "recipients",
        ),
        (player, "post", "/api/characters/", {"campaign": TOO_LARGE, "draft": {}}, "campaign"),
        (player, "post", "/api/spellcards/", {"character": TOO_LARGE, "draft": {}}, "character"),
        (
            player,
            "post",
            f"/api/characters/{cirno.pk}/deck/validate/",
            {"entries": deck_entry},
            "entries",
        ),
        (
            player,
            "post",
            "/api/decks/",
            {"game": "rso", "name": "d", "campaign": TOO_LARGE},
            "campaign",
        ),
        (player, "post", "/api/tavern/tables/", {"game": "raigo", "seats": seats}, "seats"),
    ]


def test_an_id_beyond_the_database_range_is_a_400_on_its_field(
    campaign, gm, player, cirno, api_for
):
    for user, method, url, body, field in _bodies(campaign, gm, player, cirno):
        response = getattr(api_for(user), method)(url, body, format="json")
        assert response.status_code == 400, (url, response.content)
        errors = response.json()["errors"]
        assert field in errors, (url, errors)
        assert "No id is that large." in str(errors[field]), (url, errors)


@pytest.mark.parametrize("value", [TOO_LARGE, 0, -4, "1_0", "٣"])
def test_a_rolls_campaign_that_is_no_id_is_a_400_before_it_is_looked_up(player, api_for, value):
    """The roll looks its campaign up before its serializer runs (for the campaign's house
    rules), and answered 404 for ``0`` or ``1_0``; like every id in a body (docs/api.md, "Ids in
    bodies") it is a 400 on the field, and an id in range that you may not see a 404."""
    response = api_for(player).post(
        "/api/rolls/", {"notation": "2d", "campaign": value}, format="json"
    )
    assert response.status_code == 400, response.content
    assert "campaign" in response.json()["errors"]
    unseen = api_for(player).post(
        "/api/rolls/", {"notation": "2d", "campaign": 987654}, format="json"
    )
    assert unseen.status_code == 404


def test_a_character_imports_campaign_in_its_form_is_an_id_or_a_400(player, api_for):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("c.json", b"{}", content_type="application/json")
    response = api_for(player).post(
        "/api/characters/import/", {"file": upload, "campaign": "1_0"}, format="multipart"
    )
    assert response.status_code == 400, response.content
    assert "campaign" in response.json()["errors"]


def test_the_reported_form_encoded_id_is_a_400(campaign, gm, cirno, api_for):
    response = api_for(gm).post(
        f"/api/campaigns/{campaign.pk}/party/status/",
        {"character": "5239636182554719898364859645952", "status": "stunned"},
    )
    assert response.status_code == 400
    assert response.json()["errors"]["character"] == ["No id is that large."]


@pytest.mark.parametrize("value", ["1_0", "٣", " ", "1e3", 0, -4, True, 1.5])
def test_an_id_that_is_not_a_whole_number_from_1_in_ascii_digits_is_refused(
    campaign, gm, cirno, api_for, value
):
    response = api_for(gm).post(
        f"/api/campaigns/{campaign.pk}/party/heal/", {"character": value}, format="json"
    )
    assert response.status_code == 400, response.content
    assert "id" in response.json()["errors"]["character"][0]


def test_a_valid_id_still_works_as_a_number_or_in_digits(campaign, gm, cirno, api_for):
    url = f"/api/campaigns/{campaign.pk}/party/heal/"
    assert api_for(gm).post(url, {"character": cirno.pk}, format="json").status_code == 200
    assert api_for(gm).post(url, {"character": str(cirno.pk)}).status_code == 200


def test_the_schema_shows_the_bounds_of_every_id_field():
    schemas = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]
    ids = {
        "HealInputRequest": "character",
        "AwardInputRequest": "characters",
        "HandoutInputRequest": "recipients",
        "RollInputRequest": "campaign",
        "CharacterWriteRequest": "campaign",
        "DeckCopiesRequest": "spellcard",
        "GameDeckWriteRequest": "campaign",
        "SeatInputRequest": "character",
        "PlaceInputRequest": "character",
    }
    for name, field in ids.items():
        prop = schemas[name]["properties"][field]
        prop = prop.get("items", prop)
        assert (prop.get("minimum"), prop.get("maximum")) == (1, MAX_ID), (name, prop)
