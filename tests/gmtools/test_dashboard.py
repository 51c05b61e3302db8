"""The GM dashboard: who may open it, what it shows, its query count (constant in the number of
characters), the ETag that makes unchanged polls cheap, quick actions with and without
JavaScript, and the registry slots later apps fill."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from freezegun import freeze_time

from campaign.registry import (
    DashboardPanel,
    dashboard_panels,
    register_dashboard_panel,
    unregister_dashboard_panel,
)
from characters.models import Character, InventoryItem
from gmtools.models import Award, Invitation
from tests.factories import CharacterFactory, UserFactory

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


def add_characters(campaign, n):
    """``n`` more players, each with a character ("Extra 0", "Extra 1", ... across calls)."""
    for _ in range(n):
        i = Character.objects.filter(campaign=campaign, name__startswith="Extra").count()
        owner = UserFactory(username=f"extra-{campaign.pk}-{i}")
        campaign.memberships.create(user=owner, role="player")
        CharacterFactory(owner=owner, campaign=campaign, name=f"Extra {i}")


@pytest.fixture
def a_fresh_minute() -> Iterator[None]:
    """The clock moved on to the start of the next minute, and running from there.

    The dashboard's version holds the current minute (so links expire and sessions start on
    screen), so a test that compares two reads' versions must not see the minute turn between
    them; starting at second 0 gives it the whole minute."""
    start = timezone.now().replace(second=0, microsecond=0) + timedelta(minutes=1)
    # pytest's own clock (its durations) keeps the real time
    with freeze_time(start, tick=True, ignore=["_pytest.timing"]):
        yield


@pytest.mark.parametrize(
    ("who", "status"),
    [("gm", 200), ("co_gm", 200), ("player", 403), ("outsider", 404), ("anonymous", 302)],
)
def test_dashboard_is_for_gms(campaign, gm, co_gm, player, outsider, client_for, who, status):
    user = {"gm": gm, "co_gm": co_gm, "player": player, "outsider": outsider}.get(who)
    client = client_for(user)
    assert client.get(f"/campaigns/{campaign.pk}/dashboard/").status_code == status
    assert client.get(f"/campaigns/{campaign.pk}/dashboard/live/").status_code == status


def test_party_at_a_glance(campaign, gm, character, npc, client_for):
    Character.objects.filter(pk=character.pk).update(
        current_hp=3, status_effects=["blind"], drunkenness="tipsy", spell_power=120
    )
    html = client_for(gm).get(f"/campaigns/{campaign.pk}/dashboard/").content.decode()
    assert f'data-character="{character.pk}"' in html
    assert f'data-character="{npc.pk}"' in html
    assert 'data-status="blind"' in html
    assert 'data-drunkenness="tipsy"' in html
    assert "Active battles" in html and "Open tavern tables" in html
    api = client_for(gm).get(f"/api/campaigns/{campaign.pk}/dashboard/").json()
    row = next(r for r in api["party"] if r["id"] == character.pk)
    assert row["hp"]["current"] == 3
    assert row["spell_power"] == {"held": 120, "cap": 400}
    assert row["status_effects"] == [{"slug": "blind", "name": "Blind"}]
    assert row["drunkenness"]["slug"] == "tipsy"
    assert row["level"] == 1
    assert set(api["slots"]) == {"active_battles", "tavern_tables"}


def _count(client, url, **headers):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, **headers)
    assert response.status_code == 200, url
    return len(ctx.captured_queries)


#: A dashboard seen again within its version (the party and the page kept in the cache; who
#: asks, her session and user, kept too): the campaign and her role, the version (one query,
#: plus one per registered panel that declares a version) and, on the page, the unread
#: notifications' count.
WARM_QUERIES = {"/campaigns/{id}/dashboard/": 4, "/campaigns/{id}/dashboard/live/": 3}


@pytest.mark.parametrize(
    "path",
    [
        "/campaigns/{id}/dashboard/",
        "/campaigns/{id}/dashboard/live/",
        "/api/campaigns/{id}/dashboard/",
    ],
)
def test_query_count_is_constant_from_3_to_100_characters(
    campaign, gm, path, client_for, django_assert_num_queries, a_fresh_minute
):
    client = client_for(gm)
    url = path.format(id=campaign.pk)
    client.get("/campaigns/")  # who asks is read once and kept (accounts/backends.py)
    add_characters(campaign, 3)
    built_with_3 = _count(client, url)  # a new version: the party and the panels are built
    warm_with_3 = _count(client, url)
    add_characters(campaign, 97)
    assert Character.objects.filter(campaign=campaign).count() == 100
    with django_assert_num_queries(built_with_3):
        response = client.get(url)
    assert response.content.decode().count("Extra 99") >= 1
    with django_assert_num_queries(warm_with_3):
        client.get(url)
    if path in WARM_QUERIES:
        panels = sum(1 for p in dashboard_panels() if p.version)
        assert warm_with_3 == WARM_QUERIES[path] + panels


def test_unchanged_polls_answer_304_cheaply_and_changes_show(
    campaign, gm, character, client_for, django_assert_max_num_queries, a_fresh_minute
):
    client = client_for(gm)
    url = f"/campaigns/{campaign.pk}/dashboard/live/"
    first = client.get(url)
    etag = first["ETag"]
    assert first.json()["version"] == etag
    # session, user, campaign, membership, the version; plus one per registered panel version
    panels = sum(1 for p in dashboard_panels() if p.version)
    with django_assert_max_num_queries(5 + panels):
        again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    # a change to a character (through the characters app) moves the version
    client.post(
        f"/campaigns/{campaign.pk}/dashboard/status/",
        {"character": character.pk, "status": "stun"},
        **JSON,
    )
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert 'data-status="stun"' in changed.json()["panels"]["party"]
    # so does a new roll or a new invitation
    etag = changed["ETag"]
    client.post(f"/campaigns/{campaign.pk}/dashboard/roll/", {"notation": "2d"}, **JSON)
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_api_dashboard_etag(campaign, gm, api_for, a_fresh_minute):
    api = api_for(gm)
    first = api.get(f"/api/campaigns/{campaign.pk}/dashboard/")
    assert first.status_code == 200
    assert (
        api.get(
            f"/api/campaigns/{campaign.pk}/dashboard/", HTTP_IF_NONE_MATCH=first["ETag"]
        ).status_code
        == 304
    )


def test_quick_award_without_javascript_redirects_back(campaign, gm, character, client_for):
    client = client_for(gm)
    response = client.post(
        f"/campaigns/{campaign.pk}/dashboard/award/",
        {"characters": [character.pk], "yen": "25", "item_1": "sword", "quantity_1": "1"},
    )
    assert response.status_code == 302
    assert response["Location"] == f"/campaigns/{campaign.pk}/dashboard/"
    assert InventoryItem.objects.filter(character=character, item="sword").exists()
    page = client.get(response["Location"]).content.decode()
    assert "Awarded 25 yen, Sword to Cirno." in page


def test_quick_action_errors_without_javascript_rerender_with_400(
    campaign, gm, character, client_for
):
    response = client_for(gm).post(
        f"/campaigns/{campaign.pk}/dashboard/award/", {"characters": [character.pk], "yen": "0"}
    )
    assert response.status_code == 400
    assert "Award some yen or at least one item." in response.content.decode()
    assert not Award.objects.exists()


def test_quick_actions_with_javascript_answer_json(campaign, gm, character, client_for):
    client = client_for(gm)
    ok = client.post(
        f"/campaigns/{campaign.pk}/dashboard/heal/", {"character": character.pk}, **JSON
    )
    assert ok.status_code == 200
    assert ok.json()["ok"] is True
    bad = client.post(
        f"/campaigns/{campaign.pk}/dashboard/status/",
        {"character": character.pk, "status": "sparkly"},
        **JSON,
    )
    assert bad.status_code == 400
    assert "status" in bad.json()["errors"]
    wrong = client.post(f"/campaigns/{campaign.pk}/dashboard/level-up/", {"character": 999}, **JSON)
    assert wrong.status_code == 400
    level = client.post(
        f"/campaigns/{campaign.pk}/dashboard/level-up/",
        {"character": character.pk, "levels": "1"},
        **JSON,
    )
    assert level.json() == {"ok": True, "detail": "Cirno is now level 2."}
    roll = client.post(
        f"/campaigns/{campaign.pk}/dashboard/roll/", {"notation": "4d+", "target": "12"}, **JSON
    )
    assert roll.status_code == 400
    assert "notation" in roll.json()["errors"]


def test_players_cannot_use_quick_actions(campaign, player, character, client_for):
    response = client_for(player).post(
        f"/campaigns/{campaign.pk}/dashboard/heal/", {"character": character.pk}
    )
    assert response.status_code == 403


def test_pending_invitations_and_next_session_show(campaign, gm, game_session, client_for):
    client = client_for(gm)
    client.post(
        f"/campaigns/{campaign.pk}/invitations/",
        {"role": "player", "expires_in_days": "7", "next": "dashboard"},
    )
    invitation = Invitation.objects.get()
    html = client.get(f"/campaigns/{campaign.pk}/dashboard/").content.decode()
    assert f"/campaigns/join/{invitation.token}/" in html
    assert game_session.title in html


def test_registered_panels_fill_their_slot(campaign, gm, client_for):
    panel = DashboardPanel(
        key="test-battles",
        slot="active_battles",
        title="Battles",
        items=lambda *, campaign, access: [
            {"title": "Battle at the gate", "detail": "Reimu's turn", "url": "/x/"}
        ],
        version=lambda *, campaign: "v1",
    )
    register_dashboard_panel(panel)
    try:
        client = client_for(gm)
        html = client.get(f"/campaigns/{campaign.pk}/dashboard/").content.decode()
        assert "Battle at the gate" in html
        live = client.get(f"/campaigns/{campaign.pk}/dashboard/live/").json()
        assert "Reimu&#x27;s turn" in live["panels"]["slot-active_battles"]
        api = client.get(f"/api/campaigns/{campaign.pk}/dashboard/").json()
        ours = next(p for p in api["slots"]["active_battles"] if p["key"] == "test-battles")
        assert ours["items"][0]["title"] == "Battle at the gate"
    finally:
        unregister_dashboard_panel("test-battles")
    with pytest.raises(ValueError, match="Unknown dashboard slot"):
        register_dashboard_panel(
            DashboardPanel(key="x", slot="nowhere", title="x", items=lambda **_: [])
        )


def test_a_double_submit_of_the_same_form_applies_once(campaign, gm, character, client_for):
    """Issue 10: every rendered quick-action form carries a one-time token; the same form sent
    twice (a double click, a re-sent request) awards once. A fresh token awards again, and a
    refused submit leaves its token usable once the form is corrected."""
    client = client_for(gm)
    page = client.get(f"/campaigns/{campaign.pk}/dashboard/").content.decode()
    token = re.search(r'id="award-form".*?name="once_token" value="([^"]+)"', page, re.S)[1]
    url = f"/campaigns/{campaign.pk}/dashboard/award/"
    yen = Character.objects.get(pk=character.pk).yen
    form = {"characters": [character.pk], "yen": "25", "once_token": token}
    first = client.post(url, form, **JSON)
    second = client.post(url, form, **JSON)
    assert first.json()["ok"] and second.json()["ok"]
    assert "applied once" in second.json()["detail"]
    assert Character.objects.get(pk=character.pk).yen == yen + 25
    assert Award.objects.count() == 1
    # a new form (new token) is a new award
    client.post(url, {**form, "once_token": uuid.uuid4().hex}, **JSON)
    assert Character.objects.get(pk=character.pk).yen == yen + 50
    # refused (nothing to award), then corrected with the same token: applies
    third = uuid.uuid4().hex
    refused = client.post(url, {**form, "yen": "0", "once_token": third}, **JSON)
    assert refused.status_code == 400
    client.post(url, {**form, "once_token": third}, **JSON)
    assert Character.objects.get(pk=character.pk).yen == yen + 75
    # the award form ticks characters: no Ctrl-click multi-select anywhere on the dashboard
    assert "<select" in page and " multiple" not in page
    assert f'type="checkbox" name="characters" value="{character.pk}"' in page
