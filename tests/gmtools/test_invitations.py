"""Invitations: links with a role and an expiry, single-use and limited links, revoking, the
join page for logged-in and logged-out visitors, by-username invitations that notify, the API."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import close_old_connections
from django.utils import timezone
from django.utils.html import escape
from freezegun import freeze_time

from campaign.models import Membership, Role
from campaign.permissions import access_for
from gmtools import invitations
from gmtools.models import Invitation
from notifications.models import Notification
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def newcomer(db):
    return UserFactory(username="newcomer")


def make(campaign, gm, **kwargs):
    return invitations.invitation_create(
        campaign=campaign, by=access_for(gm, campaign), created_by=gm, **kwargs
    )


def test_tokens_are_long_random_and_unique(campaign, gm):
    tokens = {make(campaign, gm).token for _ in range(20)}
    assert len(tokens) == 20
    assert all(len(t) >= 40 for t in tokens)


def test_default_expiry_is_seven_days(campaign, gm):
    with freeze_time("2026-11-22 12:00:00"):
        invitation = make(campaign, gm)
        assert invitation.expires_at == timezone.now() + timedelta(days=7)


def test_accepting_joins_with_the_role_and_counts_a_use(campaign, gm, newcomer):
    invitation = make(campaign, gm, role=Role.GM)
    joined = invitations.invitation_accept(token=invitation.token, user=newcomer)
    assert not joined.already_member
    assert Membership.objects.get(campaign=campaign, user=newcomer).role == Role.GM
    invitation.refresh_from_db()
    assert invitation.uses == 1
    assert invitation.acceptances.get().user == newcomer


def test_members_use_nothing_and_keep_their_role(campaign, gm, player):
    invitation = make(campaign, gm, role=Role.GM, max_uses=1)
    joined = invitations.invitation_accept(token=invitation.token, user=player)
    assert joined.already_member
    assert Membership.objects.get(campaign=campaign, user=player).role == Role.PLAYER
    invitation.refresh_from_db()
    assert invitation.uses == 0


@pytest.mark.parametrize("state", ["expired", "revoked", "used"])
def test_unusable_links_are_refused_with_their_reason(campaign, gm, newcomer, state):
    invitation = make(campaign, gm, max_uses=1)
    if state == "expired":
        Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now())
    elif state == "revoked":
        invitations.invitation_revoke(invitation=invitation, by=access_for(gm, campaign))
    else:
        invitations.invitation_accept(token=invitation.token, user=UserFactory())
    with pytest.raises(invitations.InvitationUnusable) as refused:
        invitations.invitation_accept(token=invitation.token, user=newcomer)
    assert refused.value.state == state
    assert not Membership.objects.filter(campaign=campaign, user=newcomer).exists()


def test_players_cannot_invite_or_revoke(campaign, gm, player):
    with pytest.raises(PermissionDenied):
        make(campaign, player)
    invitation = make(campaign, gm)
    with pytest.raises(PermissionDenied):
        invitations.invitation_revoke(invitation=invitation, by=access_for(player, campaign))


def test_bad_input_lists_every_field(campaign, gm, player):
    with pytest.raises(ValidationError) as bad:
        make(campaign, gm, role="king", expires_in_days=0, max_uses=0)
    assert set(bad.value.message_dict) == {"role", "expires_in_days", "max_uses"}
    with pytest.raises(ValidationError) as member:
        make(campaign, gm, invited_user=player)
    assert "already a member" in str(member.value)


def test_inviting_a_user_by_name_notifies_them_and_only_they_may_use_it(
    campaign, gm, newcomer, capture_commits
):
    with capture_commits(execute=True):
        invitation = make(campaign, gm, invited_user=newcomer)
    assert invitation.max_uses == 1
    notification = Notification.objects.get(recipient=newcomer, event="invitation")
    assert notification.url == f"/campaigns/join/{invitation.token}/"
    assert campaign.name in notification.title
    with pytest.raises(invitations.InvitationUnusable) as refused:
        invitations.invitation_accept(token=invitation.token, user=UserFactory())
    assert refused.value.state == "not_for_you"
    invitations.invitation_accept(token=invitation.token, user=newcomer)


@pytest.mark.django_db(transaction=True)
def test_a_single_use_link_admits_exactly_one_of_two_racing_users(campaign, gm):
    invitation = make(campaign, gm, max_uses=1)
    racers = [UserFactory(username=f"racer{i}") for i in range(2)]
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def run(user):
        try:
            barrier.wait()
            invitations.invitation_accept(token=invitation.token, user=user)
            outcomes.append("joined")
        except invitations.InvitationUnusable as exc:
            outcomes.append(exc.state)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=run, args=(u,)) for u in racers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["joined", "used"]
    assert Membership.objects.filter(campaign=campaign, user__in=racers).count() == 1


# --------------------------------------------------------------------------- pages


def test_join_page_shows_the_campaign_and_joins_on_post(campaign, gm, newcomer, client_for):
    invitation = make(campaign, gm)
    client = client_for(newcomer)
    page = client.get(f"/campaigns/join/{invitation.token}/")
    assert page.status_code == 200
    assert campaign.name in page.content.decode()
    assert 'id="join-button"' in page.content.decode()
    response = client.post(f"/campaigns/join/{invitation.token}/")
    assert response.status_code == 302
    assert response["Location"] == f"/campaigns/{campaign.pk}/"
    assert client.get(f"/campaigns/{campaign.pk}/").status_code == 200


@pytest.mark.parametrize("state", ["expired", "revoked", "used"])
def test_unusable_link_pages_say_why_with_410(campaign, gm, newcomer, client_for, state):
    invitation = make(campaign, gm, max_uses=1)
    if state == "expired":
        Invitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now())
    elif state == "revoked":
        client_for(gm).post(f"/campaigns/{campaign.pk}/invitations/{invitation.pk}/revoke/")
    else:
        invitations.invitation_accept(token=invitation.token, user=UserFactory())
    client = client_for(newcomer)
    for method in ("get", "post"):
        response = getattr(client, method)(f"/campaigns/join/{invitation.token}/")
        assert response.status_code == 410
        assert escape(invitations.STATE_MESSAGES[state]) in response.content.decode()
    assert not Membership.objects.filter(campaign=campaign, user=newcomer).exists()


def test_unknown_link_is_a_friendly_404(newcomer, client_for):
    response = client_for(newcomer).get("/campaigns/join/not-a-real-token/")
    assert response.status_code == 404
    assert "no such invitation" in response.content.decode().lower()
    long_token = "x" * 300
    assert client_for(newcomer).post(f"/campaigns/join/{long_token}/").status_code == 404


def test_logged_out_visitors_log_in_or_sign_up_and_come_back(campaign, gm, client):
    invitation = make(campaign, gm)
    path = f"/campaigns/join/{invitation.token}/"
    page = client.get(path)
    assert page.status_code == 200
    html = page.content.decode()
    assert campaign.name not in html  # nothing about the campaign before logging in
    assert f"/accounts/login/?next={path.replace('/', '%2F')}" in html
    # sign up through the link and land back on it
    signup = client.post(
        f"/accounts/signup/?next={path}",
        {
            "username": "freshface",
            "password1": "a-long-enough-pass-2026",
            "password2": "a-long-enough-pass-2026",
            "next": path,
        },
    )
    assert signup.status_code == 302, signup.content
    assert signup["Location"] == path
    assert client.post(path).status_code == 302
    assert Membership.objects.filter(campaign=campaign, user__username="freshface").exists()


def test_signup_ignores_a_next_pointing_elsewhere(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "cautious",
            "password1": "a-long-enough-pass-2026",
            "password2": "a-long-enough-pass-2026",
            "next": "https://evil.example/",
        },
    )
    assert response["Location"] == "/"


def test_gm_invitation_page_creates_and_lists_links(campaign, gm, newcomer, client_for):
    client = client_for(gm)
    response = client.post(
        f"/campaigns/{campaign.pk}/invitations/",
        {"role": "player", "expires_in_days": "3", "max_uses": "1", "username": "", "note": "Aya"},
        follow=True,
    )
    assert response.status_code == 200
    invitation = Invitation.objects.get(campaign=campaign)
    assert invitation.max_uses == 1
    assert f"/campaigns/join/{invitation.token}/" in response.content.decode()
    bad = client.post(
        f"/campaigns/{campaign.pk}/invitations/",
        {"role": "player", "expires_in_days": "400", "username": "ghost"},
    )
    assert bad.status_code == 400
    assert set(bad.context["form"].errors) == {"expires_in_days", "username"}


# --------------------------------------------------------------------------- API


def test_api_invitation_lifecycle(campaign, gm, newcomer, api_for):
    api = api_for(gm)
    created = api.post(
        f"/api/campaigns/{campaign.pk}/invitations/", {"role": "player", "max_uses": 1}
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["state"] == "active"
    assert body["url"].endswith(f"/campaigns/join/{body['token']}/")
    listed = api.get(f"/api/campaigns/{campaign.pk}/invitations/").json()
    assert [i["id"] for i in listed] == [body["id"]]

    visitor = api_for(newcomer)
    preview = visitor.get(f"/api/invitations/{body['token']}/").json()
    assert preview["campaign"] == {"id": campaign.pk, "name": campaign.name}
    joined = visitor.post(f"/api/invitations/{body['token']}/accept/")
    assert joined.status_code == 201
    assert joined.json() == {"campaign": campaign.pk, "role": "player", "already_member": False}
    again = visitor.post(f"/api/invitations/{body['token']}/accept/")
    assert again.status_code == 200
    assert again.json()["already_member"] is True

    someone = api_for(UserFactory())
    used = someone.post(f"/api/invitations/{body['token']}/accept/")
    assert used.status_code == 410
    assert used.json()["state"] == "used"
    assert someone.post("/api/invitations/nope/accept/").status_code == 404

    second = api.post(f"/api/campaigns/{campaign.pk}/invitations/", {}).json()
    revoked = api.post(f"/api/campaigns/{campaign.pk}/invitations/{second['id']}/revoke/")
    assert revoked.json()["state"] == "revoked"
    assert someone.post(f"/api/invitations/{second['token']}/accept/").status_code == 410


def test_api_invitation_bad_input_is_400_with_fields(campaign, gm, api_for):
    response = api_for(gm).post(
        f"/api/campaigns/{campaign.pk}/invitations/",
        {"role": "emperor", "expires_in_days": 0, "username": "nobody-at-all"},
        format="json",
    )
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"role", "expires_in_days", "username"}
    assert Invitation.objects.count() == 0
