"""The timeline: every kind of entry merged newest first, paginated, filtered per viewer
(secret rolls, private handouts), and open to later apps through the registry."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from campaign.models import Roll
from campaign.permissions import access_for
from campaign.registry import (
    TimelineEntry,
    register_timeline_source,
    timeline_sources,
    unregister_timeline_source,
)
from campaign.services import dice_request_from, roll_make
from gmtools import awards, party
from gmtools.timeline import timeline_page

pytestmark = pytest.mark.django_db


def refs(page):
    return [e.ref for e in page.entries]


@pytest.fixture
def history(campaign, gm, player, other_player, character, game_session, handout_private):
    """One of each kind, at known times (newest last)."""
    access = access_for(gm, campaign)
    public = roll_make(user=player, dice=dice_request_from(notation="4d"), campaign=campaign)
    secret = roll_make(
        user=gm, dice=dice_request_from(notation="3d"), campaign=campaign, secret=True
    )
    award = awards.award_grant(
        campaign=campaign, by=access, awarded_by=gm, characters=[character], yen=5
    )
    level_up = party.level_up_grant(character=character, by=access, raised_by=gm)
    return {
        "public": public,
        "secret": secret,
        "award": award,
        "level_up": level_up,
        "session": game_session,
        "handout": handout_private,
    }


def test_gm_sees_every_kind_newest_first(campaign, gm, history):
    page = timeline_page(access_for(gm, campaign))
    kinds = {e.kind for e in page.entries}
    assert kinds == {"roll", "award", "level_up", "session", "handout"}
    times = [e.at for e in page.entries]
    assert times == sorted(times, reverse=True)
    # the session is three days ahead: it comes first
    assert page.entries[0].ref == f"session:{history['session'].pk}"


def test_players_see_no_secret_roll_and_only_their_handouts(
    campaign, player, other_player, history
):
    mine = refs(timeline_page(access_for(player, campaign)))
    theirs = refs(timeline_page(access_for(other_player, campaign)))
    assert f"roll:{history['secret'].pk}" not in mine
    assert f"roll:{history['public'].pk}" in mine
    assert f"handout:{history['handout'].pk}" in mine
    assert f"handout:{history['handout'].pk}" not in theirs
    assert f"award:{history['award'].pk}" in theirs


def test_pages_cover_everything_once(campaign, gm, player):
    now = timezone.now()
    for i in range(60):
        roll = roll_make(user=player, dice=dice_request_from(notation="1d"), campaign=campaign)
        Roll.objects.filter(pk=roll.pk).update(created_at=now - timedelta(minutes=i))
    access = access_for(gm, campaign)
    seen = []
    page_number = 1
    while True:
        page = timeline_page(access, page=page_number, per_page=25)
        seen += refs(page)
        if not page.has_next:
            break
        page_number += 1
    assert page_number == 3
    assert len(seen) == len(set(seen)) == 60


def test_page_queries_do_not_grow_with_history(campaign, gm, player, django_assert_max_num_queries):
    for _ in range(30):
        roll_make(user=player, dice=dice_request_from(notation="1d"), campaign=campaign)
    access = access_for(gm, campaign)
    # One query a source (the apps above add theirs: battles, tavern, wiki reveals), plus one.
    with django_assert_max_num_queries(len(timeline_sources()) + 1):
        timeline_page(access, page=2, per_page=10)


def test_later_apps_plug_in_their_entries(campaign, gm, player):
    """A kind no app registers, so the battles app's own source stays in place for the tests
    that follow (replacing and then removing it left the timeline without battles)."""

    def skirmishes(*, access, limit):
        return [
            TimelineEntry(
                kind="skirmish",
                at=timezone.now() + timedelta(days=30),
                title="Skirmish at the mansion gate",
                ref="skirmish:1",
            )
        ][:limit]

    register_timeline_source("skirmish", skirmishes)
    try:
        page = timeline_page(access_for(player, campaign))
        assert page.entries[0].title == "Skirmish at the mansion gate"
        only = timeline_page(access_for(player, campaign), kinds={"skirmish"})
        assert refs(only) == ["skirmish:1"]
    finally:
        unregister_timeline_source("skirmish")


def test_timeline_page_and_api(campaign, gm, player, outsider, history, client_for, api_for):
    html = client_for(player).get(f"/campaigns/{campaign.pk}/timeline/").content.decode()
    assert "Loot for Cirno: 5 yen" in html
    assert "reached level 2" in html
    body = api_for(player).get(f"/api/campaigns/{campaign.pk}/timeline/").json()
    assert body["page"] == 1
    assert {e["kind"] for e in body["results"]} == {
        "roll",
        "award",
        "level_up",
        "session",
        "handout",
    }
    filtered = api_for(player).get(f"/api/campaigns/{campaign.pk}/timeline/?kind=award").json()
    assert [e["kind"] for e in filtered["results"]] == ["award"]
    assert api_for(player).get(f"/api/campaigns/{campaign.pk}/timeline/?page=x").status_code == 400
    assert api_for(player).get(f"/api/campaigns/{campaign.pk}/timeline/?kind=x").status_code == 400
    assert api_for(outsider).get(f"/api/campaigns/{campaign.pk}/timeline/").status_code == 404
    # a silly page number is not an error on the page
    assert client_for(player).get(f"/campaigns/{campaign.pk}/timeline/?page=zz").status_code == 200


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "ja",
            [
                "セッション：The lake",
                "Cirno への戦利品：5 円",
                "Cirno がレベル 2 になりました",
                "報酬",
            ],
        ),
        ("zh-hans", ["跑团：The lake", "Cirno 获得战利品：5 日元", "Cirno 升到了 2 级", "奖励"]),
    ],
)
def test_the_timeline_reads_in_the_players_language(
    campaign, player, history, client_for, language, words
):
    """Entry titles and kinds in the reader's language; what people wrote (a session's title,
    a character's name) as they wrote it."""
    player.language = language
    player.save(update_fields=["language"])
    html = client_for(player).get(f"/campaigns/{campaign.pk}/timeline/").content.decode()
    for text in words:
        assert text in html, text
    assert "Loot for" not in html and "Session:" not in html
