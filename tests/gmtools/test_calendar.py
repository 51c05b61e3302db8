"""Issue 43, "Calendar and sessions": the in-world calendar (Gregorian by default, a GM's own
months and weekdays, the date advanced, events on the timeline), answers to sessions (counts on
the dashboard and the session page, one ask to those who have not answered) and each member's
calendar feed (only her campaigns' sessions; a revoked or renewed address is 404)."""

from __future__ import annotations

import datetime as dt
from datetime import timedelta

import icalendar
import pytest
from django.utils import timezone

from campaign.models import Membership, Role
from campaign.permissions import access_for
from gmtools import rsvp, world
from gmtools.models import GameSession, SessionRsvp
from gmtools.world_calendar import GREGORIAN, calendar_from
from notifications.models import Notification
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db

NINJA_MONTHS = [
    {"name": "Frost", "days": 30, "season": "Winter"},
    {"name": "Bloom", "days": 30, "season": "Spring"},
    {"name": "Blaze", "days": 30, "season": "Summer"},
]


# --------------------------------------------------------------------------- arithmetic


def test_the_default_is_the_gregorian_year_with_real_weekdays_leap_days_and_seasons():
    for day in (
        dt.date(2003, 7, 20),
        dt.date(2000, 2, 29),
        dt.date(1, 1, 1),
        dt.date(2024, 12, 31),
    ):
        assert GREGORIAN.to_ordinal(day.year, day.month, day.day) == day.toordinal()
        assert GREGORIAN.from_ordinal(day.toordinal()) == (day.year, day.month, day.day)
        assert GREGORIAN.weekday(day.year, day.month, day.day) == day.strftime("%A")
    assert GREGORIAN.words(2003, 7, 20) == "Sunday 20 July 2003 (Summer)"
    assert GREGORIAN.advance(2024, 2, 28, 1) == (2024, 2, 29)  # a leap year
    assert GREGORIAN.advance(2023, 2, 28, 1) == (2023, 3, 1)
    assert GREGORIAN.advance(2003, 12, 31, 1) == (2004, 1, 1)
    assert GREGORIAN.advance(1, 1, 1, -1) == (0, 12, 31)  # before year 1, still a date


def test_a_gms_own_months_and_weekdays_count_on_without_leap_days():
    cal = calendar_from(NINJA_MONTHS, ["Moon", "Sun", "Star"])
    assert cal.year_days == 90
    assert cal.advance(5, 3, 30, 1) == (6, 1, 1)
    assert cal.weekday(1, 1, 1) == "Moon"
    assert cal.weekday(1, 1, 4) == "Moon"
    assert cal.words(1, 2, 2) == "Sun 2 Bloom 1 (Spring)"


# --------------------------------------------------------------------------- API


def test_the_gm_defines_months_sets_and_advances_the_date_and_players_read_it(
    campaign, gm, player, api_for, client_for
):
    url = f"/api/campaigns/{campaign.pk}/calendar/"
    assert api_for(player).get(url).json()["words"] == "Monday 1 January 1 (Winter)"
    answer = api_for(gm).put(
        url, {"months": NINJA_MONTHS, "weekdays": ["Moon", "Sun"]}, format="json"
    )
    assert answer.status_code == 200, answer.content
    gm_api = api_for(gm)
    assert (
        gm_api.post(url + "date/", {"year": 119, "month": 3, "day": 29}, format="json").status_code
        == 200
    )
    moved = gm_api.post(url + "date/", {"days": 2}, format="json").json()
    assert (moved["year"], moved["month"], moved["day"]) == (120, 1, 1)
    assert api_for(player).get(url).json()["season"] == "Winter"
    # the dashboard and the campaign page show it
    dashboard = api_for(gm).get(f"/api/campaigns/{campaign.pk}/dashboard/").json()
    assert dashboard["world_date"]["words"] == moved["words"]
    page = client_for(player).get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "Moon 1 Frost 120 (Winter)" in page


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"days": 10_001}, "days"),
        ({"days": 1, "year": 3, "month": 1, "day": 1}, "days"),
        ({"year": 2003, "month": 2, "day": 30}, "day"),
        ({"year": 2003, "month": 13, "day": 1}, "month"),
        ({"year": 10**9, "month": 1, "day": 1}, "year"),
        ({"days": "soon"}, "days"),
    ],
)
def test_a_date_that_cannot_be_is_a_400_on_its_field(campaign, gm, api_for, body, field):
    answer = api_for(gm).post(f"/api/campaigns/{campaign.pk}/calendar/date/", body, format="json")
    assert answer.status_code == 400
    assert field in answer.json()["errors"], answer.json()


