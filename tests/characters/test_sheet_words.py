"""The sheet's fixed words (characters/sheet_words.py) in Japanese and Chinese: the stats and
their abbreviations, kinds, elements and the rules' own labels are translated, a data name
and what a player wrote stay as they are, and English reads as the engine wrote it."""

from __future__ import annotations

from django.utils import translation

from characters.sheet_words import label_words, range_words, sheet_in_language

SHEET = {
    "element": "wood",
    "goddess_element": "light",
    "stats": {"pwr": {"name": "Power", "total": 19}},
    "skills": {"will": {"name": "Will", "kind": "mental", "formula": "(CHA + INS) / 2"}},
    "attacks": [
        {
            "name": "Danmaku",
            "kind": "danmaku",
            "elements": ["spirit", "light"],
            "slug": "danmaku",
            "range_rule": "RANGE + 2 (Options)",
            "notes": ["Targets dodge with an insight roll against 12."],
            "damage": {"dice_parts": [{"source": "stat", "label": "INT 17 / 3", "amount": 5}]},
        }
    ],
    "hp": {"state": "mortally_wounded"},
    "defence": {
        "notes": [
            "Physical attacks: the attacker's power against your charisma (versus check).",
            "Danmaku: an insight roll against 12 dodges; then an insight roll against 14 to graze.",
        ]
    },
    "spellcards": {
        "deck": {"cards": [{"source": "level", "label": "Level 2 (5 per level)", "amount": 10}]}
    },
    "passives": [{"source": "race", "name": "Hardy", "text": "Youkai blood."}],
    "inventory": [{"name": "Leather Armor", "category": "armor"}],
    "drunkenness": {"name": "Heavily Drunk"},
}


def test_the_sheet_reads_in_japanese():
    with translation.override("ja"):
        sheet = sheet_in_language(SHEET)
    assert sheet is not None
    assert sheet["stats"]["pwr"]["name"] == "力"
    assert sheet["skills"]["will"] == {
        "name": "Will",
        "kind": "精神",
        "formula": "(魅力 + 洞察) / 2",
    }
    attack = sheet["attacks"][0]
    assert (attack["name"], attack["kind"], attack["elements"]) == ("弾幕", "弾幕", ["精霊", "光"])
    assert attack["notes"] == ["対象は洞察で 12 以上を出せば回避する。"]
    assert sheet["drunkenness"]["name"] == "泥酔"
    assert attack["range_rule"] == "射程 + 2 （オプション）"
    assert attack["damage"]["dice_parts"][0]["label"] == "知力 17 / 3"
    assert (sheet["element"], sheet["goddess_element"], sheet["hp"]["state"]) == (
        "木",
        "光",
        "瀕死",
    )
    assert sheet["defence"]["notes"][1] == (
        "弾幕：洞察で 12 以上を出せば回避、さらに洞察で 14 以上を出せばグレイズ。"
    )
    assert sheet["spellcards"]["deck"]["cards"][0]["label"] == "レベル 2（1 レベルごとに 5）"
    assert sheet["passives"][0] == {"source": "種族", "name": "Hardy", "text": "Youkai blood."}
    assert sheet["inventory"][0] == {"name": "Leather Armor", "category": "防具"}
    # the sheet it was given is not changed
    assert SHEET["stats"]["pwr"]["name"] == "Power"


def test_the_sheet_reads_in_chinese():
    with translation.override("zh-hans"):
        sheet = sheet_in_language(SHEET)
        assert label_words("Base deck") == "基础卡组"
        assert range_words("1 (weapon)") == "1 （武器）"
    assert sheet is not None
    assert sheet["stats"]["pwr"]["name"] == "力量"
    assert sheet["skills"]["will"]["formula"] == "(魅力 + 洞察) / 2"
    assert sheet["attacks"][0]["elements"] == ["精灵", "光"]
    assert sheet["defence"]["notes"][0] == "物理攻击：攻击者的力量对你的魅力（对抗检定）。"


def test_english_is_the_engines_own():
    with translation.override("en"):
        sheet = sheet_in_language(SHEET)
        assert label_words("Homing Amulets") == "Homing Amulets"
    assert sheet is not None
    assert sheet["skills"]["will"]["formula"] == "(CHA + INS) / 2"
    assert sheet["attacks"][0]["range_rule"] == "RANGE + 2 (Options)"
    assert sheet["defence"]["notes"] == SHEET["defence"]["notes"]
    assert sheet["hp"]["state"] == "mortally wounded"
    assert sheet["passives"][0]["source"] == "Race"
