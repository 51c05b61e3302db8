"""Every character page and endpoint, for every role (the style of tests/campaign).

Policy: the owner and the campaign's GMs edit; other members see the public sheet (never the
private notes); outsiders get 404; anonymous users log in (pages) or get 401 (API); only GMs
raise levels.
"""

from __future__ import annotations

import io

import pytest

from characters.models import Character
from tests.factories import legal_draft

pytestmark = pytest.mark.django_db

ROLES = ["gm", "owner", "other", "outsider", "anonymous"]
SECRET = "Secretly afraid of frogs."


@pytest.fixture
def users(gm, player, other_player, outsider):
    return {
        "gm": gm,
        "owner": player,
        "other": other_player,
        "outsider": outsider,
        "anonymous": None,
    }


def _fill(value, ids):
    if isinstance(value, str):
        return value.format(**ids)
    if isinstance(value, dict):
        return {k: _fill(v, ids) for k, v in value.items()}
    return value


def _document():
    return {
        "format": "westernroses.character",
        "version": 1,
        "character": legal_draft(name="Imported").to_dict(),
        "notes": {"public": "", "private": ""},
    }


# (method, url, data, {role: status})
PAGES = [
    ("get", "/characters/{pk}/", None, [200, 200, 200, 404, 302]),
    ("get", "/characters/{pk}/edit/", None, [200, 200, 403, 404, 302]),
    ("post", "/characters/{pk}/edit/preview/", {"name": "X"}, [200, 200, 403, 404, 302]),
    ("get", "/characters/{pk}/delete/", None, [200, 200, 403, 404, 302]),
    ("post", "/characters/{pk}/delete/", {}, [302, 302, 403, 404, 302]),
    ("post", "/characters/{pk}/level-up/", {}, [302, 403, 403, 404, 302]),
    ("get", "/characters/{pk}/export/", None, [200, 200, 200, 404, 302]),
    ("get", "/characters/{pk}/portrait/upload/", None, [200, 200, 403, 404, 302]),
    ("get", "/characters/{npc}/", None, [200, 200, 200, 404, 302]),
    ("get", "/characters/{npc}/edit/", None, [200, 403, 403, 404, 302]),
    ("get", "/campaigns/{campaign}/characters/", None, [200, 200, 200, 404, 302]),
    ("get", "/characters/new/?campaign={campaign}", None, [200, 200, 200, 404, 302]),
    ("post", "/characters/new/preview/", {"campaign": "{campaign}"}, [200, 200, 200, 404, 302]),
    ("get", "/characters/", None, [200, 200, 200, 200, 302]),
    ("get", "/characters/new/", None, [200, 200, 200, 200, 302]),
    ("get", "/characters/import/", None, [200, 200, 200, 200, 302]),
    ("get", "/characters/999999/", None, [404, 404, 404, 404, 302]),
]

API = [
    ("get", "/api/characters/{pk}/", None, [200, 200, 200, 404, 401]),
    ("patch", "/api/characters/{pk}/", {"public_notes": "new"}, [200, 200, 403, 404, 401]),
    ("delete", "/api/characters/{pk}/", None, [204, 204, 403, 404, 401]),
    ("get", "/api/characters/{pk}/sheet/", None, [200, 200, 200, 404, 401]),
    ("get", "/api/characters/{pk}/export/", None, [200, 200, 200, 404, 401]),
    ("post", "/api/characters/{pk}/level-up/", {}, [200, 403, 403, 404, 401]),
    (
        "post",
        "/api/characters/{pk}/inventory/",
        {"item": "book", "quantity": 1},
        [200, 200, 403, 404, 401],
    ),
    ("delete", "/api/characters/{pk}/portrait/", None, [200, 200, 403, 404, 401]),
    ("get", "/api/characters/?campaign={campaign}", None, [200, 200, 200, 404, 401]),
    ("get", "/api/characters/", None, [200, 200, 200, 200, 401]),
    ("get", "/api/characters/{npc}/", None, [200, 200, 200, 404, 401]),
    ("patch", "/api/characters/{npc}/", {"public_notes": "x"}, [200, 403, 403, 404, 401]),
    (
        "post",
        "/api/characters/",
        {"campaign": "{campaign}", "draft": "DRAFT"},
        [201, 201, 201, 404, 401],
    ),
    (
        "post",
        "/api/characters/preview/",
        {"campaign": "{campaign}", "draft": "DRAFT"},
        [200, 200, 200, 404, 401],
    ),
    ("post", "/api/characters/import/?campaign={campaign}", "DOCUMENT", [201, 201, 201, 404, 401]),
    ("get", "/api/characters/999999/", None, [404, 404, 404, 404, 401]),
]


def _ids(character, npc, campaign):
    return {"pk": character.pk, "npc": npc.pk, "campaign": campaign.pk}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("method", "url", "data", "expected"), PAGES)