def test_months_that_would_lose_an_event_or_are_malformed_are_refused(campaign, gm, api_for):
    api = api_for(gm)
    url = f"/api/campaigns/{campaign.pk}/calendar/"
    api.post(
        url + "events/", {"year": 3, "month": 12, "day": 31, "title": "Year's end"}, format="json"
    )
    short = api.put(url, {"months": NINJA_MONTHS, "weekdays": []}, format="json")
    assert short.status_code == 400 and "Year's end" in str(short.json()["errors"]["months"])
    for months in ([{"name": "", "days": 3}], [{"name": "Long", "days": 0}], "x" * 5):
        assert api.put(url, {"months": months, "weekdays": []}, format="json").status_code == 400


def test_a_refused_date_or_calendar_is_explained_in_the_readers_language(campaign, gm, api_for):
    """The calendar's arithmetic (gmtools/world_calendar.py) words its refusals as message
    ids; the answer gives them in the language the request asks for, with the numbers."""
    api = api_for(gm)
    url = f"/api/campaigns/{campaign.pk}/calendar/"
    bad_day = api.post(
        url + "date/",
        {"year": 2003, "month": 2, "day": 30},
        format="json",
        headers={"accept-language": "ja"},
    )
    assert bad_day.json()["errors"]["day"] == ["2月の日は 1 から 28 までです。"]
    bad_month = api.put(
        url,
        {"months": [], "weekdays": ["Moonday"]},
        format="json",
        headers={"accept-language": "zh-hans"},
    )
    assert bad_month.json()["errors"]["months"] == ["请给出月份（若用公历，月份和星期都留空）。"]
    english = api.put(url, {"months": [], "weekdays": ["Moonday"]}, format="json")
    assert english.json()["errors"]["months"] == [
        "Give the months (or neither months nor weekdays, for Gregorian)."
    ]


def test_players_may_not_change_the_calendar_and_outsiders_see_nothing(
    campaign, player, outsider, api_for
):
    url = f"/api/campaigns/{campaign.pk}/calendar/"
    assert api_for(player).post(url + "date/", {"days": 1}, format="json").status_code == 403
    assert (
        api_for(player).put(url, {"months": [], "weekdays": []}, format="json").status_code == 403
    )
    assert api_for(outsider).get(url).status_code == 404
    assert api_for(outsider).get(url + "events/").status_code == 404


def test_events_go_on_the_timeline_and_gm_only_ones_stay_with_the_gms(
    campaign, gm, player, api_for
):
    session = GameSession.objects.create(
        campaign=campaign, title="The lake", starts_at=timezone.now(), created_by=gm
    )
    url = f"/api/campaigns/{campaign.pk}/calendar/events/"
    api = api_for(gm)
    seen = api.post(
        url,
        {"year": 2003, "month": 7, "day": 20, "title": "Mist", "session": session.pk},
        format="json",
    )
    assert seen.status_code == 201 and seen.json()["words"] == "Sunday 20 July 2003 (Summer)"
    api.post(
        url,
        {"year": 2003, "month": 7, "day": 21, "title": "Remilia wakes", "gm_only": True},
        format="json",
    )
    other = CampaignFactory(created_by=gm)
    foreign = GameSession.objects.create(
        campaign=other, title="Elsewhere", starts_at=timezone.now(), created_by=gm
    )
    wrong = api.post(
        url, {"year": 1, "month": 1, "day": 1, "title": "x", "session": foreign.pk}, format="json"
    )
    assert wrong.status_code == 400 and "session" in wrong.json()["errors"]
    titles = [e["title"] for e in api_for(player).get(url).json()]
    assert titles == ["Mist"]
    timeline = (
        api_for(player).get(f"/api/campaigns/{campaign.pk}/timeline/?kind=world_event").json()
    )
    assert [e["title"] for e in timeline["results"]] == [
        "In the world, Sunday 20 July 2003 (Summer): Mist"
    ]
    secret = api_for(gm).get(url).json()[1]["id"]
    assert api_for(player).get(f"{url}{secret}/").status_code == 404
    assert api_for(player).delete(f"{url}{secret}/").status_code == 403


