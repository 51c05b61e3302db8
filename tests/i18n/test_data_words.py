"""The games' data (the tavern's cards and preset decks, the campaign's races, skills and the
rest) reads in Japanese and Simplified Chinese: its names and texts are marked in a generated
module (``manage.py datawords``, docs/i18n.md), translated in the catalogs, and shown in the
reader's language on the card pages, the card API, a table's state and a character's page."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.utils import translation

from apibase.engine_words import DATA_WORDS, data_in_language, data_text
from config.management.commands.datawords import TARGET, module_text
from tests.factories import CharacterFactory
from tests.minigames.conftest import three_humans_at_war, two_humans
from tests.test_translations import catalog_entries

ROOT = Path(__file__).resolve().parent.parent.parent
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def test_the_generated_module_is_current(tmp_path: Path):
    """``westernroses/data_words.py`` lists exactly what the data files hold now: a data file
    edited without ``manage.py datawords`` fails here."""
    fresh = tmp_path / "data_words.py"
    subprocess.run(  # noqa: S603
        [sys.executable, "manage.py", "datawords", "--output", str(fresh), "-v0"],
        cwd=ROOT,
        check=True,
    )
    committed = (ROOT / TARGET).read_text(encoding="utf-8")
    assert fresh.read_text(encoding="utf-8") == committed == module_text(ROOT), (
        "westernroses/data_words.py is stale: run `python manage.py datawords`, then "
        "makemessages and translate the new entries (docs/i18n.md)"
    )
    # what a player reads, not what the engines key on
    assert {"Hakurei Reimu", "Cinder Fox", "Pony", "Blind", "Battle Spellcard"} <= DATA_WORDS
    assert not {"cinder_fox", "DBS-001", "pony", "own_battle_spell"} & DATA_WORDS


@pytest.mark.parametrize("language", ["ja", "zh_Hans"])
def test_every_translation_keeps_its_numbers(language: str):
    """A translation keeps every number of its original (a card's 500, a skill's 2d or +4):
    over the whole catalog, each run of digits in the English is in the translation as often."""
    wrong, data = [], 0
    for po in sorted((ROOT / "locale" / language / "LC_MESSAGES").glob("*.po")):
        for english, translated in catalog_entries(po).items():
            data += english in DATA_WORDS and bool(translated)
            missing = list(re.findall(r"\d+", english))
            for number in re.findall(r"\d+", translated):
                if number in missing:
                    missing.remove(number)
            if missing and translated:
                wrong.append(f"{english!r} -> {translated!r} lacks {missing}")
    assert not wrong, "\n".join(wrong)
    assert data >= len(DATA_WORDS) - 5, "the data's words are missing from the catalog"


@pytest.mark.parametrize("language", ["ja", "zh-hans"])
def test_every_data_word_is_translated(language: str):
    with translation.override(language):
        english = sorted(w for w in DATA_WORDS if data_text(w) == w)
    # names written alike in both (none yet) would be listed here
    assert english == [], english[:20]


def test_a_persons_words_are_never_taken_for_data():
    with translation.override("ja"):
        assert data_text("Cinder Fox") == "燃えさしの狐"
        assert data_text("Reimu's own deck") == "Reimu's own deck"
        view = {
            "players": [{"seat": 0, "name": "Cinder Fox"}],
            "hand": [{"key": "cinder_fox", "name": "Cinder Fox", "kind": "spirit", "text": "x"}],
        }
        shown = data_in_language(view)
    assert shown["players"][0]["name"] == "Cinder Fox"  # a player's name, not a card
    assert shown["hand"][0]["name"] == "燃えさしの狐"
    assert shown["hand"][0]["key"] == "cinder_fox"
    assert view["hand"][0]["name"] == "Cinder Fox"  # the engine's view is not changed


pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("accept", "words", "english"),
    [
        ("ja", ["博麗霊夢", "キャラクター", "戦闘スペルカード", "霧雨魔理沙"], "Hakurei Reimu"),
        ("zh-hans", ["博丽灵梦", "角色", "战斗符卡", "雾雨魔理沙"], "Hakurei Reimu"),
    ],
)
def test_the_card_pages_and_api_name_the_cards_in_her_language(
    client_for, api_for, player, accept, words, english
):
    web = client_for(player)
    page = web.get("/cards/dbs/", headers={"accept-language": accept}).content.decode()
    detail = web.get("/cards/dbs/DBS-001/", headers={"accept-language": accept}).content.decode()
    for word in words[:2]:
        assert word in detail, word
    for word in words:
        assert word in page, word
    assert f">{english}<" not in page  # the filter's option keeps the English as its value
    assert f'value="{english}"' in page
    api = api_for(player).get(
        "/api/card-games/dbs/cards/", {"page_size": 100}, headers={"accept-language": accept}
    )
    assert api.status_code == 200
    cards = api.json()["results"] if isinstance(api.json(), dict) else api.json()
    first = next(c for c in cards if c["number"] == "DBS-001")
    assert first["name"] == words[0]
    assert first["kind_label"] == data_text_in(accept, "Character")
    # a number stays a number, and the 500 of its Hyper skill is still in its words
    assert any("500" in line for line in first["lines"])


def data_text_in(language: str, text: str) -> str:
    with translation.override(language):
        return data_text(text)


@pytest.mark.parametrize("accept", ["ja", "zh-hans"])
def test_a_tables_state_holds_the_cards_in_her_language(player, other_player, api_for, accept):
    """RSO: the characters on the table, by name; every name in the map is translated, and the
    English, the keys and the numbers are not in the JSON."""
    table = two_humans("rso", player, other_player)
    english = api_for(player).get(f"/api/tavern/tables/{table.pk}/state/").json()
    state = api_for(player).get(
        f"/api/tavern/tables/{table.pk}/state/", headers={"accept-language": accept}
    )
    assert state.status_code == 200
    cards = state.json()["view"]["cards"]
    assert cards and cards.keys() == english["view"]["cards"].keys()
    for number, card in cards.items():
        source = english["view"]["cards"][number]
        assert card["name"] == data_text_in(accept, source["name"]) != source["name"]
        assert CJK.search(card["name"]), card
        assert card["kind"] == source["kind"]


@pytest.mark.parametrize("accept", ["ja", "zh-hans"])
def test_spirit_war_cards_read_in_her_language(player, other_player, gm, api_for, accept):
    """A Spirit War hand: each card's name and text in her language, its key as it was."""
    table = three_humans_at_war(player, other_player, gm)
    english = api_for(player).get(f"/api/tavern/tables/{table.pk}/state/").json()["view"]
    view = (
        api_for(player)
        .get(f"/api/tavern/tables/{table.pk}/state/", headers={"accept-language": accept})
        .json()["view"]
    )
    assert view["hand"] and len(view["hand"]) == len(english["hand"])
    for card, source in zip(view["hand"], english["hand"], strict=True):
        assert card["key"] == source["key"]
        assert card["name"] == data_text_in(accept, source["name"]) != source["name"]
        assert card["text"] == data_text_in(accept, source["text"]) != source["text"]
        assert CJK.search(card["name"]) and CJK.search(card["text"])


