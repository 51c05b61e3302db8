"""Issue 42: what a worker sends speaks each recipient's language.

One event reaches three players whose accounts read English, Japanese and Simplified Chinese;
each gets her own language on every channel: the email (subject, body and footer), the Web Push
payload (decrypted by the push service stand-in, tests/notifications/push_service.py), her
webhook's text and her in-app list (page and API). The sender's language, and the previous
recipient's in the same task, never reach the next one; times are in her zone and her
locale's format; and nothing a player may not see reaches her in any language.
"""

from __future__ import annotations

import zoneinfo
from datetime import timedelta
from html import escape

import pytest
from django.core import mail
from django.test import Client
from django.utils import formats, timezone, translation

from campaign.models import Membership, Role
from campaign.permissions import access_for
from notifications import notify, webpush
from notifications.delivery import digests_build
from notifications.models import EventType, Notification, NotificationPreference
from notifications.reminders import session_reminders_schedule
from tests.factories import UserFactory
from tests.notifications.push_service import PushService
from wiki import services as wiki

pytestmark = pytest.mark.django_db

VAPID_KEY = webpush.generate_private_key()
ALL = ["email", "in_app", "push", "webhook"]
LANGUAGES = {"en": "Europe/Paris", "ja": "Asia/Tokyo", "zh-hans": "Asia/Shanghai"}
#: The words each language's readers get for the entry below (the catalogs' translations).
NEW_IN_WIKI = {
    "en": "New in the wiki: Scarlet Devil Mansion",
    "ja": "ウィキの新しい項目：Scarlet Devil Mansion",
    "zh-hans": "维基新条目：Scarlet Devil Mansion",
}
OPEN_ENTRY = {
    "en": "Open the entry in the campaign's wiki.",
    "ja": "キャンペーンのウィキで項目を開いてください。",
    "zh-hans": "请在战役维基中打开该条目。",
}
FOOTER = {
    "en": "Change what you receive:",
    "ja": "受け取る通知を変えるには:",
    "zh-hans": "更改接收的通知：",
}
SECRETS = ("Sunlight", "Weakness", "draught", "Reimu noticed")


@pytest.fixture
def push_service(settings):
    settings.VAPID_PRIVATE_KEY = VAPID_KEY
    settings.VAPID_SUBJECT = "mailto:ops@westernroses.example"
    service = PushService(application_server_key=webpush.public_key()).start()
    yield service
    service.stop()


@pytest.fixture
def readers(campaign, receiver, push_service, api_for):
    """Three players of ``campaign``, one a language, each with email, a webhook of her own
    (``/hook/<language>``), a subscribed device and every channel on for the wiki's news and
    sessions, sent at once (no digest)."""
    out = {}
    for code, zone in LANGUAGES.items():
        user = UserFactory(username=f"reader-{code}", language=code, time_zone=zone)
        Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
        NotificationPreference.objects.create(
            user=user,
            channels={"wiki_update": ALL, "session_scheduled": ALL},
            digest_minutes=0,
            webhook_url=f"{receiver.url}/{code}",
        )
        device = push_service.device()
        answer = api_for(user).post(
            "/api/notifications/push/", device.subscription(code), format="json"
        )
        assert answer.status_code == 201, answer.content
        out[code] = (user, device)
    return out


def _email_to(user) -> mail.EmailMessage:
    (found,) = [m for m in mail.outbox if m.to == [user.email]]
    return found


def _webhook_of(receiver, code: str) -> dict:
    (found,) = [r.body for r in receiver.requests if r.path == f"/hook/{code}"]
    return found


def _everything_sent(receiver, push_service) -> str:
    words = [f"{m.subject}\n{m.body}" for m in mail.outbox]
    words += [str(r.body) for r in receiver.requests]
    words += [str(p.payload) for p in push_service.accepted()]
    return "\n".join(words)