def test_the_calendar_page_lets_the_gm_advance_and_players_read(campaign, gm, player, client_for):
    url = f"/campaigns/{campaign.pk}/calendar/"
    page = client_for(gm).post(url, {"action": "advance", "days": "31"}, follow=True)
    assert "Thursday 1 February 1 (Winter)" in page.content.decode()
    assert client_for(gm).post(url, {"action": "advance", "days": "x"}).status_code == 400
    define = client_for(gm).post(
        url, {"action": "define", "months": "Frost, 30, Winter\nBloom", "weekdays": ""}
    )
    assert define.status_code == 400
    assert client_for(player).post(url, {"action": "advance", "days": "1"}).status_code == 403
    assert "February" in client_for(player).get(url).content.decode()


# --------------------------------------------------------------------------- answers


@pytest.fixture
def upcoming(campaign, gm):
    return GameSession.objects.create(
        campaign=campaign,
        title="The mansion",
        starts_at=timezone.now() + timedelta(days=1),
        created_by=gm,
    )


def test_members_answer_for_themselves_and_the_counts_show(
    campaign, gm, player, other_player, outsider, upcoming, api_for, client_for
):
    url = f"/api/campaigns/{campaign.pk}/sessions/{upcoming.pk}/rsvp/"
    assert (
        api_for(player)
        .put(url, {"answer": "yes", "note": "I'll bring tea."}, format="json")
        .status_code
        == 200
    )
    answer = api_for(other_player).put(url, {"answer": "maybe"}, format="json").json()
    assert answer["counts"] == {"yes": 1, "maybe": 1, "no": 0, "unanswered": 1}
    assert api_for(player).put(url, {"answer": "perhaps"}, format="json").status_code == 400
    assert (
        api_for(player).put(url, {"answer": "no", "note": "x" * 201}, format="json").status_code
        == 400
    )
    assert api_for(outsider).put(url, {"answer": "yes"}, format="json").status_code == 404
    dashboard = api_for(gm).get(f"/api/campaigns/{campaign.pk}/dashboard/").json()
    assert dashboard["upcoming_session"]["rsvp"] == {"yes": 1, "maybe": 1, "no": 0, "unanswered": 1}
    page = client_for(gm).get(f"/campaigns/{campaign.pk}/dashboard/").content.decode()
    assert "1 coming, 1 maybe, 0 not coming, 1 not answered" in page
    session_page = client_for(player).get(f"/campaigns/{campaign.pk}/sessions/{upcoming.pk}/")
    assert "I&#x27;ll bring tea." in session_page.content.decode()
    # the page's form answers too, and a started session takes no answers
    client_for(gm).post(f"/campaigns/{campaign.pk}/sessions/{upcoming.pk}/rsvp/", {"answer": "no"})
    assert SessionRsvp.objects.get(session=upcoming, user=gm).answer == "no"
    GameSession.objects.filter(pk=upcoming.pk).update(
        starts_at=timezone.now() - timedelta(minutes=1)
    )
    assert api_for(player).put(url, {"answer": "no"}, format="json").status_code == 400


def test_those_who_have_not_answered_are_asked_once(
    campaign, gm, player, other_player, upcoming, capture_commits
):
    rsvp.rsvp_answer(session=upcoming, by=access_for(player, campaign), user=player, answer="yes")
    far = GameSession.objects.create(
        campaign=campaign,
        title="Later",
        starts_at=timezone.now() + timedelta(days=9),
        created_by=gm,
    )
    with capture_commits(execute=True):
        assert rsvp.rsvp_reminders_send() == 2  # the GM and the other player; not "Later"
        assert rsvp.rsvp_reminders_send() == 0
    asked = Notification.objects.filter(title__startswith="Will you come?")
    assert sorted(n.recipient.username for n in asked) == sorted(
        [gm.username, other_player.username]
    )
    assert not asked.filter(url__contains=f"/sessions/{far.pk}/").exists()
    # moving the session asks anew those still silent
    from gmtools.sessions import session_update

    session_update(
        session=upcoming,
        by=access_for(gm, campaign),
        starts_at=upcoming.starts_at + timedelta(hours=2),
    )
    with capture_commits(execute=True):
        assert rsvp.rsvp_reminders_send() == 2