def test_pages_per_role(role, method, url, data, expected, users, character, npc, client_for):
    ids = _ids(character, npc, character.campaign)
    client = client_for(users[role])
    response = getattr(client, method)(url.format(**ids), _fill(data, ids))
    assert response.status_code == expected[ROLES.index(role)], response.content[:500]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("method", "url", "data", "expected"), API)
def test_api_per_role(role, method, url, data, expected, users, character, npc, api_for):
    ids = _ids(character, npc, character.campaign)
    if data == "DOCUMENT":
        data = _document()
    elif data is not None:
        data = _fill(data, ids)
        if data.get("draft") == "DRAFT":
            data["draft"] = legal_draft(name="New").to_dict()
        if "campaign" in data:
            data["campaign"] = int(data["campaign"])
    response = getattr(api_for(users[role]), method)(url.format(**ids), data, format="json")
    assert response.status_code == expected[ROLES.index(role)], response.content[:500]


@pytest.mark.parametrize("role", ROLES)
def test_portrait_upload_and_view_per_role(role, users, character, client_for, api_for, media):
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (32, 32)).save(buffer, format="PNG")
    buffer.name = "p.png"
    buffer.seek(0)
    upload = api_for(users[role]).post(
        f"/api/characters/{character.pk}/portrait/", {"portrait": buffer}, format="multipart"
    )
    expected = {"gm": 200, "owner": 200, "other": 403, "outsider": 404}.get(role, 401)
    assert upload.status_code == expected, upload.content
    if role in ("gm", "owner"):
        for viewer, status in [("other", 200), ("outsider", 404), ("anonymous", 302)]:
            response = client_for(users[viewer]).get(f"/characters/{character.pk}/portrait/")
            assert response.status_code == status
            if status == 200:
                assert response["Content-Type"] == "image/png"
                assert response["X-Content-Type-Options"] == "nosniff"
                # reading it all lets the test client close the file
                assert b"".join(response.streaming_content).startswith(b"\x89PNG")


def test_private_notes_reach_no_other_player_in_any_payload(
    character, npc, other_player, client_for, api_for
):
    client, api = client_for(other_player), api_for(other_player)
    payloads = [
        client.get(f"/characters/{character.pk}/"),
        client.get(f"/characters/{character.pk}/export/"),
        client.get(f"/campaigns/{character.campaign_id}/characters/"),
        client.get(f"/characters/{npc.pk}/"),
        api.get(f"/api/characters/{character.pk}/"),
        api.get(f"/api/characters/{character.pk}/sheet/"),
        api.get(f"/api/characters/{character.pk}/export/"),
        api.get(f"/api/characters/?campaign={character.campaign_id}"),
        api.get(f"/api/characters/{npc.pk}/"),
    ]
    for response in payloads:
        assert response.status_code == 200
        body = response.content.decode()
        assert SECRET not in body and "GM secret." not in body
        assert "private_notes" not in body or response.request["PATH_INFO"].endswith("/sheet/")
    assert b'id="private-notes"' not in payloads[0].content
    assert b"Strongest fairy" in payloads[0].content  # the public notes are shown


@pytest.mark.parametrize("role", ["gm", "owner"])
def test_owner_and_gm_see_the_private_notes(role, users, character, client_for, api_for):
    user = users[role]
    assert SECRET in client_for(user).get(f"/characters/{character.pk}/").content.decode()
    assert api_for(user).get(f"/api/characters/{character.pk}/").json()["private_notes"] == SECRET
    export = client_for(user).get(f"/characters/{character.pk}/export/").json()
    assert export["notes"]["private"] == SECRET


def test_unattached_characters_are_visible_to_their_owner_only(outsider, player, client_for):
    from tests.factories import CharacterFactory

    mine = CharacterFactory(owner=outsider, campaign=None)
    assert client_for(outsider).get(f"/characters/{mine.pk}/").status_code == 200
    assert client_for(player).get(f"/characters/{mine.pk}/").status_code == 404
    assert client_for(outsider).post(f"/characters/{mine.pk}/level-up/").status_code == 403


def test_an_owner_who_left_the_campaign_keeps_her_character(character, player, client_for):
    from campaign.models import Membership

    Membership.objects.filter(user=player).delete()
    assert client_for(player).get(f"/characters/{character.pk}/").status_code == 200
    assert Character.objects.filter(pk=character.pk).exists()


def test_malformed_ids_are_404_not_500(api_for, client_for, player):
    assert api_for(player).get("/api/characters/?campaign=abc").status_code == 404
    assert (
        api_for(player)
        .post("/api/characters/", {"campaign": 999999, "draft": {}}, format="json")
        .status_code
        == 404
    )
    assert client_for(player).get("/characters/new/?campaign=x").status_code == 404