def test_one_event_reaches_each_player_in_her_language_on_every_channel(
    campaign, gm, readers, receiver, push_service, django_capture_on_commit_callbacks
):
    access = access_for(gm, campaign)
    # The GM writes in Japanese: her language is nobody else's.
    with translation.override("ja"), django_capture_on_commit_callbacks(execute=True):
        mansion = wiki.entry_create(
            campaign_id=campaign.pk,
            by=access,
            author=gm,
            title="Scarlet Devil Mansion",
            kind="place",
            visibility="all",
        )
    for code, (user, device) in readers.items():
        email = _email_to(user)
        assert email.subject == f"[Western Roses] {NEW_IN_WIKI[code]}"
        assert OPEN_ENTRY[code] in email.body and FOOTER[code] in email.body
        (pushed,) = push_service.accepted(device)  # decrypted as her browser would
        assert pushed.payload["title"] == NEW_IN_WIKI[code]
        assert pushed.payload["body"] == OPEN_ENTRY[code]
        hook = _webhook_of(receiver, code)
        assert hook["content"] == NEW_IN_WIKI[code]
        assert hook["embeds"][0]["description"] == OPEN_ENTRY[code]
        # In the app: her list reads in her language, whatever language raised the event.
        client = Client()
        client.force_login(user)
        page = client.get("/notifications/").content.decode()
        assert escape(NEW_IN_WIKI[code]) in page and escape(OPEN_ENTRY[code]) in page
        listed = client.get("/api/notifications/").json()["results"]
        assert [(n["title"], n["body"]) for n in listed] == [(NEW_IN_WIKI[code], OPEN_ENTRY[code])]
    # English readers get English: the Japanese of the GM and of the reader before stayed put.
    assert "ウィキ" not in _email_to(readers["en"][0]).body

    # A section only the GMs see tells nobody, in any language; one chosen for the Japanese
    # reader tells her alone, and no word of the hidden section goes out anywhere.
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        wiki.section_save(
            entry=mansion, by=access, author=gm, heading="Weakness",
            body="Sunlight burns the mistress.", visibility="gm",
        )  # fmt: skip
    assert mail.outbox == []
    ja_user = readers["ja"][0]
    with django_capture_on_commit_callbacks(execute=True):
        wiki.section_save(
            entry=mansion, by=access, author=gm, heading="What Reimu noticed",
            body="A draught under the library door.", visibility="chosen",
            viewer_ids=[ja_user.pk],
        )  # fmt: skip
    assert [m.to for m in mail.outbox] == [[ja_user.email]]
    assert mail.outbox[0].subject == "[Western Roses] ウィキで変更：Scarlet Devil Mansion"
    sent = _everything_sent(receiver, push_service)
    stored = " ".join(
        f"{n.title} {n.body} {n.texts}" for n in Notification.objects.filter(campaign=campaign)
    )
    for secret in SECRETS:
        assert secret not in sent and secret not in stored
    for code in ("en", "zh-hans"):
        user = readers[code][0]
        assert Notification.objects.filter(recipient=user).count() == 1
        with translation.override(code):
            shown = [
                (n.shown_title, n.shown_body) for n in Notification.objects.filter(recipient=user)
            ]
        assert shown == [(NEW_IN_WIKI[code], OPEN_ENTRY[code])]


def test_a_session_time_reads_in_each_players_zone_and_format(
    campaign, readers, django_capture_on_commit_callbacks
):
    starts = (timezone.now() + timedelta(days=3)).replace(second=0, microsecond=0)
    with django_capture_on_commit_callbacks(execute=True):
        session_reminders_schedule(
            campaign=campaign, session_key="7", starts_at=starts, title="Tea at the shrine"
        )
    titles = {
        "en": "Session scheduled: Tea at the shrine",
        "ja": "セッションの予定：Tea at the shrine",
        "zh-hans": "已安排跑团：Tea at the shrine",
    }
    for code, (user, _device) in readers.items():
        local = starts.astimezone(zoneinfo.ZoneInfo(LANGUAGES[code]))
        with translation.override(code):
            when = formats.date_format(local, "DATETIME_FORMAT")
        body = {
            "en": f"Tea at the shrine starts {when}.",
            "ja": f"Tea at the shrine は {when} に始まります。",
            "zh-hans": f"Tea at the shrine 将于 {when} 开始。",
        }[code]
        email = _email_to(user)
        assert email.subject == f"[Western Roses] {titles[code]}"
        assert body in email.body
    # spelled out: Tokyo's and Shanghai's clocks, in Japanese's and Chinese's own order
    tokyo = starts.astimezone(zoneinfo.ZoneInfo("Asia/Tokyo"))
    assert f"{tokyo.year}年{tokyo.month}月{tokyo.day}日{tokyo.hour}:{tokyo:%M}" in (
        _email_to(readers["ja"][0]).body
    )
    shanghai = starts.astimezone(zoneinfo.ZoneInfo("Asia/Shanghai"))
    assert f"{shanghai.year}年{shanghai.month}月{shanghai.day}日 {shanghai:%H:%M}" in (
        _email_to(readers["zh-hans"][0]).body
    )
    # the reminders a day and an hour before keep their words to render for each reader
    with translation.override("zh-hans"):
        from notifications.models import ScheduledNotification

        day = ScheduledNotification.objects.get(key="session:7:day")
        assert day.title == "Session tomorrow: Tea at the shrine"
        assert day.texts["title"]["msgid"] == "Session tomorrow: %(title)s"


