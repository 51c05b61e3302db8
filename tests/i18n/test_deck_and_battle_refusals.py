"""The refusals of the deck builder and the battle services speak the reader's language, as
does the API's one line over every 400 ("Invalid input."): the deck builder and the GM's battle
panel show the API's words as they come, and they were English on Japanese and Chinese pages."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_the_deck_and_battle_refusals_speak_the_readers_language(api_for, campaign, gm, player):
    deck = api_for(player).post(
        "/api/decks/",
        {"game": "rso", "name": "Stars", "cards": ["<b>x</b>"]},
        format="json",
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert deck.status_code == 400
    assert deck.json() == {
        "detail": "输入有误。",
        "errors": {"cards": ["每张牌都是像 RSO-101 这样的卡牌编号。"]},
    }
    api = api_for(gm)
    made = api.post(
        f"/api/campaigns/{campaign.pk}/battles/",
        {"name": "Gate", "width": 6, "height": 6},
        format="json",
    )
    assert made.status_code == 201, made.content
    outside = api.post(
        f"/api/battles/{made.json()['id']}/squares/",
        {"square": [9, 9], "terrain": "blocked"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert outside.status_code == 400
    assert outside.json() == {
        "detail": "入力が正しくありません。",
        "errors": {"square": ["[9, 9] は戦場の外です。"]},
    }