# --------------------------------------------------------------------------- the feed


def test_the_feed_parses_holds_only_her_campaigns_and_a_revoked_address_is_404(
    campaign, gm, player, outsider, upcoming, api_for, client_for
):
    rsvp.rsvp_answer(session=upcoming, by=access_for(player, campaign), user=player, answer="yes")
    other = CampaignFactory(created_by=outsider)
    Membership.objects.create(campaign=other, user=outsider, role=Role.GM)
    GameSession.objects.create(
        campaign=other,
        title="Not hers",
        starts_at=timezone.now() + timedelta(days=1),
        created_by=outsider,
    )
    url = api_for(player).post("/api/calendar-feed/").json()["url"]
    path = url.split("testserver", 1)[1]
    anonymous = client_for(None)
    answer = anonymous.get(path)
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/calendar")
    feed = icalendar.Calendar.from_ical(answer.content)
    events = list(feed.walk("VEVENT"))
    assert [str(e["summary"]) for e in events] == [f"The mansion ({campaign.name})"]
    assert "Your answer: Coming" in str(events[0]["description"])
    assert "1 coming, 0 maybe, 0 not coming" in str(events[0]["description"])
    assert events[0].decoded("dtstart") == upcoming.starts_at.replace(microsecond=0)
    # she finds it on her profile and on the campaign's page, and renews it from there
    profile = client_for(player).get("/accounts/profile/").content.decode()
    assert 'href="/campaigns/calendar-feed/"' in profile
    assert path in client_for(player).get(f"/campaigns/{campaign.pk}/").content.decode()
    renewed = client_for(player).post(
        "/campaigns/calendar-feed/", {"action": "renew", "campaign": campaign.pk}
    )
    assert renewed["Location"] == f"/campaigns/{campaign.pk}/"
    assert anonymous.get(path).status_code == 404
    new_path = api_for(player).get("/api/calendar-feed/").json()["url"].split("testserver", 1)[1]
    assert anonymous.get(new_path).status_code == 200
    assert api_for(player).delete("/api/calendar-feed/").status_code == 204
    assert anonymous.get(new_path).status_code == 404
    assert anonymous.get("/campaigns/feed/not-a-token.ics").status_code == 404
    assert api_for(None).get("/api/calendar-feed/").status_code in (401, 403)


def test_the_world_and_the_answers_survive_backup_and_restore(campaign, gm, player, upcoming):
    from config.backup import export_campaign, import_campaign

    world.date_set(campaign=campaign, by=access_for(gm, campaign), year=119, month=8, day=15)
    world.event_add(
        campaign=campaign,
        by=access_for(gm, campaign),
        created_by=gm,
        year=119,
        month=8,
        day=15,
        title="Tengu newspaper",
        session=upcoming,
    )
    rsvp.rsvp_answer(
        session=upcoming, by=access_for(player, campaign), user=player, answer="maybe", note="late"
    )
    restored = import_campaign(export_campaign(campaign.pk))
    assert world.world_date(restored.pk).words == "Tuesday 15 August 119 (Summer)"
    event = world.events_visible_to(access_for(gm, restored)).get()
    assert event.session is not None and event.session.campaign_id == restored.pk
    answer = SessionRsvp.objects.get(session__campaign=restored)
    assert (answer.user, answer.answer, answer.note) == (player, "maybe", "late")


# --------------------------------------------------------------------------- wiki entries


def _entry(campaign, gm, title, **kw):
    from wiki import services as wiki_services

    return wiki_services.entry_create(
        campaign_id=campaign.pk, by=access_for(gm, campaign), author=gm, title=title,
        kind="event", **kw,
    )  # fmt: skip


