"""The characters REST API: CRUD, validation errors per field and rule, the sheet as JSON,
preview without writes, export/import, level-up, inventory, and the OpenAPI schema."""

from __future__ import annotations

from fractions import Fraction

import pytest

from characters.models import Character, InventoryItem
from tests.factories import CharacterFactory, legal_draft
from westernroses.characters import derive_sheet
from westernroses.characters.builder import validate
from westernroses.probability import check_odds

pytestmark = pytest.mark.django_db


def test_create_returns_the_character_with_its_draft(campaign, player, api_for):
    draft = legal_draft(name="Wriggle")
    response = api_for(player).post(
        "/api/characters/",
        {"campaign": campaign.pk, "draft": draft.to_dict(), "private_notes": "bugs"},
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["name"] == "Wriggle" and body["owner"] == player.username
    assert body["campaign"] == campaign.pk and body["level"] == 1
    assert body["draft"]["inventory"] == draft.to_dict()["inventory"]
    assert body["private_notes"] == "bugs" and body["can_edit"] is True


def test_invalid_draft_lists_every_broken_rule_by_field_and_rule(campaign, player, api_for):
    draft = legal_draft(
        name="", bonus_points={"pwr": 25}, abilities=[], element=None, skill_points={}
    )
    response = api_for(player).post(
        "/api/characters/", {"campaign": campaign.pk, "draft": draft.to_dict()}, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    expected = validate(draft)
    assert "rule" in body["detail"]
    assert [r["code"] for r in body["errors"]["rules"]] == [v.code for v in expected]
    for violation in expected:
        assert violation.message in body["errors"][violation.field]
    assert body["errors"]["rules"][0].keys() == {"code", "field", "message", "rule"}
    assert not Character.objects.exists()


@pytest.mark.parametrize(
    ("draft", "field"),
    [
        ({"bonus_points": [1, 2]}, "bonus_points"),
        ({"level": "two"}, "level"),
        ({"inventory": {"book": {"quantity": "many"}}}, "inventory.book.quantity"),
        ({"wings": True}, "wings"),
    ],
)
def test_malformed_drafts_are_400_naming_the_field(draft, field, campaign, player, api_for):
    response = api_for(player).post(
        "/api/characters/", {"campaign": campaign.pk, "draft": draft}, format="json"
    )
    assert response.status_code == 400
    assert field in response.json()["errors"], response.json()


def test_a_non_object_draft_is_a_field_error(player, api_for):
    response = api_for(player).post("/api/characters/", {"draft": [1]}, format="json")
    assert response.status_code == 400 and "draft" in response.json()["errors"]


def test_patch_merges_draft_keys_and_validates(character, player, api_for):
    api = api_for(player)
    response = api.patch(
        f"/api/characters/{character.pk}/",
        {"draft": {"current_hp": 33, "drunkenness": "tipsy"}, "public_notes": "after the fight"},
        format="json",
    )
    assert response.status_code == 200, response.content
    character.refresh_from_db()
    assert (character.current_hp, character.drunkenness) == (33, "tipsy")
    assert character.public_notes == "after the fight"
    refused = api.patch(
        f"/api/characters/{character.pk}/",
        {"draft": {"drunkenness": "legless", "level": 4}},
        format="json",
    )
    assert refused.status_code == 400
    codes = [r["code"] for r in refused.json()["errors"]["rules"]]
    assert codes == ["drunkenness.unknown", "level.gm_only"]
    character.refresh_from_db()
    assert character.drunkenness == "tipsy"


def test_put_is_not_offered(character, player, api_for):
    assert api_for(player).put(f"/api/characters/{character.pk}/", {}).status_code == 405


def test_list_filters_by_campaign_and_hides_other_peoples_private_notes(
    character, npc, campaign, other_player, gm, api_for
):
    mine = CharacterFactory(owner=other_player, campaign=campaign, private_notes="my own")
    results = (
        api_for(other_player).get(f"/api/characters/?campaign={campaign.pk}").json()["results"]
    )
    by_id = {r["id"]: r for r in results}
    assert set(by_id) == {character.pk, npc.pk, mine.pk}
    assert "private_notes" not in by_id[character.pk] and "private_notes" not in by_id[npc.pk]
    assert by_id[mine.pk]["private_notes"] == "my own"
    gm_results = api_for(gm).get(f"/api/characters/?campaign={campaign.pk}").json()["results"]
    assert all("private_notes" in r for r in gm_results)
    # without ?campaign: only your own characters
    own = api_for(other_player).get("/api/characters/").json()["results"]
    assert [r["id"] for r in own] == [mine.pk]


def test_sheet_json_matches_the_engine_with_exact_odds(character, player, api_for):
    from characters.services import character_to_draft

    body = api_for(player).get(f"/api/characters/{character.pk}/sheet/").json()
    expected = derive_sheet(character_to_draft(character)).to_dict()
    assert body["valid"] is True and body["target"] == 12
    assert body["sheet"]["hp"] == expected["hp"]
    for key, line in body["sheet"]["stats"].items():
        assert line["total"] == expected["stats"][key]["total"]
        check = line["check"]
        odds = check_odds(check["dice"], check["modifier"], 12).any_success
        assert Fraction(check["odds"]["exact"]) == odds
    assert body["sheet"]["spellcards"]["deck"]["max_cards"] == 20


def test_preview_validates_and_derives_without_writing(
    player, api_for, django_assert_max_num_queries
):
    draft = legal_draft(bonus_points={"pwr": 19})
    api = api_for(player)
    api.get("/api/characters/")  # token lookups warm
    before = (Character.objects.count(), InventoryItem.objects.count())
    with django_assert_max_num_queries(3):  # token + user; no writes
        response = api.post("/api/characters/preview/", {"draft": draft.to_dict()}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["valid"] is False
    assert [p["code"] for p in body["problems"]] == ["bonus_points.total"]
    assert body["errors"]["bonus_points"]
    assert body["sheet"]["stats"]["pwr"]["total"] == derive_sheet(draft).stats["pwr"].total
    assert (Character.objects.count(), InventoryItem.objects.count()) == before


def test_preview_of_an_empty_draft_lists_what_is_missing(player, api_for):
    body = api_for(player).post("/api/characters/preview/", {"draft": {}}, format="json").json()
    assert body["sheet"] is None and body["valid"] is False
    assert {"shot_type.missing", "race.missing", "profession.missing"} <= {
        p["code"] for p in body["problems"]
    }


def test_export_import_round_trip_through_the_api(character, campaign, player, api_for):
    api = api_for(player)
    first = api.get(f"/api/characters/{character.pk}/export/")
    assert first["Content-Type"] == "application/json"
    created = api.post(
        f"/api/characters/import/?campaign={campaign.pk}", first.json(), format="json"
    )
    assert created.status_code == 201, created.content
    second = api.get(f"/api/characters/{created.json()['id']}/export/")
    assert second.content == first.content


def test_import_a_file_upload(character, player, api_for):
    from django.core.files.uploadedfile import SimpleUploadedFile

    api = api_for(player)
    exported = api.get(f"/api/characters/{character.pk}/export/").content
    upload = SimpleUploadedFile("cirno.json", exported, content_type="application/json")
    response = api.post("/api/characters/import/", {"file": upload}, format="multipart")
    assert response.status_code == 201, response.content
    assert response.json()["campaign"] is None


@pytest.mark.parametrize(
    ("document", "field"),
    [
        ({"format": "something else", "version": 1, "character": {}}, "format"),
        ({"format": "westernroses.character", "version": 9, "character": {}}, "version"),
        (
            {"format": "westernroses.character", "version": 1, "character": {"yen": "lots"}},
            "character.yen",
        ),
        ([1, 2, 3], "(file)"),
    ],
)
def test_bad_import_documents_get_a_clear_400(document, field, player, api_for):
    response = api_for(player).post("/api/characters/import/", document, format="json")
    assert response.status_code == 400
    body = response.json()
    assert field in body["errors"]
    assert body["detail"].startswith("This is not a Western Roses character")


def test_import_of_garbage_bytes_is_a_400(player, api_for):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("x.json", b"\xff\xfe garbage")
    response = api_for(player).post("/api/characters/import/", {"file": upload}, format="multipart")
    assert response.status_code == 400 and "(file)" in response.json()["errors"]


def test_level_up_by_the_gm(character, gm, api_for):
    response = api_for(gm).post(
        f"/api/characters/{character.pk}/level-up/", {"levels": 2}, format="json"
    )
    assert response.status_code == 200 and response.json()["level"] == 3
    sheet = api_for(gm).get(f"/api/characters/{character.pk}/sheet/").json()["sheet"]
    assert sheet["spellcards"]["deck"]["max_cards"] == 30
    bad = api_for(gm).post(
        f"/api/characters/{character.pk}/level-up/", {"levels": 0}, format="json"
    )
    assert bad.status_code == 400 and "levels" in bad.json()["errors"]
    # the level-up is on the campaign's timeline, as one from the dashboard would be
    from gmtools.models import LevelUp

    assert list(LevelUp.objects.values_list("from_level", "to_level")) == [(1, 3)]


def test_inventory_endpoint(character, player, api_for):
    api = api_for(player)
    response = api.post(
        f"/api/characters/{character.pk}/inventory/",
        {"item": "book", "quantity": 2, "equipped": False},
        format="json",
    )
    assert response.status_code == 200
    assert response.json()["draft"]["inventory"]["book"] == {"quantity": 2, "equipped": False}
    refused = api.post(
        f"/api/characters/{character.pk}/inventory/",
        {"item": "leather_armor", "quantity": 1, "equipped": True},
        format="json",
    )
    assert refused.status_code == 400
    assert refused.json()["errors"]["rules"][0]["code"] == "equipment.armor_not_allowed"


def test_bad_portrait_is_a_400(character, player, api_for, media):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("evil.png", b"<svg onload=alert(1)>", content_type="image/png")
    response = api_for(player).post(
        f"/api/characters/{character.pk}/portrait/", {"portrait": upload}, format="multipart"
    )
    assert response.status_code == 400
    assert "portrait" in response.json()["errors"]


def test_schema_documents_the_character_endpoints(client):
    schema = client.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    for path in (
        "/api/characters/",
        "/api/characters/{id}/",
        "/api/characters/{id}/sheet/",
        "/api/characters/{id}/export/",
        "/api/characters/{id}/level-up/",
        "/api/characters/{id}/inventory/",
        "/api/characters/{id}/portrait/",
        "/api/characters/import/",
        "/api/characters/preview/",
    ):
        assert path in paths, path
    assert "put" not in paths["/api/characters/{id}/"]
    assert "patch" in paths["/api/characters/{id}/"]


def test_list_queries_do_not_grow_with_inventory(
    campaign, player, api_for, django_assert_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    api = api_for(player)
    small = CharacterFactory(owner=player, campaign=campaign)
    api.get("/api/characters/")
    with CaptureQueriesContext(connection) as few:
        api.get(f"/api/characters/?campaign={campaign.pk}")
    draft = legal_draft()
    for slug in ("book", "broom", "gohei", "sword", "mace", "spear", "doll", "fabric"):
        draft.inventory[slug] = type(draft.inventory["basic_clothing"])(3, False)
    CharacterFactory(owner=player, campaign=campaign, draft=draft)
    with django_assert_num_queries(len(few)):
        response = api.get(f"/api/characters/?campaign={campaign.pk}")
    assert len(response.json()["results"]) == 2 and small.pk


def test_absurd_numbers_are_problems_not_500s(player, api_for):
    draft = legal_draft(bonus_points={"pwr": 400, "cha": -380})
    response = api_for(player).post(
        "/api/characters/preview/", {"draft": draft.to_dict()}, format="json"
    )
    assert response.status_code == 200
    body = response.json()
    assert body["sheet"]["stats"]["pwr"]["check"]["odds"] is None  # beyond the odds engine
    assert "bonus_points.negative" in {p["code"] for p in body["problems"]}


@pytest.mark.parametrize(
    ("hp", "words"),
    [
        (9999, "Current HP cannot be above the maximum of"),
        (-500, "Current HP cannot be below -100"),
    ],
)
def test_patch_refuses_current_hp_outside_the_sheet(character, player, api_for, hp, words):
    """Ruleset "Attacking and Dodging" (Death, Utter Destruction at -100); docs/characters.md."""
    api = api_for(player)
    before = character.current_hp
    refused = api.patch(
        f"/api/characters/{character.pk}/", {"draft": {"current_hp": hp}}, format="json"
    )
    assert refused.status_code == 400
    (message,) = refused.json()["errors"]["current_hp"]
    assert message.startswith(words)
    character.refresh_from_db()
    assert character.current_hp == before
