"""A bad character file is refused in the reader's language: the import page's form error,
the API's 400 and the reasons a damaged stored character gives elsewhere say why in Japanese
and Chinese, naming the field as the file spells it (a JSON key is never translated); in English
every refusal reads as it always has."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from characters.services import CharacterFormatError, character_document_parse

#: A bad file, and how each language says why it is refused (JSON keys and literal values kept).
CASES = [
    (
        b'{"format": "pdf"}',
        {
            "en": "This is not a Western Roses character: format: must be 'westernroses.character'",
            "ja": "Western Roses のキャラクターではありません：format："
            "'westernroses.character' でなければなりません",
            "zh-hans": "这不是 Western Roses 的角色：format：必须是 'westernroses.character'",
        },
    ),
    (
        json.dumps(
            {
                "format": "westernroses.character",
                "version": 1,
                "character": {"inventory": {"sword": {"quantity": 1, "equipped": "yes"}}},
            }
        ).encode(),
        {
            "en": "This is not a Western Roses character: character.inventory.sword.equipped: "
            "must be true or false",
            "ja": "Western Roses のキャラクターではありません："
            "character.inventory.sword.equipped：true か false でなければなりません",
            "zh-hans": "这不是 Western Roses 的角色：character.inventory.sword.equipped："
            "必须是 true 或 false",
        },
    ),
    (
        b'{"format": "westernroses.character", "version": 7, "character": {}}',
        {
            "en": "This is not a Western Roses character: version: 7 is not supported "
            "(this app reads version 1)",
            "ja": "Western Roses のキャラクターではありません：version："
            "7 には対応していません（このアプリが読めるのはバージョン 1 です）",
            "zh-hans": "这不是 Western Roses 的角色：version：不支持 7（本应用读取的是版本 1）",
        },
    ),
    (
        b'{"format": "westernroses.character", "version": 1, "character": {"name": "a\\u0000"}}',
        {
            "en": "This is not a Western Roses character: (file): Text may not contain NUL "
            "characters (\\u0000).",
            "ja": "Western Roses のキャラクターではありません：(file)："
            "テキストに NUL 文字（\\u0000）は使えません。",
            "zh-hans": "这不是 Western Roses 的角色：(file)：文本不能包含 NUL 字符（\\u0000）。",
        },
    ),
    (
        b"\xff\xfe",
        {
            "en": "This is not a Western Roses character: (file): is not UTF-8 text",
            "ja": "Western Roses のキャラクターではありません：(file)："
            "UTF-8 のテキストではありません",
            "zh-hans": "这不是 Western Roses 的角色：(file)：不是 UTF-8 文本",
        },
    ),
]


@pytest.mark.parametrize("lang", ["en", "ja", "zh-hans"])
@pytest.mark.parametrize(("raw", "said"), CASES)
def test_the_import_page_refuses_a_bad_file_in_the_readers_language(
    raw, said, lang, player, client_for
):
    response = client_for(player).post(
        "/characters/import/",
        {"file": SimpleUploadedFile("x.json", raw)},
        headers={"accept-language": lang},
    )
    assert response.status_code == 400
    assert said[lang] in html.unescape(response.content.decode())


@pytest.mark.parametrize("lang", ["en", "ja", "zh-hans"])
@pytest.mark.parametrize(("raw", "said"), CASES[:3])
def test_the_api_refuses_a_bad_file_in_the_readers_language(raw, said, lang, player, api_for):
    response = api_for(player).post(
        "/api/characters/import/",
        {"file": SimpleUploadedFile("x.json", raw)},
        format="multipart",
        headers={"accept-language": lang},
    )
    assert response.status_code == 400
    body = response.json()
    assert body["detail"] == said[lang]
    ((field, (problem,)),) = body["errors"].items()
    assert said[lang].endswith(f"{field}：{problem}" if lang != "en" else f"{field}: {problem}")


@pytest.mark.parametrize(("raw", "said"), CASES)
def test_the_exception_keeps_its_english(raw, said):
    """Logs, bots and the older tests read the exception itself: its English is unchanged."""
    with pytest.raises(CharacterFormatError) as caught:
        character_document_parse(raw)
    assert caught.value.detail == said["en"]
    assert str(caught.value) == said["en"].removeprefix("This is not a Western Roses character: ")


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Cirno: bonus_points.pwr: must be a whole number"),
        ("ja", "Cirno：bonus_points.pwr：整数でなければなりません"),
        ("zh-hans", "Cirno：bonus_points.pwr：必须是整数"),
    ],
)
def test_a_damaged_stored_character_says_why_on_the_spellcard_builder(lang, said, player):
    """``caster_context`` gives the reason the builder shows when it cannot design yet."""
    from django.utils import translation

    from spellcards.selectors import CharacterIncomplete, caster_context
    from tests.factories import CharacterFactory

    character = CharacterFactory(owner=player, name="Cirno")
    character.draft = {**character.draft, "bonus_points": {"pwr": "two"}}
    with translation.override(lang), pytest.raises(CharacterIncomplete) as caught:
        caster_context(character)
    assert str(caught.value) == said


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "The stored character is damaged: must be a whole number."),
        ("ja", "整数でなければなりません"),
        ("zh-hans", "必须是整数"),
    ],
)
def test_a_damaged_stored_characters_sheet_says_why_in_her_language(lang, said, player, client_for):
    """Her sheet page names what is damaged and why, and the rule it cites, in her language."""
    from tests.factories import CharacterFactory

    character = CharacterFactory(owner=player, name="Cirno")
    character.draft = {**character.draft, "bonus_points": {"pwr": "two"}}
    character.save()
    page = client_for(player).get(
        reverse("characters:sheet", args=[character.pk]), headers={"accept-language": lang}
    )
    assert page.status_code == 200
    html = page.content.decode()
    problems = html.split('id="sheet-problems"', 1)[1].split("</section>", 1)[0]
    assert said in problems, problems
    if lang != "en":
        words = re.sub(r"<[^>]+>", " ", problems)  # what she reads, not the markup's codes
        assert "damaged" not in words and "app" not in words, words
