"""The battle screen in Japanese and Simplified Chinese (issue 42): a seated player whose
browser asks for ``ja`` or ``zh-hans`` reads the page's words and the screen script's words
(the JavaScript catalog) in her language, and the translated page still holds nothing hidden
from her: not the other player's hand, not the seed, not the GM's tools."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.django_db

#: (Accept-Language, the <html lang>, page words, script words) for each language.
LANGUAGES = [
    ("ja", "ja", ["あなたの手札", "手番の順", "卓のログ"], ["戦闘は終わりました。", "移動"]),
    ("zh-hans", "zh-hans", ["你的手牌", "行动顺序", "桌面记录"], ["战斗已结束。", "移动"]),
]


@pytest.mark.parametrize(("accept", "lang", "page_words", "script_words"), LANGUAGES)
def test_a_seated_player_reads_the_battle_in_her_language(
    started, player, client_for, api_for, accept, lang, page_words, script_words
):
    battle = started.refresh()
    other_hand = battle.state["combatants"][started.other_pc]["deck"]["hand"]
    assert other_hand, "the other player holds a card (the test needs one)"
    seed = str(battle.initial["rng"]["seed"])
    web = client_for(player)
    page = web.get(f"/battles/{battle.pk}/", headers={"accept-language": accept})
    assert page.status_code == 200
    text = page.content.decode()
    assert f'<html lang="{lang}"' in text
    for words in page_words:
        assert words in text, words
    assert "Your hand" not in text and "Turn order" not in text
    # The screen's scripts read their words from the catalog the page loads first.
    assert f'<script src="/jsi18n/?lang={lang}"></script>' in text
    catalog = web.get(f"/jsi18n/?lang={lang}").content.decode()
    for words in script_words:
        assert json.dumps(words)[1:-1] in catalog, words
    # Hidden information stays hidden in the translated page and in the state it polls.
    api = api_for(player)
    state = api.get(f"/api/battles/{battle.pk}/state/", headers={"accept-language": accept})
    for where, payload in (("page", text), ("state", state.content.decode())):
        assert seed not in payload, where
        assert "Secret Card" not in payload, where  # the other player's only card design
    assert 'id="gm-panel"' not in text and "battle_gm.js" not in text
    assert state.json()["view"]["combatants"][started.other_pc]["hand"] is None


def test_english_stays_the_default(started, player, client_for):
    """No Accept-Language (or an unknown one): the English page, word for word."""
    page = client_for(player).get(
        f"/battles/{started.battle.pk}/", headers={"accept-language": "fr"}
    )
    text = page.content.decode()
    assert '<html lang="en"' in text and "Your hand" in text and "あなたの手札" not in text


@pytest.mark.parametrize(
    ("accept", "round_words", "status"),
    [("ja", "ラウンド 1 · ", "進行中"), ("zh-hans", "第 1 轮 · ", "进行中")],
)
def test_the_battle_list_reads_whose_turn_in_the_readers_language(
    started, campaign, player, client_for, accept, round_words, status
):
    """The list's summary is kept as words (``summary_words``) and read in each reader's
    language; the English column stays for a battle written before, and for English."""
    from django.utils.html import escape

    from battles.models import Battle

    battle = started.refresh()
    web = client_for(player)
    url = f"/campaigns/{campaign.pk}/battles/"
    text = web.get(url, headers={"accept-language": accept}).content.decode()
    assert round_words in text
    assert status in text
    assert "Round 1" not in text and "In progress" not in text
    english = web.get(url).content.decode()
    assert battle.summary.startswith("Round 1 · ")
    assert escape(battle.summary) in english
    # a battle last written before its words were kept reads its stored English
    Battle.objects.filter(pk=battle.pk).update(summary_words={})
    kept = web.get(url, headers={"accept-language": accept}).content.decode()
    assert escape(battle.summary) in kept


@pytest.mark.parametrize(("lang", "purpose"), [("ja", "弾幕の回避"), ("zh-hans", "闪避弹幕")])
def test_a_rolls_purpose_reads_in_the_readers_language(lang, purpose):
    """A danmaku attack's dodge roll: the engine logs its purpose in English with its words
    (``purpose_words``), and the log the battle screen reads (``log_in_language``: the state's
    view and the log pages) names it in the reader's language."""
    from django.utils import translation

    from battles.selectors import log_in_language
    from tests.engine.battle.helpers import battle, fighter
    from westernroses.battle import apply, legal_actions, view

    a = fighter("a", (0, 0), speed=10)
    b = fighter("b", (1, 0), side="b", stats={"cha": 15, "ins": 9})
    state = battle(a, b)
    state.current = "a"
    danmaku = next(
        o["attack"]
        for o in legal_actions(state, "gm")
        if o["type"] == "attack" and o["kind"] == "danmaku"
    )
    attack = {"type": "attack", "player": "gm", "combatant": "a", "target": "b"}
    state, _ = apply(state, {**attack, "attack": danmaku})
    log = view(state, "gm")["log"]

    def purposes(entries):
        return [e["purpose"] for x in entries for e in x["events"] if e["type"] == "roll"]

    assert purposes(log) == ["dodge danmaku"]
    with translation.override(lang):
        assert purposes(log_in_language(log)) == [purpose]
    with translation.override("en"):
        assert purposes(log_in_language(log)) == ["dodge danmaku"]


@pytest.mark.parametrize(("lang", "name"), [("ja", "雷撃"), ("zh-hans", "雷击")])
def test_an_abilitys_name_reads_in_the_readers_language(lang, name):
    """Manipulation of Electricity's Lightning bolt among the legal actions the screen draws
    its buttons from (the view's and the legal-actions endpoint's)."""
    from django.utils import translation

    from battles.selectors import options_in_language

    options = [
        {"type": "use_ability", "combatant": "a", "ability": "lightning", "name": "Lightning bolt"},
        {"type": "attack", "combatant": "a", "attack": "danmaku", "name": "Lightning bolt"},
    ]
    with translation.override(lang):
        shown = options_in_language(options)
    assert [o["name"] for o in shown] == [name, "Lightning bolt"]  # an attack's name is hers
