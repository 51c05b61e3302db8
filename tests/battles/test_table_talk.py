"""The table around a battle: pings, and the chat lines the screen's feed carries from the
core's chat (docs/battles.md "The table log"; the chat itself: tests/tables/chat). Pings are
not moves: they never change the battle's version."""

from __future__ import annotations

import json
from typing import Any

import pytest

from battles import table_talk
from battles.models import TablePing
from tables.chat.models import ChatLine, ChatRoom
from tables.chat.selectors import CHAT_PAGE

pytestmark = pytest.mark.django_db


def _post(client: Any, url: str, body: dict[str, Any]) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json")


def test_chat_feed_pages_back_and_delivers_new_lines(setup_battle, client_for, player, gm):
    pk = setup_battle.battle.pk
    room = ChatRoom.objects.create(table_label="battles.battle", table_id=pk)
    for i in range(CHAT_PAGE + 3):
        ChatLine.objects.create(room=room, author=gm, author_is_gm=True, text=f"line {i}")
    c = client_for(player)
    first = c.get(f"/api/battles/{pk}/table/").json()
    assert [m["text"] for m in first["chat"]][-1] == f"line {CHAT_PAGE + 2}"
    assert len(first["chat"]) == CHAT_PAGE and first["chat_older"] is True
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
    assert client_for(gm).get(f"/api/battles/{pk}/state/?since={version}").status_code == 204


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
