"""The table around a battle: chat lines, GM-only whispers and pings (docs/battles.md "The
table log"). Chat and pings are not moves: they never change the battle's version. A whisper
reaches its author, its recipient and the GMs, and no other seat's payload (feed, view, log,
page), checked for every seat."""

from __future__ import annotations

import json
from typing import Any

import pytest

from battles import table_talk
from battles.models import TableChatMessage, TablePing

pytestmark = pytest.mark.django_db


def _post(client: Any, url: str, body: dict[str, Any]) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json")


def _seat_payloads(client: Any, pk: int) -> bytes:
    """Everything one seat can fetch about the battle, concatenated."""
    urls = [
        f"/api/battles/{pk}/table/",
        f"/api/battles/{pk}/table/?chat_after=0",
        f"/api/battles/{pk}/view/",
        f"/api/battles/{pk}/log/?limit=200",
        f"/battles/{pk}/",
    ]
    out = b""
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        out += response.content
    return out


def test_whispers_reach_only_their_author_recipient_and_the_gm(
    setup_battle, client_for, gm, player, other_player
):
    pk = setup_battle.battle.pk
    version = setup_battle.version
    gm_c, p1, p2 = client_for(gm), client_for(player), client_for(other_player)
    chat = f"/api/battles/{pk}/chat/"
    assert _post(p1, chat, {"text": "Hello table"}).status_code == 201
    assert _post(p1, chat, {"text": "SECRET-TO-GM", "whisper_to": "gm"}).status_code == 201
    to_p2 = {"text": "SECRET-FOR-P2", "whisper_to": str(other_player.pk)}
    answer = _post(gm_c, chat, to_p2)
    assert answer.status_code == 201
    assert answer.json()["whisper"] == "to player-two"
    assert setup_battle.version == version  # talking is not a move

    seats = {"gm": gm_c, "p1": p1, "p2": p2}
    payloads = {seat: _seat_payloads(c, pk) for seat, c in seats.items()}
    expected = {
        "gm": {b"Hello table", b"SECRET-TO-GM", b"SECRET-FOR-P2"},
        "p1": {b"Hello table", b"SECRET-TO-GM"},
        "p2": {b"Hello table", b"SECRET-FOR-P2"},
    }
    for seat, seen in expected.items():
        for secret in (b"Hello table", b"SECRET-TO-GM", b"SECRET-FOR-P2"):
            assert (secret in payloads[seat]) == (secret in seen), (seat, secret)


def test_chat_feed_pages_back_and_delivers_new_lines(setup_battle, client_for, player, gm):
    pk = setup_battle.battle.pk
    for i in range(table_talk.CHAT_PAGE + 3):
        TableChatMessage.objects.create(
            battle=setup_battle.battle, author=gm, author_is_gm=True, text=f"line {i}"
        )
    c = client_for(player)
    first = c.get(f"/api/battles/{pk}/table/").json()
    assert [m["text"] for m in first["chat"]][-1] == f"line {table_talk.CHAT_PAGE + 2}"
    assert len(first["chat"]) == table_talk.CHAT_PAGE and first["chat_older"] is True
    older = c.get(f"/api/battles/{pk}/table/?chat_before={first['chat'][0]['id']}").json()
    assert [m["text"] for m in older["chat"]] == ["line 0", "line 1", "line 2"]
    assert older["chat_older"] is False
    last = first["chat"][-1]["id"]
    assert c.get(f"/api/battles/{pk}/table/?chat_after={last}").json()["chat"] == []
    _post(c, f"/api/battles/{pk}/chat/", {"text": "  new   line "})
    fresh = c.get(f"/api/battles/{pk}/table/?chat_after={last}").json()["chat"]
    assert [(m["text"], m["author"], m["whisper"]) for m in fresh] == [
        ("new line", "player-one", None)
    ]