def test_one_task_for_two_recipients_keeps_each_ones_language(
    campaign, readers, receiver, django_capture_on_commit_callbacks
):
    """A digest run builds and sends several recipients' digests in one task: each reads in her
    own language, and the task (running in Japanese here, as a worker's thread might be
    left) is in its own language again afterwards."""
    en, zh = readers["en"][0], readers["zh-hans"][0]
    NotificationPreference.objects.filter(user__in=[en, zh]).update(
        digest_minutes=15, channels={"level_up": ["email", "webhook"]}
    )
    from notifications import texts

    for user in (en, zh, en, zh):
        notify(
            recipient=user,
            event=EventType.LEVEL_UP,
            campaign=campaign,
            title=texts.gettext_lazy("%(name)s reached level %(level)s", name="Cirno", level=9),
        )
    later = timezone.now() + timedelta(minutes=16)
    with translation.override("ja"):
        with django_capture_on_commit_callbacks(execute=True):
            assert len(digests_build(now=later)) == 4
        assert translation.get_language() == "ja"
        assert timezone.get_current_timezone_name() == "UTC"
    assert _email_to(en).subject == "[Western Roses] 2 updates"
    assert _email_to(en).body.count("Cirno reached level 9") == 2
    assert _email_to(zh).subject == "[Western Roses] 2 条更新"
    assert _email_to(zh).body.count("Cirno 升到了 9 级") == 2
    assert "更改接收的通知" in _email_to(zh).body
    assert _webhook_of(receiver, "en")["content"] == "**2 updates**"
    assert _webhook_of(receiver, "zh-hans")["content"] == "**2 条更新**"
    assert "Cirno reached" not in str(_webhook_of(receiver, "zh-hans"))


def test_a_reader_with_no_preference_gets_the_sites_language(
    campaign, player, django_capture_on_commit_callbacks
):
    """No saved language and no browser to ask (a worker): the site's default, English."""
    assert player.language == ""
    from notifications import texts

    NotificationPreference.objects.create(user=player, digest_minutes=0)

    with translation.override("zh-hans"), django_capture_on_commit_callbacks(execute=True):
        notify(
            recipient=player,
            event=EventType.INVITATION,
            campaign=campaign,
            title=texts.gettext_lazy("You are invited to %(campaign)s", campaign=campaign.name),
            body=texts.gettext_lazy(
                "%(gm)s invites you to join as %(role)s.", gm="Reimu", role=Role.PLAYER.label
            ),
        )
    (email,) = mail.outbox
    assert email.subject == "[Western Roses] You are invited to Scarlet Mist"
    assert "Reimu invites you to join as Player." in email.body
    # the role's label is kept by its message id: a Japanese reader of the list gets hers
    n = Notification.objects.get(recipient=player)
    with translation.override("ja"):
        assert (
            n.shown_body
            == f"Reimu があなたを {translation.gettext('Player')} として招待しています。"
        )


def test_a_turn_reminder_a_day_later_still_reads_in_her_language(campaign, readers):
    """The turn keeps its title's message id, so the reminder the beat task raises later says
    "still your move" in each player's words, and the time waited in her plural."""
    from minigames.game import names_words
    from notifications import texts
    from notifications.reminders import turn_reminders_send, turn_wait_start

    start = timezone.now() - timedelta(days=1)
    for code, (user, _device) in readers.items():
        turn_wait_start(
            campaign=campaign,
            user=user,
            key=f"tavern:1:seat:{code}",
            title=texts.gettext_lazy(
                "Your move at %(game)s with %(names)s",
                game="Koi-Koi",
                names=names_words(["Marisa", "Sakuya"]),
            ),
            url="/tavern/1/",
            started_at=start,
            notify_user=False,
        )
    assert turn_reminders_send(now=start + timedelta(minutes=90)) == 3
    expected = {
        "en": (
            "Still your move at Koi-Koi with Marisa and Sakuya",
            "Your turn has been waiting for 90 minutes.",
        ),
        "ja": (
            "Marisa と Sakuya と遊ぶ Koi-Koi：まだあなたの番です",
            "あなたの番のまま 90 分が経ちました。",
        ),
        "zh-hans": ("与 Marisa 和 Sakuya 的 Koi-Koi：仍然轮到你了", "轮到你了，已等待 90 分钟。"),
    }
    for code, (user, _device) in readers.items():
        reminder = Notification.objects.get(recipient=user, event=EventType.TURN_REMINDER)
        assert reminder.title == expected["en"][0]  # the English kept for the admin
        with translation.override(code):
            assert (reminder.shown_title, reminder.shown_body) == expected[code]
