"""A tavern table in Japanese and Simplified Chinese (issue 42): a seated player whose browser
asks for ``ja`` or ``zh-hans`` reads the table page's words and the table script's words in her
language, and the translated page and state hold nothing hidden from her seat."""

from __future__ import annotations

import json

import pytest

from minigames.engines.registry import get_engine
from tests.minigames.conftest import two_humans
from tests.minigames.test_api import contains_id

pytestmark = pytest.mark.django_db

#: (Accept-Language, the <html lang>, page words, script words) for each language.
LANGUAGES = [
    (
        "ja",
        "ja",
        ["これまでの手", "卓のメニュー", "卓のチャット"],
        ["あなたの番です。", "勝者はいません。"],
    ),
    ("zh-hans", "zh-hans", ["至今的行动", "牌桌菜单", "牌桌聊天"], ["轮到你了。", "没有人获胜。"]),
]


@pytest.mark.parametrize("game", ["rso", "raigo"])
@pytest.mark.parametrize(("accept", "lang", "page_words", "script_words"), LANGUAGES)
def test_a_seated_player_reads_the_table_in_her_language(
    game, player, other_player, client_for, api_for, accept, lang, page_words,
    script_words,
):  # fmt: skip
    table = two_humans(game, player, other_player)
    engine = get_engine(game)
    hidden = engine.hidden_from(engine.from_json(table.state), 0)
    assert hidden, "the other seat holds something hidden (the test needs it)"
    seed = str(table.initial["rng"]["seed"])
    web = client_for(player)
    page = web.get(f"/tavern/tables/{table.pk}/", headers={"accept-language": accept})
    assert page.status_code == 200
    text = page.content.decode()
    assert f'<html lang="{lang}"' in text
    for words in page_words:
        assert words in text, words
    assert "Moves so far" not in text and "Table menu" not in text
    catalog = web.get("/jsi18n/", headers={"accept-language": accept}).content.decode()
    for words in script_words:
        assert json.dumps(words)[1:-1] in catalog, words
    state = api_for(player).get(
        f"/api/tavern/tables/{table.pk}/state/", headers={"accept-language": accept}
    )
    assert state.status_code == 200
    for where, payload in (("page", text), ("state", state.content.decode())):
        assert seed not in payload, where
        leaked = [item for item in hidden if contains_id(payload, item)]
        assert not leaked, f"{where} holds hidden {leaked[:5]}"
