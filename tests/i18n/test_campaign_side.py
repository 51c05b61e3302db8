"""The campaign side of the site (campaigns, dice, characters, spellcards, the GM tools) reads in
Japanese and Simplified Chinese: its pages answer in the language the reader's browser asks for
(``Accept-Language``) or the one she picked (the ``django_language`` cookie), for a GM and a
player alike (tests/test_translations.py checks that every marked string has a translation)."""

from __future__ import annotations

import pytest
from django.conf import settings

from tests.factories import CharacterFactory


def _get(client, url, lang):
    response = client.get(url, headers={"accept-language": f"{lang},en;q=0.5"})
    assert response.status_code == 200
    return response.content.decode()


#: (page, who, language, words that must show, English words that must not). ``{pk}`` is the
#: campaign, ``{c}`` the player's character "Cirno".
PAGES = [
    (
        "/campaigns/",
        "player",
        "ja",
        ["あなたのキャンペーン", "新しいキャンペーン"],
        ["Your campaigns"],
    ),
    (
        "/campaigns/{pk}/",
        "gm",
        "zh-hans",
        ["概览", "GM 面板", "添加成员", "掷骰记录"],
        ["Roll log"],
    ),
    ("/campaigns/{pk}/", "player", "ja", ["概要", "メンバー", "ロール履歴"], ["Add a member"]),
    (
        "/campaigns/{pk}/settings/",
        "gm",
        "ja",
        ["キャンペーンの設定", "ハウスルール"],
        ["Save settings"],
    ),
    (
        "/campaigns/{pk}/dice/",
        "player",
        "zh-hans",
        ["掷骰", "查看概率", "骰子表达式"],
        ["Show odds"],
    ),
    (
        "/campaigns/{pk}/characters/",
        "gm",
        "ja",
        ["Scarlet Mist のキャラクター", "新しい NPC"],
        ["New NPC"],
    ),
    (
        "/characters/{c}/",
        "player",
        "zh-hans",
        ["主要属性", "闪避弹幕", "灵力与符卡", "擦弹"],
        ["Main stats"],
    ),
    ("/characters/{c}/", "gm", "ja", ["主能力値", "弾幕の回避", "霊力とスペルカード"], ["Defence"]),
    ("/characters/{c}/edit/", "player", "ja", ["1. ショットタイプ", "算出値"], ["Derived stats"]),
    (
        "/characters/new/",
        "player",
        "zh-hans",
        ["新建角色", "1. 射击类型", "创建角色"],
        ["New character"],
    ),
    (
        "/characters/{c}/deck/",
        "player",
        "ja",
        ["Cirno のスペルカード", "新しいスペルカード"],
        ["New spellcard"],
    ),
    (
        "/characters/{c}/spellcards/new/",
        "player",
        "zh-hans",
        ["新建符卡", "查看消耗", "攻击力"],
        ["Show cost"],
    ),
    (
        "/campaigns/{pk}/spellcard-templates/",
        "gm",
        "ja",
        ["テンプレートカード"],
        ["Template cards"],
    ),
    (
        "/campaigns/{pk}/dashboard/",
        "gm",
        "zh-hans",
        ["快捷操作", "队伍", "为 NPC 掷骰", "灵力"],
        ["Quick actions"],
    ),
    (
        "/campaigns/{pk}/members/",
        "gm",
        "ja",
        ["Scarlet Mist：メンバー", "プレイヤーにする"],
        ["Make player"],
    ),
    (
        "/campaigns/{pk}/members/",
        "player",
        "zh-hans",
        ["退出此战役", "成员"],
        ["Leave this campaign"],
    ),
    ("/campaigns/{pk}/sessions/", "gm", "ja", ["セッションを予定する", "今後"], ["Upcoming"]),
    (
        "/campaigns/{pk}/calendar/",
        "gm",
        "zh-hans",
        ["世界中的日期是", "调整日期", "1年1月1日 星期一"],
        ["Move the date", "Monday", "January"],
    ),
    # the Gregorian default's day in the reader's words and order (gmtools/world_calendar.py)
    (
        "/campaigns/{pk}/calendar/",
        "player",
        "ja",
        ["1年1月1日（月曜日）・冬", "1年1月"],
        ["Winter"],
    ),
    (
        "/campaigns/{pk}/handouts/",
        "player",
        "ja",
        ["あなたと共有", "まだハンドアウトはありません。"],
        ["Shared with you"],
    ),
    ("/campaigns/{pk}/notes/", "gm", "zh-hans", ["只有战役的 GM 能看到这些笔记。"], ["New note"]),
    (
        "/campaigns/{pk}/invitations/",
        "gm",
        "ja",
        ["新しい招待リンク", "リンクを作成"],
        ["Create link"],
    ),
    ("/campaigns/{pk}/timeline/", "player", "zh-hans", ["筛选", "第 1 页"], ["Filter"]),
]


@pytest.mark.parametrize(("url", "who", "lang", "shown", "gone"), PAGES)
def test_campaign_side_pages_read_in_the_readers_language(
    campaign, gm, player, client_for, url, who, lang, shown, gone
):
    cirno = CharacterFactory(owner=player, campaign=campaign, name="Cirno")
    client = client_for({"gm": gm, "player": player}[who])
    html = _get(client, url.format(pk=campaign.pk, c=cirno.pk), lang)
    for words in shown:
        assert words in html, words
    for words in gone:
        assert words not in html, words


def test_the_language_cookie_wins_over_the_browser(campaign, player, client_for):
    client = client_for(player)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    html = client.get(f"/campaigns/{campaign.pk}/", headers={"accept-language": "ja"}).content
    assert "概览" in html.decode()
    assert "概要" not in html.decode()


def test_a_message_after_a_post_is_in_the_readers_language(campaign, gm, client_for):
    client = client_for(gm)
    response = client.post(
        f"/campaigns/{campaign.pk}/settings/",
        {"reset": "rules"},
        headers={"accept-language": "ja"},
        follow=True,
    )
    assert "ハウスルールを既定値に戻しました。" in response.content.decode()


def test_english_stays_the_default(campaign, player, client_for):
    html = client_for(player).get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "Roll log" in html
    assert "ロール履歴" not in html


def test_the_dashboard_kept_in_one_language_is_not_served_in_another(
    campaign, gm, player, client_for
):
    """The dashboard's page and party panel are kept between versions; a GM reading it in
    Japanese must not leave Japanese words for the next reader who asks in English."""
    CharacterFactory(owner=player, campaign=campaign, name="Cirno")
    client = client_for(gm)
    url = f"/campaigns/{campaign.pk}/dashboard/"
    assert "快捷操作" in _get(client, url, "zh-hans")
    english = client.get(url).content.decode()
    assert "Quick actions" in english
    assert "快捷操作" not in english
    assert "Spell power" in english


def test_the_scripts_catalog_answers_in_the_readers_language(client):
    """The words static/js says through gettext() (the wizard's buttons, the dashboard's
    status line) come from /jsi18n/ in the reader's language."""
    ja = client.get("/jsi18n/", headers={"accept-language": "ja"}).content.decode()
    zh = client.get("/jsi18n/", headers={"accept-language": "zh-hans"}).content.decode()
    assert "\\u6b21\\u3078" in ja or "次へ" in ja  # 次へ, "Next"
    assert "\\u5df2\\u662f\\u6700\\u65b0" in zh or "已是最新" in zh  # "Up to date."
