"""Wiki mentions of the GM tools' rows (issue 43: "@mentions link entries, characters,
sessions and handouts as you type; every entry lists what links to it; renaming keeps links"):
a session and the handouts a player may see are offered, shown and linked to her; a handout
she may not see never is, in a suggestion, a page, the API or a "Linked from" list."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.utils import timezone

from campaign.permissions import access_for
from gmtools.handouts import handout_create, handout_update
from gmtools.models import GameSession
from wiki import services
from wiki.models import Link

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(campaign, gm, player, other_player):
    access = access_for(gm, campaign)
    session = GameSession.objects.create(
        campaign=campaign, title="Night at the lake", starts_at=timezone.now(), created_by=gm
    )
    chart = handout_create(
        campaign=campaign, by=access, author=gm, title="Chart of the lake", body="A map."
    )
    letter = handout_create(
        campaign=campaign, by=access, author=gm, title="Letter to Reimu",
        body="Meet me at dusk.", recipient_ids=[player.pk],
    )  # fmt: skip
    entry = services.entry_create(
        campaign_id=campaign.pk, by=access, author=gm, title="Misty Lake", kind="place",
        body="See @[[Night at the lake]], @[[Chart of the lake]] and @[[Letter to Reimu]].",
        visibility="all",
    )  # fmt: skip
    secret = services.entry_create(
        campaign_id=campaign.pk, by=access, author=gm, title="The GM's notes", kind="lore",
        body="@[[Chart of the lake]] is forged.",
    )  # fmt: skip
    return SimpleNamespace(
        access=access, session=session, chart=chart, letter=letter, entry=entry, secret=secret
    )


def test_mentions_are_stored_by_id_and_linked_in_what_links_here(table):
    t = table
    assert t.entry.body == (
        f"See @[[session:{t.session.pk}]], @[[handout:{t.chart.pk}]] and "
        f"@[[handout:{t.letter.pk}]]."
    )
    links = Link.objects.filter(source=t.entry)
    assert {(lk.target_session_id, lk.target_handout_id) for lk in links} == {
        (t.session.pk, None),
        (None, t.chart.pk),
        (None, t.letter.pk),
    }


def test_each_seat_is_offered_shown_and_linked_only_what_it_may_see(
    table, campaign, gm, player, other_player, outsider, client_for, api_for
):
    t, c = table, campaign.pk
    letter_url = f"/campaigns/{c}/handouts/{t.letter.pk}/"
    chart_url = f"/campaigns/{c}/handouts/{t.chart.pk}/"
    session_url = f"/campaigns/{c}/sessions/{t.session.pk}/"
    for user, sees_letter in ((gm, True), (player, True), (other_player, False)):
        api = api_for(user)
        offered = {
            r["ref"]: r
            for q in ("Letter", "Chart", "Night")
            for r in api.get(f"/api/campaigns/{c}/wiki/mentions/", {"q": q}).json()
        }
        assert f"session:{t.session.pk}" in offered and f"handout:{t.chart.pk}" in offered
        assert offered[f"handout:{t.chart.pk}"]["kind"] == "Handout"
        assert offered[f"session:{t.session.pk}"]["insert"] == "Night at the lake"
        assert (f"handout:{t.letter.pk}" in offered) is sees_letter, user
        html = client_for(user).get(f"/campaigns/{c}/wiki/{t.entry.pk}/").content.decode()
        body_html = api.get(f"/api/campaigns/{c}/wiki/entries/{t.entry.pk}/").json()["body_html"]
        for shown in (html, body_html):
            assert f'href="{session_url}"' in shown and "Night at the lake" in shown
            assert f'href="{chart_url}"' in shown and "Chart of the lake" in shown
            assert (f'href="{letter_url}"' in shown) is sees_letter
            assert ("Letter to Reimu" in shown) is sees_letter
            assert ("not learned yet" in shown) is not sees_letter
        # "Linked from the wiki" on the handout's page: the GM-only entry for the GM alone
        chart = client_for(user).get(chart_url).content.decode()
        assert "Misty Lake" in chart and ("The GM&#x27;s notes" in chart) is (user == gm)
        session = client_for(user).get(session_url).content.decode()
        assert "Linked from the wiki" in session and "Misty Lake" in session
    letter = client_for(player).get(letter_url).content.decode()
    assert "Linked from the wiki" in letter and "Misty Lake" in letter
    assert client_for(other_player).get(letter_url).status_code == 404
    assert api_for(outsider).get(f"/api/campaigns/{c}/wiki/mentions/?q=L").status_code == 404


def test_renaming_a_handout_or_a_session_keeps_the_link(table, campaign, gm, client_for):
    t, c = table, campaign.pk
    handout_update(handout=t.chart, by=t.access, title="Old chart")
    t.session.title = "Evening by the water"
    t.session.save()
    html = client_for(gm).get(f"/campaigns/{c}/wiki/{t.entry.pk}/").content.decode()
    assert "Old chart" in html and "Evening by the water" in html
    assert "Chart of the lake" not in html
    form = client_for(gm).get(f"/campaigns/{c}/wiki/{t.entry.pk}/edit/").content.decode()
    assert "@[[Old chart]]" in form and "@[[Evening by the water]]" in form


def test_a_name_two_things_share_is_inserted_by_id(table, campaign, gm, api_for, client_for):
    """An entry titled like a handout: the written name finds the entry first, so the handout
    is offered with its id to write, and the edit form keeps the id."""
    t = table
    services.entry_create(
        campaign_id=campaign.pk, by=t.access, author=gm, title="Chart of the lake", kind="item"
    )
    rows = api_for(gm).get(f"/api/campaigns/{campaign.pk}/wiki/mentions/", {"q": "Chart"}).json()
    by_ref = {r["ref"]: r["insert"] for r in rows}
    assert by_ref[f"handout:{t.chart.pk}"] == f"handout:{t.chart.pk}"
    assert [r["insert"] for r in rows if r["ref"].startswith("entry:")] == ["Chart of the lake"]
    ref = f"@[[handout:{t.chart.pk}]]"
    again = services.entry_update(entry=t.entry, by=t.access, author=gm, body=ref)
    assert again.body == ref
    form = client_for(gm).get(f"/campaigns/{campaign.pk}/wiki/{t.entry.pk}/edit/").content
    assert ref in form.decode()


def test_backup_and_restore_keep_the_mentions_of_sessions_and_handouts(table, campaign):
    from config.backup import export_campaign, import_campaign
    from gmtools.models import Handout
    from wiki.models import Entry

    copy = import_campaign(export_campaign(campaign.pk))
    entry = Entry.objects.get(campaign=copy, title="Misty Lake")
    session = GameSession.objects.get(campaign=copy)
    chart = Handout.objects.get(campaign=copy, title="Chart of the lake")
    letter = Handout.objects.get(campaign=copy, title="Letter to Reimu")
    assert entry.body == (
        f"See @[[session:{session.pk}]], @[[handout:{chart.pk}]] and @[[handout:{letter.pk}]]."
    )
    links = Link.objects.filter(source=entry)
    assert {(lk.target_session_id, lk.target_handout_id) for lk in links} == {
        (session.pk, None),
        (None, chart.pk),
        (None, letter.pk),
    }
