"""The campaign's map library (issue 14): uploads checked by content and size, grid alignment,
a battle's map in the view payload, permissions, and the image served to members only."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from battles import maps
from battles.models import BattleMap

pytestmark = pytest.mark.django_db


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return tmp_path / "media"


def image(kind: str = "PNG", size: tuple[int, int] = (640, 480)) -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", size, (40, 90, 60)).save(buffer, format=kind)
    return buffer.getvalue()


def upload(client, campaign, data: bytes, name: str = "cave.png", **fields):
    return client.post(
        f"/api/campaigns/{campaign.pk}/maps/",
        {"name": "Cave", "image": SimpleUploadedFile(name, data), **fields},
        format="multipart",
    )


@pytest.mark.parametrize(
    ("kind", "content_type"), [("PNG", "image/png"), ("JPEG", "image/jpeg"), ("WEBP", "image/webp")]
)
def test_maps_are_recognised_by_content_not_name(kind, content_type):
    info = maps.map_validate(SimpleUploadedFile("map.txt", image(kind)))
    assert (info.content_type, info.width, info.height) == (content_type, 640, 480)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"<html><script>alert(1)</script></html>", "not an image"),
        (image("GIF"), "GIF images are not accepted"),
        (image("PNG", (32, 32)), "between 64 and 8192"),
        (image("PNG")[:60], "damaged"),
        (b"", "empty"),
    ],
)
def test_what_is_not_a_usable_map_is_refused_in_words(api_for, gm, campaign, media, data, words):
    response = upload(api_for(gm), campaign, data)
    assert response.status_code == 400
    assert words in response.json()["errors"]["image"][0]
    assert not BattleMap.objects.exists()


def test_an_oversized_map_is_a_field_error(api_for, gm, campaign, media):
    big = image() + b"\0" * (maps.MAP_MAX_BYTES + 1)
    response = upload(api_for(gm), campaign, big)
    assert response.status_code == 400
    assert "upload at most 8 MB" in response.json()["errors"]["image"][0]


def test_gm_uploads_and_aligns_players_read_only(api_for, gm, player, outsider, campaign, media):
    response = upload(api_for(gm), campaign, image(), cols="10")
    assert response.status_code == 201, response.content
    made = response.json()
    assert (made["cols"], made["square_px"], made["rows"]) == (10, 64, 7)  # 640 / 10, 480 // 64
    assert upload(api_for(player), campaign, image()).status_code == 403
    assert api_for(outsider).get(f"/api/campaigns/{campaign.pk}/maps/").status_code == 404
    listed = api_for(player).get(f"/api/campaigns/{campaign.pk}/maps/").json()
    assert [m["name"] for m in listed] == ["Cave"]
    url = f"/api/maps/{made['id']}/"
    changed = api_for(gm).patch(url, {"offset_x": 5, "square_px": 60, "cols": 8}, format="json")
    assert changed.status_code == 200 and changed.json()["offset_x"] == 5
    for field, value in (("offset_x", 640), ("square_px", 2), ("rows", 41)):
        bad = api_for(gm).patch(url, {field: value}, format="json")
        assert bad.status_code == 400 and field in bad.json()["errors"], field
    assert api_for(player).patch(url, {"offset_x": 1}, format="json").status_code == 403
    # the image: members only, with the type its content gave it
    image_url = made["url"]
    client = api_for(player)
    client.force_login(player)
    got = client.get(image_url)
    assert got.status_code == 200 and got["Content-Type"] == "image/png"
    assert got["X-Content-Type-Options"] == "nosniff"
    assert b"".join(got.streaming_content).startswith(b"\x89PNG")  # (closes the file)
    stranger = api_for(outsider)
    stranger.force_login(outsider)
    assert stranger.get(image_url).status_code == 404
    assert api_for(player).delete(url).status_code == 403
    assert api_for(gm).delete(url).status_code == 204
    assert not BattleMap.objects.exists()


def test_a_battle_on_a_map_sends_the_contract_and_takes_its_size(
    api_for, gm, player, campaign, setup_battle, media
):
    made = upload(api_for(gm), campaign, image(), cols="8", rows="6").json()
    pk = setup_battle.battle.pk
    version = setup_battle.version
    response = api_for(gm).put(
        f"/api/battles/{pk}/map/", {"map": made["id"], "expected_version": version}, format="json"
    )
    assert response.status_code == 200, response.content
    view = api_for(player).get(f"/api/battles/{pk}/state/").json()["view"]
    assert view["map"] == {
        "url": made["url"],
        "name": "Cave",
        "cols": 8,
        "rows": 6,
        "offset_x": 0,
        "offset_y": 0,
        "square_px": 80,
        "width_px": 640,
        "height_px": 480,
    }
    assert (view["arena"]["width"], view["arena"]["height"]) == (8, 6)
    assert view["fog"] == []
    stale = api_for(gm).put(
        f"/api/battles/{pk}/map/", {"map": None, "expected_version": version}, format="json"
    )
    assert stale.status_code == 409
    assert (
        api_for(player).put(f"/api/battles/{pk}/map/", {"map": None}, format="json").status_code
        == 403
    )
    cleared = api_for(gm).put(f"/api/battles/{pk}/map/", {"map": None}, format="json")
    assert cleared.status_code == 200 and cleared.json()["view"]["map"] is None


def test_a_started_battle_takes_only_a_map_of_its_size(api_for, gm, campaign, started, media):
    pk = started.battle.pk
    wrong = upload(api_for(gm), campaign, image(), cols="10").json()
    response = api_for(gm).put(f"/api/battles/{pk}/map/", {"map": wrong["id"]}, format="json")
    assert response.status_code == 400 and "8×6" in response.json()["errors"]["map"][0]
    right = upload(api_for(gm), campaign, image(), cols="8", rows="6").json()
    assert (
        api_for(gm).put(f"/api/battles/{pk}/map/", {"map": right["id"]}, format="json").status_code
        == 200
    )
    resize = api_for(gm).patch(f"/api/maps/{right['id']}/", {"cols": 9}, format="json")
    assert resize.status_code == 400 and "started" in resize.json()["errors"]["cols"][0]
