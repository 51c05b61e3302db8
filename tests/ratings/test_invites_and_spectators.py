"""Invite links, spectators and public rules pages (issue 39, "Invites, spectators,
rematch")."""

from __future__ import annotations

import pytest

from minigames import services
from minigames.invites import invite_path, invite_token
from minigames.models import TavernSeat
from tables import presence
from tests.minigames.conftest import one_open_seat, two_humans

pytestmark = pytest.mark.django_db


def test_the_invite_link_takes_the_open_seat(client_for, player, other_player):
    table = one_open_seat(player, "rso")
    host = client_for(player).get(f"/tavern/tables/{table.pk}/")
    link = invite_path(table)
    text = host.content.decode()
    assert f"http://testserver{link}" in text and 'id="tavern-invite-copy"' in text
    assert '<svg role="img"' in text  # the QR code, for phones
    guest = client_for(other_player)
    page = guest.get(link)
    assert page.status_code == 200 and "Take a seat" in page.content.decode()
    taken = guest.post(link)
    assert taken.status_code == 302 and taken["Location"] == f"/tavern/tables/{table.pk}/"
    assert TavernSeat.objects.get(table=table, index=1).user == other_player
    # seated, the link shows no invitation any more
    assert (
        'id="tavern-invite"'
        not in client_for(player).get(f"/tavern/tables/{table.pk}/").content.decode()
    )


def test_a_signed_out_visitor_signs_in_and_comes_back(client_for, player):
    table = one_open_seat(player, "rso")
    link = invite_path(table)
    answer = client_for(None).get(link)
    assert answer.status_code == 302
    assert answer["Location"] == f"/accounts/login/?next={link.replace(':', '%3A')}"


def test_a_full_or_ended_table_says_so_in_words(client_for, api_for, player, other_player, gm):
    table = two_humans("rso", player, other_player, start=False)
    link = invite_path(table)
    page = client_for(gm).get(link)
    assert "Every seat at this table is taken." in page.content.decode()
    refused = client_for(gm).post(link)
    assert refused.status_code == 400
    assert "Every seat at this table is taken." in refused.content.decode()
    api = api_for(gm).post(f"/api/tavern/invites/{invite_token(table)}/", {}, format="json")
    assert api.status_code == 400
    assert api.json()["errors"]["seat"] == ["Every seat at this table is taken."]
    services.tavern_start(table_id=table.pk, by=player)
    services.tavern_resign(table_id=table.pk, by=other_player)
    ended = client_for(gm).post(link)
    assert ended.status_code == 400
    assert "This game has ended: the invitation is over." in ended.content.decode()


def test_the_api_takes_a_seat_from_a_token(api_for, player, other_player):
    table = one_open_seat(player, "dbs")
    api = api_for(other_player)
    url = f"/api/tavern/invites/{invite_token(table)}/"
    seen = api.get(url)
    assert seen.status_code == 200 and seen.json()["invite"] == invite_path(table)
    taken = api.post(url, {"seat": 1}, format="json")
    assert taken.status_code == 200
    assert taken.json()["seats"][1]["you"] is True and taken.json()["invite"] == ""


@pytest.mark.parametrize(
    ("token", "status"),
    [("1:forged", 404), ("x" * 200, 404), ("12", 404), ("%00", 404)],
)
def test_a_forged_token_names_no_table(api_for, client_for, player, token, status):
    assert api_for(player).get(f"/api/tavern/invites/{token}/").status_code == status
    assert client_for(player).get(f"/tavern/invite/{token}/").status_code == status


def test_bad_invite_input_is_a_400_in_words(api_for, player, other_player):
    table = one_open_seat(player, "rso")
    url = f"/api/tavern/invites/{invite_token(table)}/"
    bad = api_for(other_player).post(url, {"seat": "first"}, format="json")
    assert bad.status_code == 400 and "seat" in bad.json()["errors"]
    taken = api_for(other_player).post(url, {"seat": 0}, format="json")
    assert taken.status_code == 400 and taken.json()["errors"]["seat"] == ["That seat is taken."]


def test_a_campaign_tables_link_is_its_members_only(client_for, player, outsider, campaign):
    table = one_open_seat(player, "rso", campaign=campaign)
    assert client_for(outsider).get(invite_path(table)).status_code == 404
    assert client_for(outsider).post(invite_path(table)).status_code == 404
    assert TavernSeat.objects.get(table=table, index=1).user is None


def test_spectators_are_the_unseated_people_here(api_for, client_for, player, other_player, gm):
    table = one_open_seat(player, "rso")
    label = table._meta.label_lower
    presence.seen(label, table.pk, "socket-host", player.pk, visible=True)
    presence.seen(label, table.pk, "socket-gm", gm.pk, visible=True)
    presence.seen(label, table.pk, "socket-away", other_player.pk, visible=False)
    try:
        answer = api_for(other_player).get(f"/api/tavern/tables/{table.pk}/spectators/")
        assert answer.status_code == 200
        assert [s["name"] for s in answer.json()["spectators"]] == [str(gm)]
        page = client_for(player).get(f"/tavern/tables/{table.pk}/").content.decode()
        assert f"Watching: {gm}." in page
    finally:
        for channel, user in (
            ("socket-host", player),
            ("socket-gm", gm),
            ("socket-away", other_player),
        ):
            presence.gone(label, table.pk, channel, user.pk)


def test_the_spectators_of_a_table_one_may_not_see_are_a_404(api_for, player, outsider, campaign):
    table = one_open_seat(player, "rso", campaign=campaign)
    assert api_for(outsider).get(f"/api/tavern/tables/{table.pk}/spectators/").status_code == 404
