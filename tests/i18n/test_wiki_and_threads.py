"""The wiki and play-by-post read in Japanese and Simplified Chinese (issue 42): every page of
both, for a GM and a player, answers in the reader's language with no English interface word
left, while what the members wrote stays as written; a translated page hides from a player
exactly what the English one hides; the API's refusals and the notices the two apps send speak
the reader's (the notice: the recipient's saved) language."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.utils import timezone

from campaign.permissions import access_for
from notifications import texts
from notifications.models import EventType, Notification
from tests.factories import CharacterFactory
from tests.i18n.test_campaign_side import _get
from threads import services as threads
from threads.digest import send_daily_digests
from wiki import services as wiki
from wiki.stat_blocks import stat_block_set

#: A stat block by the rules for every NPC (westernroses/stat_block.py): the GMs' alone.
BLOCK = {"pwr": 5, "cha": 7, "int": 5, "ins": 8, "hp": 140, "speed": 4, "range": 3}


@pytest.fixture
def world(campaign, gm, player, other_player):
    """A public place, a GM-only plot, a character entry with a GM-only section and a stat
    block; a thread with the player's post holding a secret roll."""
    access = access_for(gm, campaign)

    def write(**kw):
        return wiki.entry_create(campaign_id=campaign.pk, by=access, author=gm, **kw)

    cirno = CharacterFactory(owner=player, campaign=campaign, name="Cirno")
    plan = write(title="Remilia's plan", kind="lore", body="Cover Gensokyo in mist.")
    mansion = write(
        title="Scarlet Devil Mansion",
        kind="place",
        body="A red mansion by the lake. @[[Remilia's plan]] starts here.",
        visibility="all",
        tags=["mansion"],
    )
    meiling = write(
        title="Hong Meiling", kind="character", body="The gate guard.", visibility="all"
    )
    wiki.section_save(
        entry=meiling, by=access, author=gm, heading="Asleep on duty",
        body="She naps after lunch.", visibility="gm",
    )  # fmt: skip
    wiki.entry_update(entry=mansion, by=access, author=gm, body="A red mansion by the lake.")
    stat_block_set(entry=meiling, by=access, author=gm, data=BLOCK)
    thread = threads.thread_create(
        campaign=campaign, by=access, user=gm, title="The misty lake", category="Act one"
    )
    post = threads.post_create(
        thread=thread,
        by=access_for(player, campaign),
        user=player,
        body="Cirno skates over the ice.\n/roll secret 3d > 9 Stealth",
        character_id=cirno.pk,
    )
    return SimpleNamespace(
        cirno=cirno, plan=plan, mansion=mansion, meiling=meiling, thread=thread, post=post
    )


