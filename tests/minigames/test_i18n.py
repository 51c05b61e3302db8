"""A tavern table in Japanese and Simplified Chinese (issue 42): a seated player whose browser
asks for ``ja`` or ``zh-hans`` reads the table page's words and the table script's words in her
language, and the translated page and state hold nothing hidden from her seat."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from apibase.engine_words import in_language
from minigames import services
from minigames.engines.raigo.tokens import KINDS
from minigames.engines.registry import get_engine
from tests.minigames.conftest import two_humans
from tests.minigames.playing import play
from tests.minigames.test_api import contains_id
from westernroses.words import Words

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


# --------------------------------------------------------------------------- the engines' words

#: Latin words a translated engine line may still hold: the game's name, the rulebook's Dong
#: token, and names (seats' names are the users' own, checked apart).
KEPT_LATIN = {"RAIGO", "Dong"}
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")


def english_left(text: str, names: list[str]) -> list[str]:
    """The Latin words of ``text`` that are neither a name nor a word kept in every language."""
    for name in names:
        text = text.replace(name, " ")
    return [w for w in LATIN_WORD.findall(text) if w not in KEPT_LATIN]


def _raigo_after_moves(player: Any, other_player: Any, moves: int = 6) -> Any:
    """A started two-seat RAIGO table after ``moves`` moves (each seat's first legal move)."""
    return play(two_humans("raigo", player, other_player), {0: player, 1: other_player}, moves)


def _texts(state: dict[str, Any], log: dict[str, Any]) -> dict[str, list[str]]:
    """The engine's words a seat reads: her move buttons, the summary, the prompt and the log."""
    prompt = state["view"].get("prompt") or {}
    return {
        "moves": [m["label"] for m in state["moves"]],
        "summary": [state["summary"]],
        "prompt": [prompt["text"]] if prompt.get("text") else [],
        "log": [e["text"] for entry in log["results"] for e in entry["events"] if e.get("text")],
    }


@pytest.mark.parametrize("accept", ["ja", "zh-hans"])
def test_a_raigo_table_reads_its_moves_and_log_in_her_language(
    player, other_player, api_for, accept
):
    """RAIGO a few moves in: each seat's move buttons, the summary, the prompt and the log read
    in her language with no English word left (names aside), and hold nothing hidden from her:
    her own draw names her tokens, the other seat's draw reads only as a count."""
    table = _raigo_after_moves(player, other_player)
    engine = get_engine("raigo")
    state = engine.from_json(table.state)
    names = list(state["names"])
    for seat, user in ((0, player), (1, other_player)):
        api = api_for(user)
        answer = api.get(
            f"/api/tavern/tables/{table.pk}/state/", headers={"accept-language": accept}
        )
        log = api.get(f"/api/tavern/tables/{table.pk}/log/", headers={"accept-language": accept})
        assert answer.status_code == 200 and log.status_code == 200
        texts = _texts(answer.json(), log.json())
        assert texts["log"] and bool(texts["moves"]) == (seat in engine.waiting_on(state)), texts
        for part, lines in texts.items():
            for line in lines:
                assert not english_left(line, names), (seat, part, line)
        hidden = engine.hidden_from(state, seat)
        for where, payload in (("state", answer.content.decode()), ("log", log.content.decode())):
            leaked = [item for item in hidden if contains_id(payload, item)]
            assert not leaked, f"seat {seat}'s {where} holds hidden {leaked[:5]}"
        assert '"words"' not in log.content.decode()


@pytest.mark.parametrize(("accept", "raizan"), [("ja", "雷山"), ("zh-hans", "雷山")])
def test_the_ja_and_zh_log_names_no_token_hidden_from_the_reader(
    player, other_player, api_for, accept, raizan
):
    """Each seat's log in Japanese and Chinese: the other seat's draws read as a count, never
    naming a token drawn (a token's name is a parameter only of the drawer's own line), and
    the log holds no id of anything hidden from her."""
    table = _raigo_after_moves(player, other_player, moves=10)
    engine = get_engine("raigo")
    state = engine.from_json(table.state)
    spells = {in_language_for(accept, Words(kind.name)) for kind in KINDS if kind.spell}
    for seat, user in ((0, player), (1, other_player)):
        log = api_for(user).get(
            f"/api/tavern/tables/{table.pk}/log/", headers={"accept-language": accept}
        )
        events = [e for entry in log.json()["results"] for e in entry["events"]]
        theirs = [e for e in events if e["type"] == "select" and e.get("seat") != seat]
        mine = [e for e in events if e["type"] == "select_private"]
        assert theirs and mine, events
        for e in theirs:
            assert raizan in e["text"], e["text"]
            named = [name for name in spells if name in e["text"].replace(raizan, "")]
            assert not named, e["text"]
        hidden = engine.hidden_from(state, seat)
        leaked = [item for item in hidden if contains_id(log.content.decode(), item)]
        assert not leaked, leaked


def in_language_for(language: str, words: Words) -> str:
    with translation.override(language):
        return in_language(words)


def test_english_readers_read_the_engines_english(player, other_player, api_for):
    """In English the words are the engine's own English, as ``str()`` of its words gives."""
    table = _raigo_after_moves(player, other_player)
    engine = get_engine("raigo")
    state = engine.from_json(table.state)
    seat = engine.waiting_on(state)[0]
    user = player if seat == 0 else other_player
    answer = api_for(user).get(
        f"/api/tavern/tables/{table.pk}/state/", headers={"accept-language": "en"}
    )
    labels = [m["label"] for m in answer.json()["moves"]]
    assert labels == [
        str(engine.describe_action(state, seat, a)) for a in engine.legal_actions(state, seat)
    ]
    assert answer.json()["summary"] == str(engine.summary(state))
    assert answer.json()["summary"].startswith("Turn ")


@pytest.mark.parametrize("slug", ["raigo", "rso", "dbs", "spirit_war"])
@pytest.mark.parametrize("accept", ["ja", "zh-hans"])
def test_the_house_rule_form_reads_in_her_language(client_for, api_for, player, slug, accept):
    """Every game's house rules (label, help and choices) on the new-table form's data, and a
    bad value's refusal, read in her language; in English they are the engine's words."""
    games = {
        g["slug"]: g
        for g in api_for(player)
        .get("/api/tavern/games/", headers={"accept-language": accept})
        .json()
    }
    rules = games[slug]["house_rules"]
    assert rules
    for rule in rules:
        words = [rule["label"], rule["help"], *(label for _, label in rule["choices"])]
        for text in words:
            assert not english_left(text, ["SP", "HP", "AV", "IV", "HV", "EV", "LP", "RAIGO"]), text
    english = {
        g["slug"]: g
        for g in api_for(player).get("/api/tavern/games/", headers={"accept-language": "en"}).json()
    }
    engine = get_engine(slug)
    assert english[slug]["house_rules"] == [rule.to_json() for rule in engine.house_rules()]
    choice = next(rule for rule in engine.house_rules() if rule.choices)
    with translation.override(accept), pytest.raises(ValidationError) as refused:
        services.check_options(slug, engine.min_seats, {choice.key: "no such choice"})
    detail = str(refused.value)
    assert in_language_for(accept, choice.label) in detail, detail


@pytest.mark.parametrize("accept", ["ja", "zh-hans"])
def test_a_dbs_table_reads_its_move_buttons_in_her_language(player, other_player, api_for, accept):
    """Dream Battle of SpellCard's move buttons in her language (the rulebook's terms), a card's
    name going in as its own words."""
    table = two_humans("dbs", player, other_player)
    engine = get_engine("dbs")
    state = engine.from_json(table.state)
    seat = engine.waiting_on(state)[0]
    user = player if seat == 0 else other_player
    answer = api_for(user).get(
        f"/api/tavern/tables/{table.pk}/state/", headers={"accept-language": accept}
    )
    labels = [m["label"] for m in answer.json()["moves"]]
    english = [
        str(engine.describe_action(state, seat, a)) for a in engine.legal_actions(state, seat)
    ]
    assert labels and len(labels) == len(english)
    cards = sorted({c["name"] for c in state["cards"].values()}, key=len, reverse=True)
    for label, words in zip(labels, english, strict=True):
        assert label != words, label
        assert not english_left(label, [*cards, "SUPPORT", "CENTER", "HYPER"]), label


# --------------------------------------------------------------------------- RAIGO's hands

#: A tower for each scoring hand (bottom to top), with the hand's name in Japanese and Chinese
#: (docs/glossary: the hands are glossary terms).
HAND_TOWERS = [
    (("five", "five", "five"), "桜", "樱"),
    (("five", "four", "three"), "蓮", "莲"),
    (("six", "four", "two"), "偶数蓮", "偶数莲"),
    (("seven", "five", "three"), "奇数蓮", "奇数莲"),
    (("five", "five", "five", "two", "two", "two"), "双桜", "双樱"),
    (("six", "five", "four", "three", "three", "three"), "桜蓮", "樱莲"),
    (("five", "five", "five", "three", "two", "one"), "蓮桜", "莲樱"),
    (("six", "five", "four", "three", "two", "one"), "双蓮", "双莲"),
    (("six", "six", "four", "four", "two", "two"), "紅椿", "红椿"),
    (("six", "mist", "four", "shield", "two", "snake"), "白椿", "白椿"),
    (("mist", "six", "mist", "six", "mist", "six"), "幻影輪廻", "幻影轮回"),
    (
        ("destroy", "katana", "three", "katana", "three", "katana"),
        "毘沙門天の正義",
        "毘沙门天之正义",
    ),
    (("purify", "purify", "six", "six", "thunder", "thunder"), "六花・白雪", "六花・白雪"),
    (("mist", "roar", "shield", "four", "three", "two"), "霞・双蓮頭", "霞・双莲头"),
    (("roar", "five", "roar", "five", "roar", "five"), "桜・死の舞踏", "樱・死之舞"),
    (("seven", "mist", "five", "shield", "three", "snake"), "時雨蓮", "时雨莲"),
]


@pytest.mark.parametrize(("accept", "column"), [("ja", 1), ("zh-hans", 2)])
def test_every_raigo_hand_is_named_in_her_language(accept, column):
    """A tower's score (the move log's and the final scoring's words) names its hand in the
    glossary's words, with no English left; the stored words keep the English id, so a log
    written once reads in every reader's language, and English readers read the English."""
    from minigames.engines.raigo.hands import score_tower

    for row in HAND_TOWERS:
        score = score_tower(row[0])
        assert score.hand is not None, row[0]
        said = in_language_for(accept, Words.from_json(score.words().to_json()))
        assert row[column] in said, (row[0], said)
        assert not english_left(said, []), said
        assert score.hand in in_language_for("en", score.words())


@pytest.mark.parametrize(
    ("accept", "switcher", "skill", "shield"),
    [("ja", "切替", "盾", "陣"), ("zh-hans", "切换", "盾", "阵")],
)
def test_raigos_switch_and_shield_are_their_own_words(client, accept, switcher, skill, shield):
    """RAIGO's Switch and Shield (tokens and their spells) read as the glossary's 瞬 and 陣,
    while the header's language switcher keeps its "Switch" button word and the spellcard
    skill its "Shield": the tokens' names carry a message context, on the server and in the
    table's script. A log saved before the context (plain ``"Switch"``) still shows."""
    from minigames.engines.raigo.spells import effect_words
    from minigames.engines.raigo.tokens import ids_for, words

    token = words(ids_for("switch")[0])
    assert str(token) == "Switch"
    assert in_language_for(accept, token) == "瞬"
    assert in_language_for(accept, Words.from_json(token.to_json())) == "瞬"
    assert in_language_for(accept, effect_words("switch")) == "瞬"
    assert in_language_for(accept, words(ids_for("shield")[0])) == shield
    assert in_language_for(accept, effect_words("shield")) == shield
    with translation.override(accept):
        assert translation.gettext("Switch") == switcher
        assert translation.gettext("Shield") == skill
    assert in_language_for(accept, Words.from_json({"text": "Switch"})) == switcher
    assert in_language_for("en", token) == "Switch"
    catalog = client.get("/jsi18n/", headers={"accept-language": accept}).content.decode()
    for english, said in (("Switch", "瞬"), ("Shield", shield), ("Four", "四")):
        assert json.dumps({f"RAIGO token\x04{english}": said})[1:-1] in catalog, english


@pytest.mark.parametrize(
    ("accept", "title", "keys"),
    [
        ("ja", "RAIGO：対局を一手ずつ見返す", "矢印キーで一手ずつ戻る・進む"),
        ("zh-hans", "RAIGO：逐步回看这局游戏", "方向键前后移动一步"),
    ],
)
def test_the_replay_page_reads_in_her_language(
    player, other_player, client_for, accept, title, keys
):
    """The replay page's title and its key hints in her language; the keys' own names (Home,
    End, as printed on the keys) marked as not for translating."""
    table = _raigo_after_moves(player, other_player, moves=2)
    page = client_for(player).get(
        f"/tables/raigo/{table.pk}/replay/", headers={"accept-language": accept}
    )
    assert page.status_code == 200
    html = page.content.decode()
    assert title in html and keys in html
    assert '<kbd translate="no">Home</kbd>' in html
    assert "the game again" not in html and "arrow keys" not in html
