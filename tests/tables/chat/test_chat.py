"""Chat at every table (issue 39, "Chat at every table"; docs/table-chat.md): one store and one
API for a battle and each tavern game, through the core's URLs. Bounds, the rate limit (429 in
words), escaping, mutes, the spectators' setting, whispers only where a game's rules allow
private talk and only to their readers (every seat checked), no 500 on a bad body."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign.models import Membership, Role
from tables.chat import services
from tables.chat.models import ChatLine, ChatMute, ChatRoom
from tables.chat.services import clean_text
from tests.factories import UserFactory

from .conftest import TAVERN, chat_url, post

pytestmark = pytest.mark.django_db


def _table(game: str, battle: Any, tavern_table: Any) -> Any:
    return battle if game == "battle" else tavern_table(game)


def _seats(game: str, gm: Any, player: Any, other_player: Any) -> tuple[Any, Any]:
    """Who speaks and who listens: a battle's GM and a player; a tavern's two seats."""
    return (gm, player) if game == "battle" else (player, other_player)


@pytest.mark.parametrize("game", ["battle", *TAVERN])
def test_a_line_said_at_any_table_is_read_by_the_other_seat_through_the_core(
    game, battle, tavern_table, client_for, gm, player, other_player
):
    table = _table(game, battle, tavern_table)
    speaker, listener = (client_for(u) for u in _seats(game, gm, player, other_player))
    version = table.version
    first = listener.get(chat_url(game, table.pk)).json()
    assert first["results"] == [] and first["you"]["may_send"] is True

    said = post(speaker, chat_url(game, table.pk), {"text": "  Good   luck! "})
    assert said.status_code == 201, said.content
    assert said.json()["text"] == "Good luck!" and said.json()["whisper"] is None

    page = listener.get(chat_url(game, table.pk)).json()
    assert [(line["text"], line["mine"]) for line in page["results"]] == [("Good luck!", False)]
    assert page["stamp"] == first["stamp"] + 1
    # the poll while nothing changed: 204; a line is not a move: the table's version stays
    assert listener.get(chat_url(game, table.pk, f"?since={page['stamp']}")).status_code == 204
    table.refresh_from_db()
    assert table.version == version
    after = listener.get(chat_url(game, table.pk, f"?after={said.json()['id']}")).json()
    assert after["results"] == []


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"text": ""}, "text"),
        ({"text": " \t\n "}, "text"),
        ({"text": "x" * (services.CHAT_MAX_LENGTH + 1)}, "text"),
        ({"text": "x" * 2001}, "text"),
        ({}, "text"),
        ({"text": 7}, "text"),
        ({"text": ["hi"]}, "text"),
        ({"text": "hi", "whisper_to": {"a": 1}}, "whisper_to"),
        ({"text": "hi", "whisper_to": "9" * 30}, "whisper_to"),
    ],
)
def test_a_bad_line_is_a_400_naming_the_field_and_says_nothing(
    tavern_table, client_for, player, body, field
):
    table = tavern_table("spirit_war")
    answer = post(client_for(player), chat_url("spirit_war", table.pk), body)
    assert answer.status_code == 400, answer.content
    assert field in answer.json()["errors"]
    assert not ChatLine.objects.exists()


@pytest.mark.parametrize(
    ("tail", "body", "code"),
    [
        ("", "not json", 400),
        ("", b"\xff\xfe", 400),
        ("", "[1, 2]", 400),
        ("", {"text": "x" * 20000}, 413),
        ("reactions/", {"line": 10**30, "reaction": "clap"}, 400),
        ("reactions/", {"line": 1, "reaction": "<b>"}, 400),
        ("reactions/", {"line": "one", "reaction": "clap"}, 400),
        ("mutes/", {"user": -1, "muted": True}, 400),
        ("mutes/", {"user": 1, "muted": "maybe"}, 400),
    ],
)
def test_no_body_answers_500(tavern_table, client_for, player, tail, body, code):
    table = tavern_table("rso")
    answer = post(client_for(player), chat_url("rso", table.pk, tail), body)
    assert answer.status_code == code, answer.content


def test_a_line_of_exactly_the_limit_is_kept_whole(tavern_table, client_for, player):
    table = tavern_table("dbs")
    text = "y" * services.CHAT_MAX_LENGTH
    assert post(client_for(player), chat_url("dbs", table.pk), {"text": text}).status_code == 201
    assert ChatLine.objects.get().text == text


def test_chat_is_rate_limited_in_words(tavern_table, client_for, player, other_player):
    table = tavern_table("raigo")
    c, url = client_for(player), chat_url("raigo", table.pk)
    codes = [post(c, url, {"text": f"spam {i}"}).status_code for i in range(services.CHAT_BURST)]
    assert codes == [201] * services.CHAT_BURST
    refused = post(c, url, {"text": "one more"})
    assert refused.status_code == 429
    assert refused.json()["detail"].startswith("Too many messages at once: wait a few seconds.")
    # one member's burst does not silence the other
    assert post(client_for(other_player), url, {"text": "my turn"}).status_code == 201


def test_text_is_kept_as_text_and_never_drawn_as_markup(tavern_table, client_for, player):
    table = tavern_table("spirit_war")
    evil = '<img src=x onerror="alert(1)"><script>alert(2)</script>'
    c = client_for(player)
    line = post(c, chat_url("spirit_war", table.pk), {"text": evil + "\u202eabc\x07"})
    assert line.status_code == 201 and line["Content-Type"].startswith("application/json")
    assert line.json()["text"] == evil + "abc"  # direction overrides and controls removed
    page = c.get(f"/tavern/tables/{table.pk}/").content.decode()
    assert "onerror=" not in page and "alert(2)" not in page


@given(st.text(max_size=60))
def test_a_cleaned_line_holds_no_control_or_direction_override(text):
    cleaned = clean_text(text)
    assert clean_text(cleaned) == cleaned
    assert not any(c in cleaned for c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
    assert all(c == " " or c.isprintable() or not c.isspace() for c in cleaned)
    assert "  " not in cleaned and cleaned == cleaned.strip()


def test_the_host_mutes_a_member_who_then_reads_but_may_not_speak(
    tavern_table, client_for, player, other_player
):
    table = tavern_table("rso")
    host, guest = client_for(player), client_for(other_player)
    url = chat_url("rso", table.pk)
    line = post(guest, url, {"text": "gg ez"}).json()
    assert (
        post(
            guest, chat_url("rso", table.pk, "mutes/"), {"user": player.pk, "muted": True}
        ).status_code
        == 403
    )
    muted = post(
        host, chat_url("rso", table.pk, "mutes/"), {"user": other_player.pk, "muted": True}
    )
    assert muted.status_code == 200
    assert muted.json()["muted"] == [{"user_id": other_player.pk, "name": "player-two"}]

    refused = post(guest, url, {"text": "let me talk"})
    assert refused.status_code == 403
    assert refused.json()["detail"] == "The host or a GM muted you at this table."
    react = {"line": line["id"], "reaction": "clap"}
    assert post(guest, chat_url("rso", table.pk, "reactions/"), react).status_code == 403
    page = guest.get(url).json()
    assert page["you"] == {
        **page["you"],
        "may_send": False,
        "why_not": "The host or a GM muted you at this table.",
    }
    assert [m["text"] for m in page["results"]] == ["gg ez"]  # she still reads

    post(host, chat_url("rso", table.pk, "mutes/"), {"user": other_player.pk, "muted": False})
    assert post(guest, url, {"text": "sorry"}).status_code == 201


def test_mutes_only_for_someone_who_spoke_and_never_oneself(
    tavern_table, client_for, player, other_player
):
    table = tavern_table("dbs")
    host = client_for(player)
    mutes = chat_url("dbs", table.pk, "mutes/")
    silent = post(host, mutes, {"user": other_player.pk, "muted": True})
    assert silent.status_code == 400 and "user" in silent.json()["errors"]
    post(host, chat_url("dbs", table.pk), {"text": "hello"})
    assert post(host, mutes, {"user": player.pk, "muted": True}).status_code == 400
    assert not ChatMute.objects.exists()


def test_a_gm_mutes_a_player_at_a_battle(battle, client_for, gm, player):
    url = chat_url("battle", battle.pk)
    post(client_for(player), url, {"text": "I attack the darkness"})
    answer = post(
        client_for(gm), chat_url("battle", battle.pk, "mutes/"), {"user": player.pk, "muted": True}
    )
    assert answer.status_code == 200
    # the battle screen's feed tells the GMs who is muted, and nobody else
    feed = f"/api/battles/{battle.pk}/table/"
    assert client_for(gm).get(feed).json()["chat_muted"] == [
        {"user_id": player.pk, "name": "player-one"}
    ]
    assert client_for(player).get(feed).json()["chat_muted"] == []
    refused = post(client_for(player), url, {"text": "again"})
    assert (
        refused.status_code == 403 and refused.json()["detail"] == "A GM muted you at this table."
    )
    assert (
        post(
            client_for(player),
            chat_url("battle", battle.pk, "settings/"),
            {"spectators_may_chat": True},
            "patch",
        ).status_code
        == 403
    )


def test_spectators_read_and_speak_only_where_the_host_allows(
    tavern_table, client_for, gm, player, outsider
):
    table = tavern_table("spirit_war")
    aya = UserFactory(username="aya")  # a member of the campaign sitting at no seat: she watches
    Membership.objects.create(campaign=table.campaign, user=aya, role=Role.PLAYER)
    url = chat_url("spirit_war", table.pk)
    watcher = client_for(aya)
    post(client_for(player), url, {"text": "welcome"})
    page = watcher.get(url).json()
    assert [m["text"] for m in page["results"]] == ["welcome"]
    assert page["you"]["spectator"] is True and page["spectators_may_chat"] is False
    refused = post(watcher, url, {"text": "nice move"})
    assert refused.status_code == 403
    assert refused.json()["detail"] == (
        "Spectators may not chat at this table: the host or a GM has not allowed it."
    )
    settings = chat_url("spirit_war", table.pk, "settings/")
    assert post(watcher, settings, {"spectators_may_chat": True}, "patch").status_code == 403
    assert (
        post(
            client_for(player), settings, {"spectators_may_chat": "yes please"}, "patch"
        ).status_code
        == 400
    )
    allowed = post(client_for(player), settings, {"spectators_may_chat": True}, "patch")
    assert allowed.status_code == 200 and allowed.json()["spectators_may_chat"] is True
    said = post(watcher, url, {"text": "nice move"})
    assert said.status_code == 201 and said.json()["spectator"] is True
    # someone who may not see the table reads nothing and says nothing: 404
    assert client_for(outsider).get(url).status_code == 404
    assert post(client_for(outsider), url, {"text": "hi"}).status_code == 404


def _everything(client: Any, game: str, table: Any) -> bytes:
    """Everything one seat can fetch about a table, concatenated."""
    if game == "battle":
        urls = [
            f"/api/battles/{table.pk}/table/",
            f"/api/battles/{table.pk}/state/",
            f"/api/battles/{table.pk}/log/?limit=200",
            f"/battles/{table.pk}/",
        ]
    else:
        urls = [
            f"/api/tavern/tables/{table.pk}/state/",
            f"/api/tavern/tables/{table.pk}/log/",
            f"/tavern/tables/{table.pk}/",
        ]
    out = client.get(chat_url(game, table.pk)).content
    for url in urls:
        answer = client.get(url)
        assert answer.status_code == 200, url
        out += answer.content
    return out


def test_battle_whispers_reach_only_author_recipient_and_gm(
    battle, client_for, gm, player, other_player
):
    url = chat_url("battle", battle.pk)
    gm_c, p1, p2 = client_for(gm), client_for(player), client_for(other_player)
    options = p1.get(url).json()["you"]["whisper_to"]
    assert options == [{"key": "gm", "name": "the GMs"}]
    gm_options = gm_c.get(url).json()["you"]["whisper_to"]
    assert {o["name"] for o in gm_options} == {"player-one", "player-two"}
    assert post(p1, url, {"text": "Hello table"}).status_code == 201
    to_gm = post(p1, url, {"text": "SECRET-TO-GM", "whisper_to": "gm"})
    assert to_gm.status_code == 201 and to_gm.json()["whisper"] == "to the GMs"
    to_p2 = post(gm_c, url, {"text": "SECRET-FOR-P2", "whisper_to": str(other_player.pk)})
    assert to_p2.status_code == 201 and to_p2.json()["whisper"] == "to player-two"
    # a player whispers to the GMs only; a GM to a player of the campaign only
    assert post(p1, url, {"text": "x", "whisper_to": str(other_player.pk)}).status_code == 400
    assert post(gm_c, url, {"text": "x", "whisper_to": "gm"}).status_code == 400
    assert post(gm_c, url, {"text": "x", "whisper_to": str(gm.pk)}).status_code == 400

    seen = {
        "gm": {b"Hello table", b"SECRET-TO-GM", b"SECRET-FOR-P2"},
        "p1": {b"Hello table", b"SECRET-TO-GM"},
        "p2": {b"Hello table", b"SECRET-FOR-P2"},
    }
    for seat, client in {"gm": gm_c, "p1": p1, "p2": p2}.items():
        payload = _everything(client, "battle", battle)
        for text in (b"Hello table", b"SECRET-TO-GM", b"SECRET-FOR-P2"):
            assert (text in payload) == (text in seen[seat]), (seat, text)


def test_raigo_partners_whisper_and_no_other_seat_or_spectator_reads_it(four, client_for):
    table, users, watcher = four
    clients = [client_for(u) for u in users]
    url = chat_url("raigo", table.pk)
    # each seat may whisper to her partner only (seats 0-2 and 1-3), by name
    for seat, client in enumerate(clients):
        partner = users[(seat + 2) % 4]
        options = client.get(url).json()["you"]["whisper_to"]
        assert options == [{"key": str(partner.pk), "name": f"{partner.username}, your partner"}]
    assert client_for(watcher).get(url).json()["you"]["whisper_to"] == []
    refused = post(clients[0], url, {"text": "x", "whisper_to": str(users[1].pk)})
    assert refused.status_code == 400
    assert refused.json()["errors"]["whisper_to"] == [
        "At this table you may whisper to sakuya, your partner."
    ]

    said = post(clients[0], url, {"text": "PLAN-EIGHT-LEFT", "whisper_to": str(users[2].pk)})
    assert said.status_code == 201 and said.json()["whisper"] == "to sakuya"
    assert post(clients[1], url, {"text": "Good game all"}).status_code == 201
    readers = {0, 2}
    for seat, client in enumerate(clients):
        payload = _everything(client, "raigo", table)
        assert (b"PLAN-EIGHT-LEFT" in payload) == (seat in readers), seat
        assert b"Good game all" in payload
    assert client_for(watcher).get(url).json()["results"][-1]["text"] == "Good game all"
    assert b"PLAN-EIGHT-LEFT" not in _everything(client_for(watcher), "raigo", table)
    heard = clients[2].get(url).json()["results"][0]
    assert heard["whisper"] == "to you" and heard["author"] == "reimu"


@pytest.mark.parametrize("game", ["spirit_war", "rso", "dbs", "raigo"])
def test_two_player_games_allow_no_private_talk(
    game, tavern_table, client_for, player, other_player
):
    """Spirit War, RSO, DBS and RAIGO for two: every player for herself, no whispers."""
    table = tavern_table(game)
    url = chat_url(game, table.pk)
    assert client_for(player).get(url).json()["you"]["whisper_to"] == []
    answer = post(client_for(player), url, {"text": "psst", "whisper_to": str(other_player.pk)})
    assert answer.status_code == 400
    assert answer.json()["errors"]["whisper_to"] == [
        "This game allows no private talk: say it to the whole table."
    ]


def test_reactions_are_counted_named_and_taken_back(four, client_for):
    table, users, _watcher = four
    url = chat_url("raigo", table.pk)
    reactions = chat_url("raigo", table.pk, "reactions/")
    clients = [client_for(u) for u in users]
    line = post(clients[0], url, {"text": "What a throw"}).json()
    for client in clients[1:3]:
        assert post(client, reactions, {"line": line["id"], "reaction": "clap"}).status_code == 200
    again = post(clients[1], reactions, {"line": line["id"], "reaction": "clap"}).json()
    [clap] = again["reactions"]
    assert (clap["emoji"], clap["words"], clap["count"], clap["mine"]) == (
        "👏",
        "well played",
        2,
        True,
    )
    assert clap["names"] == ["marisa", "sakuya"]
    back = post(clients[1], reactions, {"line": line["id"], "reaction": "clap", "on": False})
    assert back.json()["reactions"][0]["count"] == 1
    # a whisper between partners cannot be reacted to by a seat that may not read it
    secret = post(clients[1], url, {"text": "psst", "whisper_to": str(users[3].pk)}).json()
    refused = post(clients[0], reactions, {"line": secret["id"], "reaction": "laugh"})
    assert refused.status_code == 400 and "line" in refused.json()["errors"]
    page = clients[0].get(url).json()
    assert [r["words"] for r in page["reactions"]] == [
        "thumbs up", "well played", "laughing", "surprised", "sad",
    ]  # fmt: skip


def test_a_deleted_table_takes_its_chat(tavern_table, client_for, player):
    table = tavern_table("raigo")
    post(client_for(player), chat_url("raigo", table.pk), {"text": "bye"})
    table.delete()
    assert not ChatRoom.objects.exists() and not ChatLine.objects.exists()
