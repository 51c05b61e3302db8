"""Session times in the viewer's time zone, with the zone named (issue 10): her profile's zone,
else her browser's (the ``tz`` cookie site.js sets), else UTC; sessions are typed in that zone
and stored in UTC."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gmtools.models import GameSession

pytestmark = pytest.mark.django_db

STARTS = datetime(2030, 12, 1, 19, 0, tzinfo=UTC)  # a Sunday, 19:00 UTC


@pytest.fixture
def session(campaign, gm):
    return GameSession.objects.create(
        campaign=campaign, title="The lake", starts_at=STARTS, created_by=gm
    )


def page(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_her_profiles_zone_then_her_browsers_then_utc(campaign, session, player, client_for):
    client = client_for(player)
    url = f"/campaigns/{campaign.pk}/sessions/{session.pk}/"
    assert "Sunday, December 1, 2030, 19:00 (UTC)" in page(client, url)
    client.cookies["tz"] = "America/New_York"
    assert "Sunday, December 1, 2030, 14:00 (America/New York)" in page(client, url)
    player.time_zone = "Asia/Tokyo"
    player.save()
    html = page(client, url)
    assert "Monday, December 2, 2030, 04:00 (Asia/Tokyo)" in html
    assert "Dec 2, 04:00 (Asia/Tokyo)" in page(client, f"/campaigns/{campaign.pk}/sessions/")
    # a cookie naming no real zone is ignored
    player.time_zone = ""
    player.save()
    client.cookies["tz"] = "Mars/Olympus_Mons"
    assert "(UTC)" in page(client, url)


def test_a_session_is_typed_in_her_zone_and_stored_in_utc(campaign, gm, client_for):
    gm.time_zone = "Europe/Paris"
    gm.save()
    client = client_for(gm)
    form = page(client, f"/campaigns/{campaign.pk}/sessions/")
    assert "Starts at (Europe/Paris time)" in form
    response = client.post(
        f"/campaigns/{campaign.pk}/sessions/",
        {"title": "Winter", "starts_at": "2030-12-01T20:00", "agenda": ""},
    )
    assert response.status_code == 302
    assert GameSession.objects.get(title="Winter").starts_at == STARTS  # 20:00 Paris = 19:00 UTC


def test_the_profile_page_sets_the_zone(player, client_for):
    client = client_for(player)
    html = page(client, "/accounts/profile/")
    assert "My browser&#x27;s zone" in html or "My browser's zone" in html
    bad = client.post("/accounts/profile/", {"display_name": "Reimu", "time_zone": "Nowhere/City"})
    assert bad.status_code == 400
    ok = client.post("/accounts/profile/", {"display_name": "Reimu", "time_zone": "Asia/Tokyo"})
    assert ok.status_code == 302
    player.refresh_from_db()
    assert player.time_zone == "Asia/Tokyo" and player.display_name == "Reimu"
    assert "Asia/Tokyo" in page(client, "/accounts/profile/")
