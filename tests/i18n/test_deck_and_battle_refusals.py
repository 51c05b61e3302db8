"""The refusals of the deck builder and the battle services speak the reader's language, as
does the API's one line over every 400 ("Invalid input."): the deck builder and the GM's battle
panel show the API's words as they come, and they were English on Japanese and Chinese pages."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db


def _post(api: Any, url: str, body: dict[str, Any], lang: str = "en") -> Any:
    return api.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE=lang)


def test_the_deck_and_battle_refusals_speak_the_readers_language(api_for, campaign, gm, player):
    deck = _post(
        api_for(player),
        "/api/decks/",
        {"game": "rso", "name": "Stars", "cards": ["<b>x</b>"]},
        "zh-hans",
    )
    assert deck.status_code == 400
    assert deck.json() == {
        "detail": "输入有误。",
        "errors": {"cards": ["每张牌都是像 RSO-101 这样的卡牌编号。"]},
    }
    api = api_for(gm)
    made = _post(
        api, f"/api/campaigns/{campaign.pk}/battles/", {"name": "Gate", "width": 6, "height": 6}
    )
    assert made.status_code == 201, made.content
    squares = f"/api/battles/{made.json()['id']}/squares/"
    outside = _post(api, squares, {"square": [9, 9], "terrain": "blocked"}, "ja")
    assert outside.status_code == 400
    assert outside.json() == {
        "detail": "入力が正しくありません。",
        "errors": {"square": ["[9, 9] は戦場の外です。"]},
    }
