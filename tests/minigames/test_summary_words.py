"""A tavern table's one-line summary reads in each reader's language (issue 42).

The engine writes the summary as words (a message id and its parameters); the table keeps
them (``summary_words``) beside the English ``summary``, and every place that shows it renders
them for its reader: the GM dashboard, the campaign timeline, the tavern's lists, the table
page, and the "your turn" notification on every channel (email, push, webhook, in-app). A
table written before its words were kept shows its English; the upgrade finds the words of
such tables again. The summary is public: no reader's summary, in any language, holds a card
of a hand that is not hers.
"""

from __future__ import annotations

import importlib
from html import escape
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.utils import translation

from apibase.engine_words import in_language
from campaign.models import Membership, Role
from minigames import services
from minigames.engines.registry import get_engine
from minigames.models import TavernTable
from notifications import webpush
from notifications.models import Notification, NotificationPreference
from tests.factories import UserFactory
from tests.notifications.push_service import PushService
from tests.notifications.receiver import WebhookReceiver

from .conftest import character, two_humans

pytestmark = pytest.mark.django_db

#: Words of the summaries in each language (the catalogs' translations), and English's.
TURN = {"ja": "ターン 1", "zh-hans": "第 1 回合", "en": "Turn 1"}
RESIGNED = {"ja": " が投了しました。", "zh-hans": " 认输了。", "en": " resigned."}
LANGUAGES = ("ja", "zh-hans")


def _raigo_in(campaign: Any, player: Any, other_player: Any) -> Any:
    """A RAIGO table of the campaign's tavern, started: Reimu (``player``) against Marisa."""
    reimu = character(player, campaign, "Reimu", 200)
    marisa = character(other_player, campaign, "Marisa", 150)
    return two_humans(
        "raigo",
        player,
        other_player,
        campaign=campaign,
        host_character=reimu,
        guest_character=marisa,
    )


def _page(user: Any, url: str, lang: str) -> str:
    web = Client()
    web.force_login(user)
    answer = web.get(url, headers={"accept-language": lang})
    assert answer.status_code == 200, url
    return answer.content.decode()


def test_the_summary_keeps_its_words_and_reads_in_each_language(campaign, gm, player, other_player):
    table = _raigo_in(campaign, player, other_player)
    engine = get_engine("raigo")
    state = engine.from_json(table.state)
    assert table.summary == str(engine.summary(state)) and table.summary.startswith("Turn 1")
    assert table.summary_words == engine.summary(state).to_json()
    for lang in LANGUAGES:
        with translation.override(lang):
            shown = table.summary_in_language
            assert shown == in_language(engine.summary(state))
        assert TURN[lang] in shown and "Turn" not in shown, shown
        # the GM dashboard's tavern panel and the tavern's list of games in play
        dashboard = _page(gm, f"/campaigns/{campaign.pk}/dashboard/", lang)
        assert escape(shown) in dashboard and escape(table.summary) not in dashboard
        tavern = _page(player, f"/campaigns/{campaign.pk}/tavern/", lang)
        assert escape(shown) in tavern and escape(table.summary) not in tavern
        page = _page(player, f"/tavern/tables/{table.pk}/", lang)
        assert escape(shown) in page
    # English readers read the English
    assert escape(table.summary) in _page(gm, f"/campaigns/{campaign.pk}/dashboard/", "en")


def test_a_finished_game_reads_in_the_timeline_and_the_finished_list(
    campaign, gm, player, other_player
):
    """A resignation ends a two-seat game: the table's own sentence ("Marisa resigned."),
    kept as words like the engine's."""
    table = _raigo_in(campaign, player, other_player)
    services.tavern_resign(table_id=table.pk, by=other_player)
    table.refresh_from_db()
    assert table.summary == "Marisa resigned."
    for lang in LANGUAGES:
        with translation.override(lang):
            shown = table.summary_in_language
        assert shown == f"Marisa{RESIGNED[lang]}", shown
        timeline = _page(gm, f"/campaigns/{campaign.pk}/timeline/", lang)
        assert escape(shown) in timeline and "resigned" not in timeline
        tavern = _page(player, f"/campaigns/{campaign.pk}/tavern/", lang)
        assert escape(shown) in tavern and "resigned" not in tavern


def test_a_table_in_setup_and_an_abandoned_one_read_in_the_language(player, other_player):
    table = services.tavern_create(
        by=player,
        game="raigo",
        campaign=None,
        seats=[services.SeatSpec(kind="host"), services.SeatSpec(kind="open")],
    )
    assert table.summary == "RAIGO: waiting for players"
    with translation.override("ja"):
        assert table.summary_in_language != table.summary
        assert table.summary_in_language.startswith("RAIGO")  # a game's title is its name
    services.tavern_join(table_id=table.pk, by=other_player, index=1)
    table.refresh_from_db()
    assert table.summary == "RAIGO: ready to start"
    services.tavern_abandon(table_id=table.pk, by=player)
    table.refresh_from_db()
    assert table.summary == f"Abandoned by {player.shown_name}."
    for lang in LANGUAGES:
        with translation.override(lang):
            shown = table.summary_in_language
        assert player.shown_name in shown and "Abandoned" not in shown, shown