def test_an_event_links_a_wiki_entry_of_its_campaign_shown_only_to_who_may_see_it(
    campaign, gm, player, other_player, api_for, client_for
):
    """An event names a wiki entry (a reference: deleting the entry leaves the event); the
    API and the page give a player the entry only when she may see it, by title."""
    from gmtools.models import WorldEvent

    known = _entry(campaign, gm, "The red mist", visibility="chosen", viewer_ids=[player.pk])
    other = CampaignFactory(created_by=gm)
    Membership.objects.create(campaign=other, user=gm, role=Role.GM)
    foreign = _entry(other, gm, "Elsewhere")
    url = f"/api/campaigns/{campaign.pk}/calendar/events/"
    wrong = api_for(gm).post(
        url, {"year": 1, "month": 1, "day": 2, "title": "x", "wiki_entry": foreign.pk}, "json"
    )
    assert wrong.status_code == 400 and "wiki_entry" in wrong.json()["errors"]
    made = api_for(gm).post(
        url, {"year": 1, "month": 1, "day": 2, "title": "Mist", "wiki_entry": known.pk}, "json"
    )
    assert made.status_code == 201
    assert (made.json()["wiki_entry"], made.json()["wiki_entry_title"]) == (known.pk, known.title)
    assert WorldEvent.objects.get(pk=made.json()["id"]).wiki_entry == known
    page = f"/campaigns/{campaign.pk}/calendar/"
    entry_url = f"/campaigns/{campaign.pk}/wiki/{known.pk}/"
    for seat, sees in ((gm, True), (player, True), (other_player, False)):
        shown = api_for(seat).get(url).json()[0]
        assert shown["wiki_entry"] == (known.pk if sees else None)
        assert shown["wiki_entry_title"] == ("The red mist" if sees else "")
        html = client_for(seat).get(page).content.decode()
        assert (entry_url in html) is sees and ("The red mist" in html) is sees
    # the GM's form offers the campaign's own entries by title, and no other campaign's
    form = client_for(gm).get(page).content.decode()
    assert f'<option value="{known.pk}">The red mist</option>' in form
    assert "Elsewhere" not in form
    added = client_for(gm).post(
        page,
        {"action": "event", "year": 1, "month": 1, "day": 3, "title": "Dawn",
         "wiki_entry": str(known.pk)},
    )  # fmt: skip
    assert added.status_code == 302
    assert WorldEvent.objects.get(title="Dawn").wiki_entry_id == known.pk
    refused = client_for(gm).post(
        page,
        {"action": "event", "year": 1, "month": 1, "day": 3, "title": "x",
         "wiki_entry": str(foreign.pk)},
    )  # fmt: skip
    assert refused.status_code == 400 and not WorldEvent.objects.filter(title="x").exists()
    known.delete()  # the event stays, about nothing
    assert WorldEvent.objects.get(title="Dawn").wiki_entry_id is None


def test_an_events_wiki_entry_survives_backup_and_an_old_archives_number_is_kept(campaign, gm):
    """A restored event names the copy's entry; an archive written while the reference was a
    plain number (``wiki_entry_id``) keeps it when the archive holds that entry, and drops a
    number that names none."""
    import io
    import json
    import zipfile

    from config.backup import MANIFEST, export_campaign, import_campaign

    entry = _entry(campaign, gm, "The red mist")
    for title, pk in (("Mist", entry.pk), ("Lost", None)):
        world.event_add(
            campaign=campaign, by=access_for(gm, campaign), created_by=gm,
            year=1, month=1, day=2, title=title, wiki_entry=pk,
        )  # fmt: skip
    data = export_campaign(campaign.pk)
    restored = import_campaign(data)
    events = {e.title: e for e in world.events_visible_to(access_for(gm, restored))}
    assert events["Mist"].wiki_entry is not None and events["Mist"].wiki_entry != entry
    assert events["Mist"].wiki_entry.campaign_id == restored.pk
    assert events["Lost"].wiki_entry is None
    # the older shape: a plain number under its old name, one of them naming no entry
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        manifest = json.loads(archive.read(MANIFEST))
    for part in manifest["parts"]:
        if part["model"] == "gmtools.WorldEvent":
            for row in part["rows"]:
                number = row["fields"].pop("wiki_entry")
                row["fields"]["wiki_entry_id"] = number if number is not None else 999_999
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr(MANIFEST, json.dumps(manifest))
    old = import_campaign(out.getvalue())
    events = {e.title: e for e in world.events_visible_to(access_for(gm, old))}
    assert events["Mist"].wiki_entry.title == "The red mist"
    assert events["Mist"].wiki_entry.campaign_id == old.pk
    assert events["Lost"].wiki_entry is None