@pytest.mark.parametrize(
    ("who", "body", "field"),
    [
        ("player", {"text": ""}, "text"),
        ("player", {"text": "   "}, "text"),
        ("player", {"text": "x" * (table_talk.CHAT_MAX_LENGTH + 1)}, "text"),
        ("player", {}, "text"),
        ("player", {"text": "hi", "whisper_to": "123"}, "whisper_to"),  # players: GM only
        ("gm", {"text": "hi", "whisper_to": "gm"}, "whisper_to"),
        ("gm", {"text": "hi", "whisper_to": "999999"}, "whisper_to"),  # not in the campaign
        ("gm", {"text": "hi", "whisper_to": "someone"}, "whisper_to"),
        ("gm", {"text": "hi", "whisper_to": "99999999999999999999"}, "whisper_to"),
    ],
)
def test_bad_chat_is_a_400_naming_the_field(setup_battle, client_for, gm, player, who, body, field):
    user = gm if who == "gm" else player
    response = _post(client_for(user), f"/api/battles/{setup_battle.battle.pk}/chat/", body)
    assert response.status_code == 400
    assert field in response.json()["errors"]
    assert not TableChatMessage.objects.exists()


def test_gm_cannot_whisper_to_another_gm_nor_outsiders_read(setup_battle, client_for, gm, outsider):
    pk = setup_battle.battle.pk
    response = _post(
        client_for(gm), f"/api/battles/{pk}/chat/", {"text": "x", "whisper_to": str(gm.pk)}
    )
    assert response.status_code == 400
    assert client_for(outsider).get(f"/api/battles/{pk}/table/").status_code == 404
    assert (
        _post(client_for(outsider), f"/api/battles/{pk}/pings/", {"square": [0, 0]}).status_code
        == 404
    )


def test_chat_is_throttled_in_words(setup_battle, client_for, player):
    c = client_for(player)
    url = f"/api/battles/{setup_battle.battle.pk}/chat/"
    codes = [
        _post(c, url, {"text": f"spam {i}"}).status_code for i in range(table_talk.CHAT_BURST + 1)
    ]
    assert codes[:-1] == [201] * table_talk.CHAT_BURST
    assert codes[-1] == 429
    assert "wait a few seconds" in _post(c, url, {"text": "more"}).json()["detail"]


def test_a_ping_reaches_everyone_without_a_new_version(setup_battle, client_for, gm, player):
    pk = setup_battle.battle.pk
    version = setup_battle.version
    answer = _post(client_for(player), f"/api/battles/{pk}/pings/", {"square": [3, 2]})
    assert answer.status_code == 201
    assert setup_battle.version == version
    feed = client_for(gm).get(f"/api/battles/{pk}/table/?pings_after=0").json()
    assert [(p["square"], p["author"], p["mine"]) for p in feed["pings"]] == [
        ([3, 2], "player-one", False)
    ]
    seen = feed["pings"][0]["id"]
    assert client_for(gm).get(f"/api/battles/{pk}/table/?pings_after={seen}").json()["pings"] == []
    # the poll still says "nothing new" to a screen at this version
    assert client_for(gm).get(f"/api/battles/{pk}/view/?since={version}").status_code == 204


def test_pings_are_bounded_and_inside_the_arena(setup_battle, client_for, player):
    c = client_for(player)
    url = f"/api/battles/{setup_battle.battle.pk}/pings/"
    outside = _post(c, url, {"square": [8, 0]})  # the arena is 8 wide: x runs 0..7
    assert outside.status_code == 400 and "square" in outside.json()["errors"]
    assert _post(c, url, {"square": "here"}).status_code == 400
    codes = [
        _post(c, url, {"square": [1, 1]}).status_code for _ in range(table_talk.PING_BURST + 1)
    ]
    assert codes == [201] * table_talk.PING_BURST + [429]
    assert TablePing.objects.count() == table_talk.PING_BURST


def test_portraits_only_for_combatants_in_the_view(setup_battle, client_for, player, character):
    from django.core.files.base import ContentFile

    character.portrait.save("p.png", ContentFile(b"\x89PNG\r\n\x1a\n"), save=True)
    got = client_for(player).get(f"/api/battles/{setup_battle.battle.pk}/portraits/").json()
    assert got == {setup_battle.pc: f"/characters/{character.pk}/portrait/"}
