"""The campaign side of the site (campaigns, dice, characters, spellcards, the GM tools) reads in
Japanese and Simplified Chinese: its pages answer in the language the reader's browser asks for
(``Accept-Language``) or the one she picked (the ``django_language`` cookie), for a GM and a
player alike, and every string those apps mark has a translation in both catalogs."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.utils.translation import trans_real

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGS = ("ja", "zh_Hans")
#: The files whose marked strings this side of the site owns (a catalog entry is ours when one
#: of its references starts with one of these).
OURS = (
    "campaign/",
    "characters/",
    "gmtools/",
    "spellcards/",
    "templates/campaign/",
    "templates/characters/",
    "templates/dice/",
    "templates/gmtools/",
    "templates/spellcards/",
    "static/js/character_wizard.js",
    "static/js/character_sheet.js",
    "static/js/spellcard_builder.js",
    "static/js/dice.js",
    "static/js/dashboard.js",
)


def _entries(po: Path) -> list[dict[str, object]]:
    """The catalog's entries: references, flags, msgid and every msgstr (the header left out)."""
    entries = []
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        refs: list[str] = []
        flags: list[str] = []
        fields: dict[str, str] = {}
        key = ""
        for line in block.splitlines():
            if line.startswith("#:"):
                refs += [r.rsplit(":", 1)[0] for r in line[2:].split()]
            elif line.startswith("#,"):
                flags += [f.strip() for f in line[2:].split(",")]
            elif line.startswith("#"):
                continue
            elif line.startswith('"'):
                fields[key] += ast.literal_eval(line)
            elif match := re.match(r"(\S+) (\".*\")$", line):
                key = match.group(1)
                fields[key] = ast.literal_eval(match.group(2))
        if fields.get("msgid"):
            msgstrs = [v for k, v in fields.items() if k.startswith("msgstr")]
            entries.append({"refs": refs, "flags": flags, "msgid": fields["msgid"], "msgstrs": msgstrs})
    return entries


@pytest.fixture(scope="module")
def compiled() -> None:
    """The catalogs compiled (``.mo`` files are build output), and Django's per-process cache of
    loaded catalogs emptied, so the pages below read the fresh ones."""
    call_command("compilemessages", locale=list(LANGS), verbosity=0)
    trans_real._translations = {}
    trans_real._default = None


@pytest.mark.parametrize("domain", ["django", "djangojs"])
@pytest.mark.parametrize("lang", LANGS)
def test_every_string_the_campaign_side_marks_is_translated(lang, domain):
    po = LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"
    ours = [e for e in _entries(po) if any(str(r).startswith(OURS) for r in e["refs"])]
    assert len(ours) > (100 if domain == "django" else 10)
    untranslated = [e["msgid"] for e in ours if not all(e["msgstrs"]) or "fuzzy" in e["flags"]]
    assert untranslated == []


def _get(client, url, lang):
    response = client.get(url, headers={"accept-language": f"{lang},en;q=0.5"})
    assert response.status_code == 200
    return response.content.decode()


#: (page, who, language, words that must show, English words that must not).
CAMPAIGN_PAGES = [
    ("/campaigns/", "player", "ja", ["あなたのキャンペーン", "新しいキャンペーン"], ["Your campaigns"]),
    ("/campaigns/{pk}/", "gm", "zh-hans", ["概览", "GM 面板", "添加成员", "掷骰记录"], ["Roll log"]),
    ("/campaigns/{pk}/", "player", "ja", ["概要", "メンバー", "ロール履歴"], ["Add a member"]),
    ("/campaigns/{pk}/settings/", "gm", "ja", ["キャンペーンの設定", "ハウスルール"], ["Save settings"]),
    ("/campaigns/{pk}/dice/", "player", "zh-hans", ["掷骰器", "查看概率", "骰子表达式"], ["Show odds"]),
]


@pytest.mark.parametrize(("url", "who", "lang", "shown", "gone"), CAMPAIGN_PAGES)
def test_campaign_pages_read_in_the_readers_language(
    compiled, campaign, gm, player, client_for, url, who, lang, shown, gone
):
    client = client_for({"gm": gm, "player": player}[who])
    html = _get(client, url.format(pk=campaign.pk), lang)
    for words in shown:
        assert words in html, words
    for words in gone:
        assert words not in html, words
    # the campaign's own name is the GM's words, never translated
    assert "Scarlet Mist" in html


def test_the_language_cookie_wins_over_the_browser(compiled, campaign, player, client_for):
    client = client_for(player)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    html = client.get(f"/campaigns/{campaign.pk}/", headers={"accept-language": "ja"}).content
    assert "概览" in html.decode()
    assert "概要" not in html.decode()


def test_a_message_after_a_post_is_in_the_readers_language(compiled, campaign, gm, client_for):
    client = client_for(gm)
    response = client.post(
        f"/campaigns/{campaign.pk}/settings/",
        {"reset": "rules"},
        headers={"accept-language": "ja"},
        follow=True,
    )
    assert "ハウスルールを既定値に戻しました。" in response.content.decode()


def test_english_stays_the_default(compiled, campaign, player, client_for):
    html = client_for(player).get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "Roll log" in html
    assert "ロール履歴" not in html