#: (page, who, language, words that must show, English words that must not). ``{pk}`` is the
#: campaign, ``{m}`` the mansion, ``{h}`` Hong Meiling's entry, ``{t}`` the thread and ``{p}``
#: the player's post in it.
PAGES = [
    (
        "/campaigns/{pk}/wiki/",
        "gm",
        "ja",
        ["Scarlet Mist</span>：ウィキ", "ウィキを検索", "新しい項目", "種別を追加", "場所", "伝承"],
        ["Search the wiki", "New entry", "Add the kind", "No entries yet", ">Place<", ">Lore<"],
    ),
    (
        "/campaigns/{pk}/wiki/",
        "player",
        "zh-hans",
        ["搜索维基", "条目", "地点", "角色或 NPC", "Scarlet Devil Mansion"],
        ["Search the wiki", "Entries", ">Place<", "Character or NPC"],
    ),
    (
        "/campaigns/{pk}/wiki/?q=mansion",
        "player",
        "ja",
        ['<span translate="no">「mansion」</span> の検索結果', "Scarlet Devil Mansion"],
        ["Found for", "Nothing found"],
    ),
    (
        "/campaigns/{pk}/wiki/?tag=mansion",
        "gm",
        "zh-hans",
        ['标签 <span translate="no">“mansion”</span>', "全部"],
        ["tagged", ">All<"],
    ),
    (
        "/campaigns/{pk}/wiki/{m}/",
        "gm",
        "zh-hans",
        ["编辑", "历史", "删除条目", "添加章节", "链接到此处的条目", "可见：战役中的所有人"],
        ["Delete the entry", "Add a section", "Linked from", "seen by", "Game master<"],
    ),
    (
        "/campaigns/{pk}/wiki/{m}/",
        "player",
        "ja",
        ["この項目へのリンク元", "まだどこからもリンクされていません。", "場所"],
        ["Linked from", "Nothing links here yet", ">Edit<"],
    ),
    (
        "/campaigns/{pk}/wiki/{h}/",
        "gm",
        "ja",
        ["戦闘データ", "GM のみ", "戦闘データを編集", 'セクション <span translate="no">「Asleep'],
        ["Stat block", "Edit the stat block", "Edit the section", "Speed"],
    ),
    (
        "/campaigns/{pk}/wiki/{m}/edit/",
        "gm",
        "ja",
        ['<span translate="no">「Scarlet Devil Mansion」</span> を編集', "公開範囲", "所在地"],
        ["Who sees it", "Inside the place", "Remove the picture", ">Save<", ">Cancel<"],
    ),
    (
        "/campaigns/{pk}/wiki/new/",
        "gm",
        "zh-hans",
        ["新建维基条目", "可见范围", "标签", "不在其他地点内", "角色或 NPC"],
        ["New wiki entry", "Tags", "Not inside another place", "Character or NPC"],
    ),
    (
        "/campaigns/{pk}/wiki/{h}/sections/new/",
        "gm",
        "zh-hans",
        ["新建章节", "标题", "指定的玩家"],
        ["new section", "Heading", "Chosen players"],
    ),
    (
        "/campaigns/{pk}/wiki/{h}/stat-block/",
        "gm",
        "zh-hans",
        ["战斗数据", "保存战斗数据", "初始灵力", "PWR（力量）"],
        ["Save the stat block", "Starting spell power", "PWR (Power)"],
    ),
    (
        "/campaigns/{pk}/wiki/{m}/history/",
        "gm",
        "ja",
        ["の履歴", "版 2", "作成", "変更：", "本文", "項目に戻る", "版 1 に戻す"],
        ["History of", "Version 2", "Written", "Changed:", "Back to the entry"],
    ),
    (
        "/campaigns/{pk}/threads/",
        "player",
        "ja",
        ["Scarlet Mist</span>：スレッド", "シーンと話題", "スレッドを立てる", "投稿 1 件"],
        ["Start a thread", "Scenes and topics", "1 post", "Post as"],
    ),
    (
        "/campaigns/{pk}/threads/",
        "gm",
        "zh-hans",
        ["场景与话题", "发起帖子", "1 条帖文", "发帖身份", "你自己"],
        ["Start the thread", "Scene or topic", "Yourself"],
    ),
    (
        "/campaigns/{pk}/threads/{t}/",
        "player",
        "zh-hans",
        ["回复", "所有帖子", "所有成员都能发帖", "扮演者：", "暗骰", "你的帖文", "Stealth"],
        ["Reply", "All threads", "open to every member", "played by", "Your post"],
    ),
    (
        "/campaigns/{pk}/threads/{t}/",
        "gm",
        "ja",
        ["GM：このスレッド", "ハンドアウトにする", "ウィキの項目にする", "ロック（GM だけが投稿）"],
        ["Make a handout", "Make a wiki entry", "this thread", "Pinned", "secret<"],
    ),
    (
        "/campaigns/{pk}/threads/{t}/posts/{p}/edit/",
        "player",
        "ja",
        ["The misty lake</span> の投稿を編集", "編集でロールし直すことはありません"],
        ["Edit your post", "an edit never rolls", "Your post"],
    ),
    (
        "/campaigns/{pk}/threads/{t}/posts/{p}/handout/",
        "gm",
        "zh-hans",
        ["做成资料", "资料标题", "摘录（留空：整条帖文）"],
        ["Make the handout", "Handout title", "Passage"],
    ),
    (
        "/campaigns/{pk}/threads/{t}/posts/{p}/wiki-entry/",
        "gm",
        "ja",
        ["ウィキの項目を作る", "項目のタイトル", "公開範囲", "GM のみ", "伝承"],
        ["Make the wiki entry", "Entry title", "Who sees it", "Game masters only", ">Lore<"],
    ),
]


