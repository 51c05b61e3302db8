"""The campaign wiki (issue 43, "The wiki"): secrets per entry and per section for every seat,
reveals on the timeline, mentions by id, search, history, bounded input and safe Markdown."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from campaign.permissions import access_for
from wiki import search, services
from wiki.models import Entry

pytestmark = pytest.mark.django_db


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (32, 32), "red").save(buffer, "PNG")
    return buffer.getvalue()


def test_every_seat_sees_only_what_it_may(
    world, campaign, gm, player, other_player, outsider, client_for, api_for
):
    c, w = campaign.pk, world
    # What each seat may see: entries, and the words only a hidden section holds.
    seats = {
        "gm": (gm, {w.mansion, w.plan, w.patchouli}, {"sunlight", "grimoire"}),
        "player": (player, {w.mansion, w.patchouli}, set()),
        "other": (other_player, {w.mansion}, set()),
    }
    everything = [w.mansion, w.plan, w.patchouli]
    for name, (user, sees, words) in seats.items():
        page, api = client_for(user), api_for(user)
        for entry in everything:
            code = 200 if entry in sees else 404
            assert page.get(f"/campaigns/{c}/wiki/{entry.pk}/").status_code == code, (name, entry)
            assert api.get(f"/api/campaigns/{c}/wiki/entries/{entry.pk}/").status_code == code
        listed = {e["id"] for e in api.get(f"/api/campaigns/{c}/wiki/entries/").json()}
        assert listed == {e.pk for e in sees}, name
        listing = page.get(f"/campaigns/{c}/wiki/").content.decode()
        for entry in everything:
            assert (entry.title.replace("'", "&#x27;") in listing) == (entry in sees), name
        for word in ("sunlight", "grimoire"):
            found = api.get(f"/api/campaigns/{c}/wiki/search/", {"q": word}).json()
            assert bool(found) == (word in words), (name, word)
            assert bool(search.search(access_for(user, campaign), word, "substring")) == (
                word in words
            )
        mentions = api.get(f"/api/campaigns/{c}/wiki/mentions/", {"q": "Rem"}).json()
        assert bool(mentions) == (w.plan in sees), name
        # The mansion's backlinks: Patchouli links to it only through the plan for the GM.
        mansion = api.get(f"/api/campaigns/{c}/wiki/entries/{w.mansion.pk}/").json()
        assert {e["id"] for e in mansion["linked_from"]} == ({w.plan.pk} & {e.pk for e in sees})
        text = str(mansion)
        # Players get no source (its mentions carry hidden ids) and no list of who knows what.
        assert (mansion["body"] is None) == (name != "gm")
        assert (mansion["viewers"] is None) == (name != "gm")
        assert "Patchouli" in text if w.patchouli in sees else "Patchouli" not in text
    # Patchouli's page, for the player who knows her: a mention of the hidden plan and the
    # sections of others are not in the page at all.
    html = client_for(player).get(f"/campaigns/{c}/wiki/{w.patchouli.pk}/").content.decode()
    assert "not learned yet" in html and "plan" not in html
    assert "sunlight" not in html and "grimoire" not in html and "Weakness" not in html
    data = api_for(other_player).get(f"/api/campaigns/{c}/wiki/entries/{w.mansion.pk}/").json()
    assert "not learned yet" in data["body_html"] and "Patchouli" not in data["body_html"]
    # A non-member: every wiki address is a 404, page and API.
    for path in (
        f"/campaigns/{c}/wiki/",
        f"/campaigns/{c}/wiki/{w.mansion.pk}/",
        f"/campaigns/{c}/wiki/{w.mansion.pk}/history/",
    ):
        assert client_for(outsider).get(path).status_code == 404
    for path in ("entries/", f"entries/{w.mansion.pk}/", "search/?q=mansion", "mentions/?q=S"):
        assert api_for(outsider).get(f"/api/campaigns/{c}/wiki/{path}").status_code == 404
    # Players read; only GMs write or read the history.
    assert (
        api_for(player)
        .post(f"/api/campaigns/{c}/wiki/entries/", {"title": "Mine", "kind": "lore"}, format="json")
        .status_code
        == 403
    )
    assert (
        client_for(player).get(f"/campaigns/{c}/wiki/{w.patchouli.pk}/history/").status_code == 403
    )
    assert (
        api_for(gm).get(f"/api/campaigns/{c}/wiki/entries/{w.plan.pk}/history/").status_code == 200
    )


def test_a_secret_revealed_in_one_click_shows_on_the_timeline_for_those_told(
    world, campaign, gm, player, other_player, client_for, api_for
):
    c, w = campaign.pk, world
    url = f"/campaigns/{c}/wiki/{w.plan.pk}/reveal/"
    response = client_for(gm).post(url, {"to": "players", "players": [player.pk]})
    assert response.status_code == 302
    assert client_for(player).get(f"/campaigns/{c}/wiki/{w.plan.pk}/").status_code == 200
    assert client_for(other_player).get(f"/campaigns/{c}/wiki/{w.plan.pk}/").status_code == 404

    def timeline(user):
        rows = api_for(user).get(f"/api/campaigns/{c}/timeline/", {"kind": "wiki_reveal"})
        return [e["title"] for e in rows.json()["results"]]

    assert timeline(player) == ["Revealed: Remilia's plan"]
    assert timeline(other_player) == []
    # One section to everyone: the whole table now reads the library, not the weakness.
    api_for(gm).post(
        f"/api/campaigns/{c}/wiki/entries/{w.patchouli.pk}/reveal/",
        {"section": w.library.pk, "to_everyone": True},
        format="json",
    )
    html = client_for(other_player).get(f"/campaigns/{c}/wiki/{w.patchouli.pk}/").content
    assert b"grimoire" in html and b"sunlight" not in html
    assert "Revealed: Patchouli Knowledge: The library" in timeline(other_player)


def test_renaming_keeps_every_link(world, campaign, gm, player, client_for, api_for):
    c, w = campaign.pk, world
    response = api_for(gm).patch(
        f"/api/campaigns/{c}/wiki/entries/{w.patchouli.pk}/",
        {"title": "Patchy the Librarian"},
        format="json",
    )
    assert response.status_code == 200
    mansion = api_for(player).get(f"/api/campaigns/{c}/wiki/entries/{w.mansion.pk}/").json()
    link = f'href="/campaigns/{c}/wiki/{w.patchouli.pk}/"'
    assert link in mansion["body_html"] and "Patchy the Librarian" in mansion["body_html"]
    patchy = api_for(player).get(f"/api/campaigns/{c}/wiki/entries/{w.patchouli.pk}/").json()
    assert [e["title"] for e in patchy["linked_from"]] == ["Scarlet Devil Mansion"]
    # A character is mentioned the same way, and her sheet is the link.
    plan = api_for(gm).get(f"/api/campaigns/{c}/wiki/entries/{w.plan.pk}/").json()
    assert f'href="/characters/{w.cirno.pk}/"' in plan["body_html"]
    assert plan["body"].endswith(f"@[[character:{w.cirno.pk}]] is bait.")


def test_history_names_who_changed_what_and_restores_an_older_version(
    world, campaign, gm, client_for, api_for
):
    c, w = campaign.pk, world
    api = api_for(gm)
    base = f"/api/campaigns/{c}/wiki/entries/{w.mansion.pk}/"
    api.patch(base, {"body": "Burnt down."}, format="json")
    history = api.get(base + "history/").json()
    assert [(v["number"], v["changed"]) for v in history][:2] == [
        (2, ["body"]),
        (1, history[1]["changed"]),
    ]
    assert history[0]["by"] == gm.shown_name
    page = client_for(gm).get(f"/campaigns/{c}/wiki/{w.mansion.pk}/history/")
    assert b"Changed: the text" in page.content
    response = client_for(gm).post(f"/campaigns/{c}/wiki/{w.mansion.pk}/history/1/restore/")
    assert response.status_code == 302
    assert Entry.objects.get(pk=w.mansion.pk).body.startswith("A red mansion by the lake.")
    assert api.get(base + "history/").json()[0]["number"] == 3
    assert api.post(base + "history/99/restore/").status_code == 400


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"title": "x" * 121, "kind": "lore"}, "title"),
        ({"title": "A", "kind": "dragon"}, "kind"),
        ({"title": "A", "kind": "lore", "tags": ["t"] * 13}, "tags"),
        ({"title": "A", "kind": "lore", "tags": "not a list"}, "tags"),
        ({"title": "A", "kind": "lore", "body": "x" * 20_001}, "body"),
        ({"title": "A", "kind": "lore", "members": ["x"]}, "members"),
        ({"title": "A", "kind": "lore", "visibility": "chosen"}, "viewers"),
        ({"title": "A", "kind": "lore", "visibility": "chosen", "viewers": [1 << 40]}, "viewers"),
        ({"title": "A", "kind": "place", "parent": 999_999}, "parent"),
        ({"title": "A", "kind": "lore", "visibility": "secret"}, "visibility"),
    ],
)
def test_bad_input_is_a_400_on_its_field(world, campaign, gm, api_for, payload, field):
    response = api_for(gm).post(
        f"/api/campaigns/{campaign.pk}/wiki/entries/", payload, format="json"
    )
    assert response.status_code == 400, response.content
    assert field in str(response.json())


def test_the_forms_refuse_in_words(world, campaign, gm, client_for, api_for):
    page = client_for(gm)
    c = campaign.pk
    for path in ("search/?q=a%00b", "mentions/?q=%00", "entries/?kind=%00&tag=%00"):
        assert api_for(gm).get(f"/api/campaigns/{c}/wiki/{path}").status_code == 200
    bad = page.post(f"/campaigns/{c}/wiki/new/", {"title": "", "kind": "lore", "visibility": "gm"})
    assert bad.status_code == 400
    fake = SimpleUploadedFile("map.png", b"<html>not a picture</html>", content_type="image/png")
    bad = page.post(
        f"/campaigns/{c}/wiki/new/",
        {"title": "Map", "kind": "item", "visibility": "gm", "image": fake},
    )
    assert bad.status_code == 400 and b"PNG, JPEG, GIF or WebP" in bad.content
    cycle = page.post(
        f"/campaigns/{c}/wiki/{world.mansion.pk}/edit/",
        {"title": "Mansion", "kind": "place", "visibility": "all", "parent": world.mansion.pk},
    )
    assert cycle.status_code == 400


def test_markdown_is_rendered_and_sanitized(campaign, gm, api_for):
    api = api_for(gm)
    body = "# Notes\n\n<script>alert(1)</script> **bold** [x](javascript:alert(1)) <img src=x>"
    made = api.post(
        f"/api/campaigns/{campaign.pk}/wiki/entries/",
        {"title": "Notes", "kind": "lore", "body": body},
        format="json",
    )
    html = made.json()["body_html"]
    assert "<h1>Notes</h1>" in html and "<strong>bold</strong>" in html
    assert "<script" not in html and 'href="javascript' not in html and "<img" not in html


def test_pictures_are_checked_and_served_only_to_who_may_see_the_entry(
    world, campaign, gm, player, other_player, api_for, client_for
):
    c = campaign.pk
    picture = SimpleUploadedFile("p.png", _png(), content_type="image/png")
    response = api_for(gm).patch(
        f"/api/campaigns/{c}/wiki/entries/{world.patchouli.pk}/",
        {"image": picture},
        format="multipart",
    )
    assert response.status_code == 200
    url = response.json()["image_url"]
    shown = client_for(player).get(url)
    assert shown.status_code == 200 and shown["Content-Type"] == "image/png"
    assert b"".join(shown.streaming_content) == _png()
    assert client_for(other_player).get(url).status_code == 404
    Entry.objects.get(pk=world.patchouli.pk).image.delete()


def test_a_gm_adds_a_kind_and_the_kinds_fields(world, campaign, gm, player, client_for, api_for):
    c, api = campaign.pk, api_for(gm)
    assert client_for(gm).post(f"/campaigns/{c}/wiki/", {"name": "Spell card"}).status_code == 302
    assert (
        api.post(
            f"/api/campaigns/{c}/wiki/kinds/", {"name": "spell card"}, format="json"
        ).status_code
        == 400
    )
    kinds = {k["key"] for k in api.get(f"/api/campaigns/{c}/wiki/kinds/").json()}
    assert {"character", "place", "faction", "item", "lore", "event", "spell-card"} <= kinds
    hall = api.post(
        f"/api/campaigns/{c}/wiki/entries/",
        {"title": "Great hall", "kind": "place", "parent": world.mansion.pk, "visibility": "all"},
        format="json",
    ).json()
    assert hall["parent"]["title"] == "Scarlet Devil Mansion"
    staff = api.post(
        f"/api/campaigns/{c}/wiki/entries/",
        {"title": "Mansion staff", "kind": "faction", "visibility": "all",
         "members": [world.patchouli.pk, world.plan.pk]},
        format="json",
    ).json()  # fmt: skip
    assert len(staff["members"]) == 2
    seen = api_for(player).get(f"/api/campaigns/{c}/wiki/entries/{staff['id']}/").json()
    assert [m["title"] for m in seen["members"]] == ["Patchouli Knowledge"]
    mansion = api_for(player).get(f"/api/campaigns/{c}/wiki/entries/{world.mansion.pk}/").json()
    assert [p["title"] for p in mansion["places_inside"]] == ["Great hall"]


def test_the_gm_pages_open(world, campaign, gm, client_for):
    page, c, p = client_for(gm), campaign.pk, world.patchouli.pk
    for path in (
        f"/campaigns/{c}/wiki/",
        f"/campaigns/{c}/wiki/?q=mist%00&tag=%00",
        f"/campaigns/{c}/wiki/?kind=place",
        f"/campaigns/{c}/wiki/?tag=mansion",
        f"/campaigns/{c}/wiki/new/",
        f"/campaigns/{c}/wiki/{p}/",
        f"/campaigns/{c}/wiki/{p}/edit/",
        f"/campaigns/{c}/wiki/{p}/history/",
        f"/campaigns/{c}/wiki/{p}/sections/{world.weakness.pk}/edit/",
    ):
        assert page.get(path).status_code == 200, path
    saved = page.post(
        f"/campaigns/{c}/wiki/{p}/sections/new/",
        {"heading": "Friends", "body": "@[[Scarlet Devil Mansion]]", "visibility": "all"},
    )
    assert saved.status_code == 302
    services.entry_delete(entry=world.plan, by=access_for(gm, campaign))
    assert page.get(f"/campaigns/{c}/wiki/{world.plan.pk}/").status_code == 404