@pytest.mark.parametrize(
    ("accept", "shown", "english"),
    [
        # fairy, Carefree Soul, Homing Amulets, the Keen Senses ability, the Flying skill
        ("ja", ["妖精", "自由人", "ホーミングアミュレット", "鋭い感覚", "飛行", "短期記憶"],
         ["Carefree Soul", "Homing Amulets", "Keen Senses", "Short-term Memory"]),
        ("zh-hans", ["妖精", "自由之魂", "追踪护符", "敏锐感官", "飞行", "短期记忆"],
         ["Carefree Soul", "Homing Amulets", "Keen Senses", "Short-term Memory"]),
    ],
)  # fmt: skip
def test_a_characters_sheet_names_her_race_and_skills_in_the_readers_language(
    campaign, player, client_for, accept, shown, english
):
    cirno = CharacterFactory(owner=player, campaign=campaign, name="Cirno")
    html = (
        client_for(player)
        .get(f"/characters/{cirno.pk}/", headers={"accept-language": accept})
        .content.decode()
    )
    for words in shown:
        assert words in html, words
    for words in english:
        assert words not in html, words
    assert "Cirno" in html  # her name is hers


def test_the_character_wizard_offers_the_data_in_japanese(player, client_for):
    html = (
        client_for(player)
        .get("/characters/new/", headers={"accept-language": "ja"})
        .content.decode()
    )
    # a race, its trait, a profession and its description, a shot-type's passive text
    for words in ["ポニー", "ポニーの工夫", "戦闘メイド", "幸運体質", "龍脈"]:
        assert words in html, words
    for words in ["Pony Ingenuity", "Combat-Maid", "Ley Lines"]:
        assert words not in html, words


def test_the_spellcard_builder_offers_her_skills_in_japanese(campaign, player, client_for):
    """Cirno is a Carefree Soul: her impulse skills' names and group in Japanese, each cost's
    number as it was."""
    cirno = CharacterFactory(owner=player, campaign=campaign, name="Cirno")
    html = (
        client_for(player)
        .get(f"/characters/{cirno.pk}/spellcards/new/", headers={"accept-language": "ja"})
        .content.decode()
    )
    for words in ["死ね。", "あっちに行きたい", "じっとして！", "衝動の技能"]:
        assert words in html, words
    for words in ["I wanna be over there", "Stay still!", "Impulse Skills"]:
        assert words not in html, words


@pytest.mark.parametrize(
    ("accept", "blind"), [("ja", "盲目"), ("zh-hans", "失明"), ("en", "Blind")]
)
def test_a_battles_status_effect_is_named_in_her_language(
    started, gm, player, api_for, accept, blind
):
    """The GM blinds the player's character: the battle's state names the status effect in the
    reader's language (its kind stays the engine's key), each language from its own cached
    view."""
    from battles import services

    services.battle_action_apply(
        battle_id=started.battle.pk,
        actor=gm,
        action={"type": "gm_add_status", "combatant": started.pc, "status": "blind", "turns": 2},
        expected_version=started.refresh().version,
    )
    for _ in range(2):  # built, then from the cache
        data = (
            api_for(player)
            .get(f"/api/battles/{started.battle.pk}/state/", headers={"accept-language": accept})
            .json()
        )
        effects = data["view"]["combatants"][started.pc]["effects"]
        assert [(e["kind"], e["label"]) for e in effects if e["kind"] == "blind"] == [
            ("blind", blind)
        ]