@pytest.mark.parametrize(("url", "who", "lang", "shown", "gone"), PAGES)
def test_wiki_and_thread_pages_read_in_the_readers_language(
    world, campaign, gm, player, client_for, url, who, lang, shown, gone
):
    client = client_for({"gm": gm, "player": player}[who])
    page = url.format(
        pk=campaign.pk, m=world.mansion.pk, h=world.meiling.pk, t=world.thread.pk, p=world.post.pk
    )
    html = _get(client, page, lang)
    for words in shown:
        assert words in html, words
    for words in gone:
        assert words not in html, words


@pytest.mark.parametrize("lang", ["ja", "zh-hans"])
def test_a_translated_page_hides_from_a_player_what_the_english_one_hides(
    world, campaign, gm, player, other_player, client_for, lang
):
    """The GM-only entry, section, stat block and GM panel stay out of a player's pages in
    every language; a mention of the hidden entry reads as something not learned yet, in her
    language; another player's secret roll shows only that it was rolled."""
    client = client_for(player)
    listing = _get(client, f"/campaigns/{campaign.pk}/wiki/", lang)
    assert "Scarlet Devil Mansion" in listing
    assert "Remilia's plan" not in listing and "Remilia&#x27;s plan" not in listing
    meiling = _get(client, f"/campaigns/{campaign.pk}/wiki/{world.meiling.pk}/", lang)
    for secret in ("Asleep on duty", "naps after lunch", "wiki-stat-block", "wiki-gm-title"):
        assert secret not in meiling, secret
    assert ("戦闘データ" if lang == "ja" else "战斗数据") not in meiling
    search = _get(client, f"/campaigns/{campaign.pk}/wiki/?q=mist", lang)
    assert "Remilia" not in search
    assert (
        client.get(
            f"/campaigns/{campaign.pk}/wiki/{world.plan.pk}/", headers={"accept-language": lang}
        ).status_code
        == 404
    )
    # the mention of the GM-only plan, written in the mansion's first version
    wiki.entry_update(
        entry=world.mansion,
        by=access_for(gm, campaign),
        author=gm,
        body="@[[Remilia's plan]] starts here.",
    )
    mansion = _get(client, f"/campaigns/{campaign.pk}/wiki/{world.mansion.pk}/", lang)
    assert ("まだ知らない何か" if lang == "ja" else "你尚未得知的事物") in mansion
    assert "Remilia" not in mansion
    assert "something you have not learned yet" not in mansion
    # a secret roll of the player's, seen by the other player
    thread = _get(
        client_for(other_player), f"/campaigns/{campaign.pk}/threads/{world.thread.pk}/", lang
    )
    note = (
        "秘密のロール：見られるのは GM とロールした本人だけです。"
        if lang == "ja"
        else "暗骰：只有主持人（GM）和掷骰者能看到。"
    )
    assert note in thread
    assert "Stealth" not in thread and "roll-total" not in thread


