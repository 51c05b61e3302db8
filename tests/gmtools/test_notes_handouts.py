"""GM notes are private to the GMs everywhere (pages, API, timeline, dashboard payloads);
handouts reach everyone or only the chosen members, files included."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from campaign.permissions import access_for
from gmtools import handouts, notes
from gmtools.models import GMNote, Handout

pytestmark = pytest.mark.django_db

SECRET = "Remilia is the butler."


# --------------------------------------------------------------------------- notes


def test_notes_are_for_gms_and_co_gms_only(campaign, gm, co_gm, player, gm_note):
    assert list(notes.notes_visible_to(access_for(co_gm, campaign))) == [gm_note]
    with pytest.raises(PermissionDenied):
        notes.notes_visible_to(access_for(player, campaign))
    with pytest.raises(PermissionDenied):
        notes.note_create(
            campaign=campaign, by=access_for(player, campaign), author=player, title="Mine"
        )


def test_note_pages_and_api_per_role(campaign, gm, player, outsider, gm_note, client_for, api_for):
    for user, page_status, api_status in ((gm, 200, 200), (player, 403, 403), (outsider, 404, 404)):
        page = client_for(user).get(f"/campaigns/{campaign.pk}/notes/")
        assert page.status_code == page_status
        assert (SECRET in page.content.decode()) is (user == gm)
        api = api_for(user).get(f"/api/campaigns/{campaign.pk}/notes/")
        assert api.status_code == api_status
        assert (SECRET in api.content.decode()) is (user == gm)
        one = api_for(user).get(f"/api/campaigns/{campaign.pk}/notes/{gm_note.pk}/")
        assert one.status_code == api_status


def test_players_never_see_a_note_anywhere(
    campaign, gm, player, gm_note, character, handout_all, client_for, api_for
):
    """Every page and API answer a player can reach in the campaign, none with the note."""
    pages = [
        f"/campaigns/{campaign.pk}/",
        f"/campaigns/{campaign.pk}/timeline/",
        f"/campaigns/{campaign.pk}/sessions/",
        f"/campaigns/{campaign.pk}/handouts/",
        f"/campaigns/{campaign.pk}/members/",
        f"/campaigns/{campaign.pk}/dashboard/",
        f"/campaigns/{campaign.pk}/dashboard/live/",
        f"/characters/{character.pk}/",
    ]
    for url in pages:
        response = client_for(player).get(url)
        assert SECRET not in response.content.decode(), url
        assert "Secret twist" not in response.content.decode(), url
    apis = [
        f"/api/campaigns/{campaign.pk}/",
        f"/api/campaigns/{campaign.pk}/timeline/",
        f"/api/campaigns/{campaign.pk}/dashboard/",
        f"/api/campaigns/{campaign.pk}/handouts/",
        f"/api/campaigns/{campaign.pk}/sessions/",
        f"/api/campaigns/{campaign.pk}/notes/",
    ]
    for url in apis:
        response = api_for(player).get(url)
        assert SECRET not in response.content.decode(), url
    # ... while the GM's dashboard, live refresh and API state do carry it
    assert SECRET in client_for(gm).get(f"/api/campaigns/{campaign.pk}/dashboard/").content.decode()
    live = client_for(gm).get(f"/campaigns/{campaign.pk}/dashboard/live/").json()
    assert "Secret twist" in live["panels"]["notes"]


def test_note_api_crud(campaign, gm, game_session, api_for):
    api = api_for(gm)
    created = api.post(
        f"/api/campaigns/{campaign.pk}/notes/",
        {"title": "Plan", "body": "B", "session": game_session.pk},
        format="json",
    )
    assert created.status_code == 201
    nid = created.json()["id"]
    changed = api.patch(
        f"/api/campaigns/{campaign.pk}/notes/{nid}/", {"session": None, "body": "C"}, format="json"
    )
    assert changed.json()["session"] is None
    assert changed.json()["body"] == "C"
    kept = api.patch(f"/api/campaigns/{campaign.pk}/notes/{nid}/", {"title": "T"}, format="json")
    assert kept.status_code == 200
    assert kept.json()["title"] == "T"
    bad = api.post(f"/api/campaigns/{campaign.pk}/notes/", {"title": "x", "session": 99999})
    assert bad.status_code == 400
    assert "session" in bad.json()["errors"]
    assert api.delete(f"/api/campaigns/{campaign.pk}/notes/{nid}/").status_code == 204
    assert not GMNote.objects.exists()


def test_note_pages_create_edit_delete(campaign, gm, client_for):
    client = client_for(gm)
    assert (
        client.post(
            f"/campaigns/{campaign.pk}/notes/", {"title": "Hook", "body": "Frogs"}
        ).status_code
        == 302
    )
    note = GMNote.objects.get()
    assert (
        client.post(
            f"/campaigns/{campaign.pk}/notes/{note.pk}/edit/", {"title": "Hook 2", "body": ""}
        ).status_code
        == 302
    )
    note.refresh_from_db()
    assert note.title == "Hook 2"
    assert client.post(f"/campaigns/{campaign.pk}/notes/{note.pk}/delete/").status_code == 302
    assert not GMNote.objects.exists()


# --------------------------------------------------------------------------- handouts


def test_handout_visibility(campaign, gm, player, other_player, handout_all, handout_private):
    assert set(handouts.handouts_visible_to(access_for(gm, campaign))) == {
        handout_all,
        handout_private,
    }
    assert set(handouts.handouts_visible_to(access_for(player, campaign))) == {
        handout_all,
        handout_private,
    }
    assert list(handouts.handouts_visible_to(access_for(other_player, campaign))) == [handout_all]


def test_handout_pages_and_api_per_viewer(
    campaign, gm, player, other_player, handout_all, handout_private, client_for, api_for
):
    url = f"/campaigns/{campaign.pk}/handouts/{handout_private.pk}/"
    api_url = f"/api/campaigns/{campaign.pk}/handouts/{handout_private.pk}/"
    assert client_for(player).get(url).status_code == 200
    assert client_for(other_player).get(url).status_code == 404
    assert api_for(other_player).get(api_url).status_code == 404
    listed = api_for(other_player).get(f"/api/campaigns/{campaign.pk}/handouts/").json()
    assert [h["id"] for h in listed] == [handout_all.pk]
    mine = api_for(player).get(api_url).json()
    assert mine["recipients"] == []  # a player does not learn who else got it
    assert api_for(gm).get(api_url).json()["recipients"] == [player.pk]
    page = client_for(other_player).get(f"/campaigns/{campaign.pk}/handouts/").content.decode()
    assert "Letter for one" not in page


def test_handouts_only_to_members_and_with_someone_chosen(campaign, gm, outsider):
    access = access_for(gm, campaign)
    with pytest.raises(ValidationError) as stranger:
        handouts.handout_create(
            campaign=campaign,
            by=access,
            author=gm,
            title="x",
            shared_with_all=False,
            recipient_ids=[outsider.pk],
        )
    assert "recipients" in stranger.value.message_dict
    with pytest.raises(ValidationError):
        handouts.handout_create(
            campaign=campaign, by=access, author=gm, title="x", shared_with_all=False
        )
    assert not Handout.objects.exists()


def test_handout_files_are_served_only_to_those_who_may_see_them(
    campaign, gm, player, other_player, outsider, media, client_for
):
    client = client_for(gm)
    response = client.post(
        f"/campaigns/{campaign.pk}/handouts/",
        {
            "title": "Secret map",
            "body": "",
            "recipients": [player.pk],
            "file": SimpleUploadedFile("map.txt", b"X marks the spot", content_type="text/plain"),
        },
    )
    assert response.status_code == 302, response.content
    handout = Handout.objects.get()
    assert handout.file_name == "map.txt"
    assert "map" not in handout.file.name.rsplit("/", 1)[-1]  # stored under a random name
    url = f"/campaigns/{campaign.pk}/handouts/{handout.pk}/file/"
    download = client_for(player).get(url)
    assert download.status_code == 200
    assert b"".join(download.streaming_content) == b"X marks the spot"
    assert download["Content-Disposition"].startswith("attachment")
    assert download["X-Content-Type-Options"] == "nosniff"
    assert client_for(other_player).get(url).status_code == 404
    assert client_for(outsider).get(url).status_code == 404
    assert client_for(None).get(url).status_code == 302


def test_handout_files_of_risky_kinds_are_refused(campaign, gm, media, client_for, api_for):
    response = client_for(gm).post(
        f"/campaigns/{campaign.pk}/handouts/",
        {
            "title": "Trap",
            "shared_with_all": "on",
            "file": SimpleUploadedFile("x.html", b"<script>alert(1)</script>"),
        },
    )
    assert response.status_code == 400
    assert "file" in response.context["form"].errors
    api = api_for(gm).post(
        f"/api/campaigns/{campaign.pk}/handouts/",
        {"title": "Trap", "file": SimpleUploadedFile("x.svg", b"<svg/>")},
        format="multipart",
    )
    assert api.status_code == 400
    assert "file" in api.json()["errors"]
    assert not Handout.objects.exists()


def test_handout_api_crud(campaign, gm, player, other_player, api_for):
    api = api_for(gm)
    created = api.post(
        f"/api/campaigns/{campaign.pk}/handouts/",
        {"title": "Rumour", "body": "Psst", "shared_with_all": False, "recipients": [player.pk]},
        format="json",
    )
    assert created.status_code == 201, created.content
    hid = created.json()["id"]
    assert (
        api_for(other_player).get(f"/api/campaigns/{campaign.pk}/handouts/{hid}/").status_code
        == 404
    )
    api.patch(
        f"/api/campaigns/{campaign.pk}/handouts/{hid}/", {"shared_with_all": True}, format="json"
    )
    assert (
        api_for(other_player).get(f"/api/campaigns/{campaign.pk}/handouts/{hid}/").status_code
        == 200
    )
    assert (
        api_for(player).delete(f"/api/campaigns/{campaign.pk}/handouts/{hid}/").status_code == 403
    )
    assert api.delete(f"/api/campaigns/{campaign.pk}/handouts/{hid}/").status_code == 204


def test_handout_with_recipients_and_no_shared_with_all_is_for_them_only(
    campaign, gm, player, other_player, api_for
):
    response = api_for(gm).post(
        f"/api/campaigns/{campaign.pk}/handouts/",
        {"title": "For Reimu only", "body": "Meet me at dawn.", "recipients": [player.pk]},
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["shared_with_all"] is False
    assert body["recipients"] == [player.pk]
    url = f"/api/campaigns/{campaign.pk}/handouts/{body['id']}/"
    assert api_for(player).get(url).status_code == 200
    assert api_for(other_player).get(url).status_code == 404
    listed = api_for(other_player).get(f"/api/campaigns/{campaign.pk}/handouts/").json()
    assert all(h["id"] != body["id"] for h in listed)


def test_handout_without_recipients_is_still_shared_with_everyone(campaign, gm, api_for):
    response = api_for(gm).post(
        f"/api/campaigns/{campaign.pk}/handouts/", {"title": "News"}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["shared_with_all"] is True


def test_handout_shared_with_all_and_recipients_conflict(campaign, gm, player, api_for):
    response = api_for(gm).post(
        f"/api/campaigns/{campaign.pk}/handouts/",
        {"title": "Both", "shared_with_all": True, "recipients": [player.pk]},
        format="json",
    )
    assert response.status_code == 400, response.content
    assert "conflict" in " ".join(response.json()["errors"]["recipients"])
    assert not Handout.objects.exists()


def test_handout_patch_with_recipients_narrows_and_conflicts_are_refused(
    campaign, gm, player, other_player, handout_all, api_for
):
    api = api_for(gm)
    url = f"/api/campaigns/{campaign.pk}/handouts/{handout_all.pk}/"
    both = api.patch(url, {"shared_with_all": True, "recipients": [player.pk]}, format="json")
    assert both.status_code == 400, both.content
    assert "conflict" in " ".join(both.json()["errors"]["recipients"])
    handout_all.refresh_from_db()
    assert handout_all.shared_with_all is True
    assert not handout_all.recipients.exists()

    narrowed = api.patch(url, {"recipients": [player.pk]}, format="json")
    assert narrowed.status_code == 200, narrowed.content
    assert narrowed.json()["shared_with_all"] is False
    assert narrowed.json()["recipients"] == [player.pk]
    assert api_for(other_player).get(url).status_code == 404
    assert api_for(player).get(url).status_code == 200

    widened = api.patch(url, {"shared_with_all": True}, format="json")
    assert widened.status_code == 200, widened.content
    assert widened.json()["shared_with_all"] is True
    assert widened.json()["recipients"] == []  # no stale list left under a shared handout
    assert api_for(other_player).get(url).status_code == 200


def test_handout_form_bodies_without_shared_with_all_keep_the_defaults(
    campaign, gm, player, other_player, handout_all, api_for
):
    api = api_for(gm)
    renamed = api.patch(
        f"/api/campaigns/{campaign.pk}/handouts/{handout_all.pk}/",
        {"title": "Map, new"},
        format="multipart",
    )
    assert renamed.status_code == 200, renamed.content
    assert renamed.json()["shared_with_all"] is True
    created = api.post(
        f"/api/campaigns/{campaign.pk}/handouts/", {"title": "Notice"}, format="multipart"
    )
    assert created.status_code == 201, created.content
    assert created.json()["shared_with_all"] is True
    private = api.post(
        f"/api/campaigns/{campaign.pk}/handouts/",
        {"title": "Psst", "recipients": [player.pk]},
        format="multipart",
    )
    assert private.status_code == 201, private.content
    assert private.json()["shared_with_all"] is False
    url = f"/api/campaigns/{campaign.pk}/handouts/{private.json()['id']}/"
    assert api_for(other_player).get(url).status_code == 404


def _png() -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (4, 4), "red").save(out, format="PNG")
    return out.getvalue()


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("x.png", b"<html><script>alert(1)</script></html>", "HTML or SVG"),
        ("x.txt", b"<!DOCTYPE html><p>hi</p>", "HTML or SVG"),
        ("notes.md", b"# Notes\n\n<script>alert(1)</script>\n", "HTML or SVG"),
        ("map.jpg", b"\n  <svg xmlns='http://www.w3.org/2000/svg'/>", "HTML or SVG"),
        ("map.png", b"just some words", "is not one"),
        ("rules.pdf", b"plain words", "not a PDF"),
        ("x.txt", b"\xff\xfe\x00b\x00i\x00n", "UTF-8 text"),
    ],
)
def test_handout_files_are_checked_by_content_not_name(
    campaign, gm, media, client_for, api_for, name, content, words
):
    """docs/campaigns.md: handouts take "no HTML or SVG"; a page named x.png was accepted."""
    response = client_for(gm).post(
        f"/campaigns/{campaign.pk}/handouts/",
        {"title": "Trap", "shared_with_all": "on", "file": SimpleUploadedFile(name, content)},
    )
    assert response.status_code == 400
    (message,) = response.context["form"].errors["file"]
    assert words in message
    api = api_for(gm).post(
        f"/api/campaigns/{campaign.pk}/handouts/",
        {"title": "Trap", "file": SimpleUploadedFile(name, content)},
        format="multipart",
    )
    assert api.status_code == 400
    assert words in api.json()["errors"]["file"][0]
    assert not Handout.objects.exists()


def test_real_pictures_pdfs_and_text_are_still_shared(campaign, gm, media, api_for):
    for name, content in [
        ("map.png", _png()),
        ("rules.pdf", b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"),
        ("notes.md", b"# The lake\n\nFrogs < fairies.\n"),
    ]:
        response = api_for(gm).post(
            f"/api/campaigns/{campaign.pk}/handouts/",
            {"title": name, "file": SimpleUploadedFile(name, content)},
            format="multipart",
        )
        assert response.status_code == 201, response.content
    assert Handout.objects.count() == 3