def test_a_table_written_before_its_words_shows_its_english(campaign, gm, player, other_player):
    table = _raigo_in(campaign, player, other_player)
    TavernTable.objects.filter(pk=table.pk).update(summary_words={})
    dashboard = _page(gm, f"/campaigns/{campaign.pk}/dashboard/", "ja")
    assert escape(table.summary) in dashboard


def test_the_upgrade_finds_the_words_of_tables_kept_in_english(
    campaign, player, other_player, outsider
):
    """Rows of every kind a table had before (in play, resigned, in setup, abandoned) lose
    their words, as they were stored before; the data migration finds each one's words again,
    whose English is exactly the row's, and leaves a row whose English no words say."""
    fill = importlib.import_module("minigames.migrations.0010_table_summary_words")
    from django.apps import apps

    playing = _raigo_in(campaign, player, other_player)
    resigned = two_humans("spirit_war", player, outsider)
    services.tavern_resign(table_id=resigned.pk, by=outsider)
    waiting = services.tavern_create(
        by=player,
        game="spirit_war",
        campaign=None,
        seats=[services.SeatSpec(kind="host"), services.SeatSpec(kind="open")],
    )
    abandoned = two_humans("raigo", other_player, outsider)
    services.tavern_abandon(table_id=abandoned.pk, by=other_player)
    odd = two_humans("raigo", outsider, player)
    tables = [playing, resigned, waiting, abandoned, odd]
    kept = {t.pk: TavernTable.objects.get(pk=t.pk).summary_words for t in tables}
    assert all(kept.values())
    TavernTable.objects.filter(pk__in=kept).update(summary_words={})
    TavernTable.objects.filter(pk=odd.pk).update(summary="Something a release once wrote")
    fill.fill_summary_words(apps, None)
    for t in tables[:-1]:
        row = TavernTable.objects.get(pk=t.pk)
        assert row.summary_words == kept[t.pk], row.summary
    row = TavernTable.objects.get(pk=odd.pk)
    assert row.summary_words == {}
    with translation.override("ja"):
        assert row.summary_in_language == "Something a release once wrote"


@pytest.fixture
def receiver():
    """A real HTTP receiver for the webhooks (test settings allow loopback webhooks)."""
    found = WebhookReceiver().start()
    yield found
    found.stop()


@pytest.fixture
def push_service(settings):
    settings.VAPID_PRIVATE_KEY = webpush.generate_private_key()
    settings.VAPID_SUBJECT = "mailto:ops@westernroses.example"
    service = PushService(application_server_key=webpush.public_key()).start()
    yield service
    service.stop()


def test_your_turn_carries_the_summary_in_her_language_on_every_channel(
    campaign, player, receiver, push_service, api_for, django_capture_on_commit_callbacks
):
    """Two players whose accounts read Japanese and Chinese start a Spirit War; each "your
    turn" (email, push, webhook, in-app) carries the table's summary in her language, the
    same words as her lists, and no card of anyone's hand."""
    readers = {}
    for lang in LANGUAGES:
        user = UserFactory(username=f"summary-{lang}", language=lang)
        Membership.objects.create(campaign=campaign, user=user, role=Role.PLAYER)
        NotificationPreference.objects.create(
            user=user,
            channels={"your_turn": ["email", "in_app", "push", "webhook"]},
            digest_minutes=0,
            webhook_url=f"{receiver.url}/{lang}",
        )
        device = push_service.device()
        answer = api_for(user).post(
            "/api/notifications/push/", device.subscription(lang), format="json"
        )
        assert answer.status_code == 201, answer.content
        readers[lang] = (user, device)
    ja, zh = readers["ja"][0], readers["zh-hans"][0]
    users = {0: ja, 1: zh}
    with django_capture_on_commit_callbacks(execute=True):
        table = two_humans("spirit_war", ja, zh, campaign=campaign)
    engine = get_engine("spirit_war")
    state = engine.from_json(table.state)
    hands = _hand_names(state)
    assert hands
    waited = [users[s] for s in engine.waiting_on(state)]
    assert waited, "the game waits on someone"
    for user, device in readers.values():
        if user not in waited:
            continue
        lang = user.language
        with translation.override(lang):
            summary = table.summary_in_language
        assert summary != table.summary
        note = Notification.objects.get(recipient=user, event="your_turn")
        assert note.body == table.summary  # the English column, for the admin and search
        (email,) = [m for m in mail.outbox if m.to == [user.email]]
        assert summary in email.body
        (pushed,) = push_service.accepted(device)
        assert pushed.payload["body"] == summary
        (hook,) = [r.body for r in receiver.requests if r.path == f"/hook/{lang}"]
        assert hook["embeds"][0]["description"] == summary
        # in the app: her list (page and API) in her account's language
        web = Client()
        web.force_login(user)
        listed = web.get("/api/notifications/").json()["results"]
        assert [n["body"] for n in listed] == [summary]
        assert escape(summary) in web.get("/notifications/").content.decode()
        sent = f"{email.subject} {email.body} {pushed.payload} {hook}"
        for card in hands:
            assert card not in sent, card


def _hand_names(state: Any) -> set[str]:
    """The names of every card in a hand at ``state`` (hidden from the other seats), in
    English and in each language."""
    data = get_engine("spirit_war").to_json(state)
    english = {data["defs"][data["cards"][card]]["name"] for hand in data["hands"] for card in hand}
    names = set(english)
    for lang in LANGUAGES:
        with translation.override(lang):
            names |= {translation.gettext(name) for name in english}
    return names