def test_the_apis_refusals_speak_the_readers_language(
    world, campaign, gm, player, other_player, api_for
):
    api = api_for(player)
    base = f"/api/campaigns/{campaign.pk}"
    empty = api.post(f"{base}/threads/", {"title": " "}, format="json", HTTP_ACCEPT_LANGUAGE="ja")
    assert empty.status_code == 400
    assert empty.json()["errors"]["title"] == ["この項目は空にできません。"]  # DRF's own
    posts = f"{base}/threads/{world.thread.pk}/posts/"
    bad = api.post(posts, {"body": "/roll"}, format="json", HTTP_ACCEPT_LANGUAGE="ja")
    assert bad.status_code == 400
    assert bad.json()["errors"]["body"] == [
        "ロールは「/roll 4d > 12」（ダイス、> と目標値）の形で書いてください：/roll"
    ]
    threads.thread_update(thread=world.thread, by=access_for(gm, campaign), locked=True)
    locked = api.post(
        posts,
        {"body": "Let me in"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert locked.status_code == 403
    assert locked.json()["detail"] == "此帖已锁定：只有主持人（GM）能发帖。"
    hidden = api.get(f"{base}/wiki/entries/{world.plan.pk}/", HTTP_ACCEPT_LANGUAGE="ja")
    assert hidden.status_code == 404
    assert hidden.json()["detail"] == "見つかりませんでした。"  # the API's one 404, translated
    theirs = api_for(other_player).patch(
        f"{posts}{world.post.pk}/", {"body": "Mine now"}, format="json", HTTP_ACCEPT_LANGUAGE="ja"
    )
    assert theirs.status_code == 403
    assert theirs.json()["detail"] == "投稿を編集できるのは投稿者だけです。"


def test_a_notice_is_written_in_the_recipients_saved_language(
    world, campaign, gm, player, other_player
):
    """Wiki news, a thread's mention and the day's posts reach each player in the language of
    her account, or in English when she chose none (a notice is written once, for every
    channel)."""
    player.language = "ja"
    player.save(update_fields=["language"])
    access = access_for(gm, campaign)
    wiki.entry_create(
        campaign_id=campaign.pk, by=access, author=gm, title="Misty Lake", kind="place",
        visibility="all",
    )  # fmt: skip
    news = Notification.objects.filter(event=EventType.WIKI_UPDATE, title__contains="Misty Lake")
    assert seen(news.get(recipient=player))[0] == "ウィキの新しい項目：Misty Lake"
    assert seen(news.get(recipient=other_player))[0] == "New in the wiki: Misty Lake"
    threads.post_create(thread=world.thread, by=access, user=gm, body="@player-one, @player-two?")
    mentions = Notification.objects.filter(event=EventType.THREAD_MENTION)
    assert (
        seen(mentions.get(recipient=player))[0]
        == "gm-user が「The misty lake」であなたに言及しました"
    )
    assert seen(mentions.get(recipient=other_player))[0].endswith(
        "mentioned you in “The misty lake”"
    )
    day = timezone.now().date()
    send_daily_digests(day)
    digests = Notification.objects.filter(event=EventType.THREAD_DIGEST)
    ja_title, ja_body = seen(digests.get(recipient=player))
    assert ja_title.endswith("、Scarlet Mist に新しい投稿 1 件") and f"{day.day}日" in ja_title
    assert ja_body == "The misty lake：新しい投稿 1 件"
    assert seen(digests.get(recipient=other_player))[1] == "The misty lake: 2 new posts"


def seen(notification: Notification) -> tuple[str, str]:
    """A notification's title and text as its recipient reads them (notifications/texts.py)."""
    with texts.recipient(notification.recipient):
        return notification.shown_title, notification.shown_body


def test_the_mention_list_speaks_the_readers_language(world, campaign, gm, client, client_for):
    """The script's words come from /jsi18n/; the list's kinds from the mentions API."""
    ja = client.get("/jsi18n/", headers={"accept-language": "ja"}).content.decode()
    assert "\\u30e1\\u30f3\\u30b7\\u30e7\\u30f3" in ja or "メンション" in ja  # "Mention:"
    found = client_for(gm).get(
        f"/api/campaigns/{campaign.pk}/wiki/mentions/?q=Scarlet",
        headers={"accept-language": "zh-hans", "accept": "application/json"},
    )
    assert found.status_code == 200
    assert {"name": "Scarlet Devil Mansion", "kind": "地点"}.items() <= found.json()[0].items()
