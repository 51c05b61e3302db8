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


def _logged_roll(campaign, user, **verdict):
    from campaign.models import Roll

    return Roll.objects.create(
        campaign=campaign, user=user, notation="3d", total=11, target=10, **verdict
    )


@pytest.mark.parametrize(
    ("lang", "shown", "gone"),
    [
        (
            "ja",
            [
                "成功（1 上回った）",
                "失敗（同値は失敗：目標値を上回る必要あり）",
                "ファンブル（3 足りない）",
            ],
            ["success by 1", "ties fail", "critical failure by 3"],
        ),
        (
            "zh-hans",
            ["成功（高出 1）", "失败（持平即失败：须超过目标值）", "大失败（差 3）"],
            ["success by 1", "ties fail", "critical failure by 3"],
        ),
    ],
)
def test_a_rolls_verdict_reads_in_the_readers_language(
    campaign, gm, player, client_for, lang, shown, gone
):
    """The engine's verdict (westernroses/checks.py ``verdict``) on the campaign page's roll
    log and on the dice page: a 3d total of 11 against 10 succeeds by 1; a tie fails
    ("ties fail: beat the target"); a critical failure 3 short."""
    _logged_roll(campaign, player, margin=1, success=True)
    _logged_roll(campaign, player, margin=0, success=False)
    _logged_roll(campaign, player, margin=-3, success=False, critical="failure")
    client = client_for(player)
    for url in (f"/campaigns/{campaign.pk}/", f"/campaigns/{campaign.pk}/dice/"):
        html = _get(client, url, lang)
        for words in shown:
            assert words in html, (url, words)
        for words in gone:
            assert words not in html, (url, words)
    english = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "success by 1" in english
    assert "failure (ties fail: beat the target)" in english


def test_the_house_rules_read_in_the_readers_language(campaign, gm, client_for):
    """Each house rule's label and help on the settings page (westernroses/house_rules.py),
    with its default: 3 stat points per die (ruling 1), a graze target of 12."""
    client = client_for(gm)
    url = f"/campaigns/{campaign.pk}/settings/"
    ja = _get(client, url, "ja")
    for words in [
        "ダイス 1 個あたりの能力値",
        "ダイスの数 = 能力値 ÷ この値（切り捨て）。 既定値 3。",
    ]:
        assert words in ja, words
    assert "グレイズの目標値" in ja
    for words in ["Stat points per die", "Default 3", "Graze target", "Tavern stakes"]:
        assert words not in ja, words
    zh = _get(client, url, "zh-hans")
    assert "每颗骰子所需属性点" in zh
    assert "默认值 12。" in zh
    assert "Stat points per die" in client.get(url).content.decode()


def test_a_house_rule_out_of_order_is_refused_in_the_readers_language(campaign, gm, client_for):
    """A starting spell power (60) above the cap (10) is refused beside its field, in
    Japanese for a Japanese reader."""
    from westernroses.house_rules import DEFAULT_HOUSE_RULES

    data = {"name": campaign.name, "description": ""}
    data.update({k: str(v) for k, v in DEFAULT_HOUSE_RULES.to_dict().items()})
    data.update(starting_spell_power="60", spell_power_cap="10")
    response = client_for(gm).post(
        f"/campaigns/{campaign.pk}/settings/", data, headers={"accept-language": "ja"}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "開始時の霊力（60）は霊力の上限（10）を超えられません。" in html
    assert "cannot be above" not in html


def test_the_dice_pages_changed_house_rules_read_in_the_readers_language(
    campaign, gm, player, client_for
):
    """The dice page names the campaign's changed house rules (2 stat points per die)."""
    from campaign import services
    from campaign.permissions import access_for

    services.campaign_update_settings(
        campaign=campaign,
        by=access_for(gm, campaign),
        house_rules={**campaign.rules().to_dict(), "stat_per_die": 2},
    )
    html = _get(client_for(player), f"/campaigns/{campaign.pk}/dice/", "zh-hans")
    assert "每颗骰子所需属性点: 2" in html
    assert "Stat points per die" not in html
