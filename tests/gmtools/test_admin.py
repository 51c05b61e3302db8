"""The admin for GMs who prefer it: every page of the campaign core's and the GM tools' rows
loads with its columns, filters, search and inlines; staff GMs see only their own campaigns;
sessions saved there get their reminders; the GM tools' pages answer at their old addresses."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone

from campaign.models import Campaign
from campaign.permissions import access_for
from campaign.services import dice_request_from, roll_make
from gmtools import awards, party
from gmtools.models import GameSession, Invitation
from notifications.models import ScheduledNotification
from tests.factories import CampaignFactory, UserFactory

pytestmark = pytest.mark.django_db

MODELS = (
    ("campaign", "campaign"),
    ("campaign", "membership"),
    ("campaign", "roll"),
    ("gmtools", "invitation"),
    ("gmtools", "gamesession"),
    ("gmtools", "gmnote"),
    ("gmtools", "handout"),
    ("gmtools", "award"),
    ("gmtools", "levelup"),
)


@pytest.fixture
def admin_user(db):
    return UserFactory(username="root", is_staff=True, is_superuser=True)


@pytest.fixture
def filled(campaign, gm, character, game_session, gm_note, handout_private):
    roll_make(user=gm, dice=dice_request_from(notation="2d"), campaign=campaign, label="a roll")
    party.level_up_grant(character=character, by=access_for(gm, campaign), raised_by=gm)
    awards.award_grant(
        campaign=campaign, by=access_for(gm, campaign), awarded_by=gm, characters=[character], yen=3
    )
    Invitation.objects.create(
        campaign=campaign,
        token="admin-token",
        created_by=gm,
        expires_at=timezone.now() + timedelta(days=1),
    )
    return campaign


@pytest.mark.parametrize(("app", "model"), MODELS)
def test_changelists_search_and_change_pages_load(admin_user, filled, client_for, app, model):
    client = client_for(admin_user)
    listing = client.get(f"/admin/{app}/{model}/?q=a")
    assert listing.status_code == 200
    from django.apps import apps

    obj = apps.get_model(app, model).objects.first()
    assert client.get(f"/admin/{app}/{model}/{obj.pk}/change/").status_code == 200


@pytest.mark.parametrize("model", [m for app, m in MODELS if app == "gmtools"])
def test_the_gm_tools_admin_pages_answer_at_their_old_addresses(
    admin_user, filled, client_for, model
):
    """Before they were an app of their own they were under /admin/campaign/: a bookmark there
    is sent to the same page, query string and all."""
    from django.apps import apps

    obj = apps.get_model("gmtools", model).objects.first()
    client = client_for(admin_user)
    listing = client.get(f"/admin/campaign/{model}/?q=a")
    assert listing.status_code == 301
    assert listing["Location"] == f"/admin/gmtools/{model}/?q=a"
    change = client.get(f"/admin/campaign/{model}/{obj.pk}/change/", follow=True)
    assert change.redirect_chain == [(f"/admin/gmtools/{model}/{obj.pk}/change/", 301)]
    assert change.status_code == 200


def test_campaign_admin_has_members_sessions_and_invitations_inline(admin_user, filled, client_for):
    html = (
        client_for(admin_user).get(f"/admin/campaign/campaign/{filled.pk}/change/").content.decode()
    )
    for inline in ("memberships", "game_sessions", "invitations"):
        assert f'id="{inline}-group"' in html, inline


def test_staff_gms_see_only_their_campaigns(campaign, gm, client_for):
    gm.is_staff = True
    gm.save()
    gm.user_permissions.add(*Permission.objects.filter(content_type__app_label="campaign"))
    elsewhere = CampaignFactory(name="Someone else's")
    html = client_for(gm).get("/admin/campaign/campaign/").content.decode()
    assert campaign.name in html
    assert elsewhere.name not in html
    assert client_for(gm).get(f"/admin/campaign/campaign/{elsewhere.pk}/change/").status_code == 302


def test_sessions_saved_in_the_admin_get_their_reminders(admin_user, campaign, gm, client_for):
    starts = timezone.now() + timedelta(days=5)
    response = client_for(admin_user).post(
        "/admin/gmtools/gamesession/add/",
        {
            "campaign": campaign.pk,
            "title": "Admin night",
            "starts_at_0": starts.strftime("%Y-%m-%d"),
            "starts_at_1": starts.strftime("%H:%M:%S"),
            "agenda": "",
            "summary": "",
            "created_by": gm.pk,
            "attendance-TOTAL_FORMS": "0",
            "attendance-INITIAL_FORMS": "0",
            "attendance-MIN_NUM_FORMS": "0",
            "attendance-MAX_NUM_FORMS": "1000",
        },
    )
    assert response.status_code == 302, response.content[:2000]
    session = GameSession.objects.get()
    assert (
        ScheduledNotification.objects.filter(key__startswith=f"session:{session.pk}:").count() == 2
    )
    client_for(admin_user).post(f"/admin/gmtools/gamesession/{session.pk}/delete/", {"post": "yes"})
    assert not ScheduledNotification.objects.exists()


def test_awards_are_read_only_in_the_admin(admin_user, filled, client_for):
    assert client_for(admin_user).get("/admin/gmtools/award/add/").status_code == 403
    assert Campaign.objects.count() == 1


def test_the_admin_keeps_a_gm(admin_user, campaign, gm, client_for):
    from campaign.models import Membership

    membership = Membership.objects.get(campaign=campaign, user=gm)
    client = client_for(admin_user)
    response = client.post(
        f"/admin/campaign/membership/{membership.pk}/change/",
        {"campaign": campaign.pk, "user": gm.pk, "role": "player"},
    )
    assert response.status_code == 200  # the form again, with the reason
    assert "at least one game master" in response.content.decode()
    assert client.get(f"/admin/campaign/membership/{membership.pk}/delete/").status_code == 403
    membership.refresh_from_db()
    assert membership.role == "gm"
