"""The tavern's last English words in Japanese and Simplified Chinese (issue 42): why a deck
pasted as text is refused (RSO and DBS), the table chat's words for the host and a RAIGO
partner, and RSO's card kinds on a table as RSO's own terms (the glossaries' イベント / 事件
for its Event). English reads exactly as before."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from apibase.engine_words import data_in_language, data_text, json_in_language
from decks.services import read_deck_text
from minigames.engines import dbs, rso
from minigames.engines.rso.player_view import _card_text
from tests.minigames.conftest import two_humans
from tests.tables.chat.conftest import chat_url, four, post

pytestmark = pytest.mark.django_db

__all__ = ["four"]  # the chat's four-seat RAIGO table, a fixture used here

BAD_DECK = "2 Nobody At All\n41 Nobody\nthree Nobody\n"
ENGLISH = [
    "Line 1: no card is called 'Nobody At All'.",
    "Line 2: the number of copies must be from 1 to 40.",
    "Line 3 should read like '3 Amulet Scatter': 'three Nobody'.",
]
REFUSED = {
    "ja": [
        "1 行目：'Nobody At All' という名前のカードはありません。",
        "2 行目：枚数は 1 から 40 までです。",
        "3 行目は '3 Amulet Scatter' のように書いてください：'three Nobody'。",
    ],
    "zh-hans": [
        "第 1 行：没有名为 'Nobody At All' 的卡牌。",
        "第 2 行：张数必须在 1 到 40 之间。",
        "第 3 行应写成 '3 Amulet Scatter' 的样子：'three Nobody'。",
    ],
}


def _import(api: Any, deck: Any, text: str, language: str | None = None) -> Any:
    headers = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
    return api.post(f"/api/decks/{deck.pk}/import/", {"text": text}, format="json", **headers)


def test_the_english_refusals_of_a_pasted_deck_read_as_before():
    numbers, errors = rso.deck_from_text(BAD_DECK, rso.starter_card_set())
    assert numbers == [] and errors == ENGLISH
    assert [str(w) for w in rso.deck_text_words(BAD_DECK, rso.starter_card_set())[1]] == ENGLISH


@pytest.mark.parametrize("language", ["ja", "zh-hans"])
def test_a_bad_pasted_rso_deck_is_a_400_in_her_language(api_for, player, language):
    from decks.services import deck_create

    deck = deck_create(by=player, game="rso", name="Pasted", cards=[])
    refused = _import(api_for(player), deck, BAD_DECK, language)
    assert refused.status_code == 400
    assert refused.json()["errors"] == {"text": REFUSED[language]}
    english = _import(api_for(player), deck, BAD_DECK)
    assert english.status_code == 400 and english.json()["errors"] == {"text": ENGLISH}
    # a text with no line at all (the API's serializer refuses a blank one before this)
    with translation.override(language), pytest.raises(ValidationError) as empty:
        read_deck_text("rso", "   ", rso.starter_card_set())
    assert "RSO-101" in empty.value.message_dict["text"][0]
    assert "Paste" not in empty.value.message_dict["text"][0]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "ja",
            [
                "1 行目：枚数、続けてカード番号を書いてください。",
                "2 行目：番号 NOPE-1 のカードはありません。",
                "3 行目：枚数は 1 から %s までです。",
            ],
        ),
        (
            "zh-hans",
            [
                "第 1 行：先写张数，再写卡牌编号。",
                "第 2 行：没有编号为 NOPE-1 的卡牌。",
                "第 3 行：张数必须在 1 到 %s 之间。",
            ],
        ),
    ],
)
def test_a_bad_pasted_dbs_deck_reads_in_her_language(api_for, player, language, expected):
    from decks.services import deck_create

    most = dbs.decks.MAX_DECK
    text = f"many\n1 NOPE-1\n{most + 1} {next(iter(dbs.starter_card_set()))}\n"
    numbers, english = dbs.deck_from_text(text, dbs.starter_card_set())
    assert numbers == [] and english == [
        "Line 1: write the number of copies, then the card number.",
        "Line 2: there is no card numbered NOPE-1.",
        f"Line 3: the number of copies must be from 1 to {most}.",
    ]
    deck = deck_create(by=player, game="dbs", name="Pasted", cards=[])
    refused = _import(api_for(player), deck, text, language)
    assert refused.status_code == 400
    assert refused.json()["errors"]["text"] == [
        line % most if "%s" in line else line for line in expected
    ]


@pytest.mark.parametrize(
    ("language", "partner", "whisper"),
    [("ja", "sakuya（あなたのパートナー）", "あなた"), ("zh-hans", "sakuya（你的搭档）", "你")],
)
def test_a_raigo_partner_is_named_in_her_language(four, client_for, language, partner, whisper):
    table, users, _watcher = four
    url = chat_url("raigo", table.pk)
    reimu = client_for(users[0])
    options = reimu.get(url, HTTP_ACCEPT_LANGUAGE=language).json()["you"]["whisper_to"]
    assert options == [{"key": str(users[2].pk), "name": partner}]
    english = reimu.get(url).json()["you"]["whisper_to"]
    assert english == [{"key": str(users[2].pk), "name": "sakuya, your partner"}]
    # the line keeps ids only: the words to whom it went are made as each reader reads it
    said = post(reimu, url, {"text": "PLAN", "whisper_to": str(users[2].pk)})
    assert said.status_code == 201 and said.json()["whisper"] == "to sakuya"
    heard = client_for(users[2]).get(url, HTTP_ACCEPT_LANGUAGE=language).json()["results"][0]
    assert heard["whisper"] == whisper
    assert client_for(users[2]).get(url).json()["results"][0]["whisper"] == "to you"


@pytest.mark.parametrize(
    ("language", "muted", "only"),
    [
        (
            "ja",
            "ホスト がこの卓であなたをミュートしました。",
            "この卓でそれができるのは ホスト だけです。",
        ),
        ("zh-hans", "主持人 已在本桌将你禁言。", "在本桌只有 主持人 可以这样做。"),
    ],
)
def test_the_host_is_named_in_her_language(client_for, player, other_player, language, muted, only):
    table = two_humans("rso", player, other_player)
    host, guest = client_for(player), client_for(other_player)
    url = chat_url("rso", table.pk)
    post(guest, url, {"text": "gg"})
    mutes = chat_url("rso", table.pk, "mutes/")
    not_host = guest.post(
        mutes,
        json.dumps({"user": player.pk, "muted": True}),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert not_host.status_code == 403 and not_host.json()["detail"] == only
    assert post(host, mutes, {"user": other_player.pk, "muted": True}).status_code == 200
    page = guest.get(url, HTTP_ACCEPT_LANGUAGE=language).json()
    assert page["you"]["why_not"] == muted
    assert guest.get(url).json()["you"]["why_not"] == "The host muted you at this table."


def _event_number() -> str:
    cards = rso.starter_card_set()
    return next(n for n, card in cards.items() if card["kind"] == "event")


@pytest.mark.parametrize(("language", "event"), [("ja", "イベント"), ("zh-hans", "事件")])
def test_an_rso_event_on_a_table_reads_as_the_glossarys_term(language, event):
    definition = rso.starter_card_set()[_event_number()]
    text = _card_text(definition)
    assert text["kind_label"] == "Event"  # the engine's English, as before
    with translation.override(language):
        # the table's view is rendered as the state API renders it (json, then the data)
        shown = data_in_language(json_in_language({"cards": {"x": text}}))["cards"]["x"]
        assert shown["kind_label"] == event and "kind_words" not in shown
        # the deck builder's shared kind word is left as it was
        if language == "ja":
            assert data_text("Event") == "出来事"
    with translation.override("en"):
        assert json_in_language({"cards": {"x": text}})["cards"]["x"]["kind_label"] == "Event"


@pytest.mark.parametrize(
    ("language", "kinds"),
    [
        ("ja", {"character": "キャラクター", "spell": "スペル", "support": "サポート"}),
        ("zh-hans", {"character": "角色", "spell": "符卡", "support": "支援"}),
    ],
)
def test_the_cards_on_an_rso_table_name_their_kind_in_her_language(
    api_for, player, other_player, language, kinds
):
    table = two_humans("rso", player, other_player)
    got = api_for(player).get(
        f"/api/tavern/tables/{table.pk}/state/", HTTP_ACCEPT_LANGUAGE=language
    )
    assert got.status_code == 200
    shown = got.json()["view"]["cards"]
    assert shown
    for card in shown.values():
        assert "kind_words" not in card
        assert (
            card["kind_label"]
            == {**kinds, "event": "イベント" if language == "ja" else "事件"}[card["kind"]]
        )
