"""Members: promote, demote, remove, leave; a campaign always keeps a GM; what happens to a
leaving member's characters (they leave with them; a GM's NPCs stay with another GM)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from campaign import members as core_members
from campaign.models import Membership, Role
from campaign.permissions import access_for
from characters.models import Character
from gmtools import members
from gmtools.models import Handout

pytestmark = pytest.mark.django_db


def role_of(campaign, user):
    return (
        Membership.objects.filter(campaign=campaign, user=user)
        .values_list("role", flat=True)
        .first()
    )


def test_gm_promotes_a_player_and_demotes_a_co_gm(campaign, gm, player, co_gm, gm_access):
    core_members.membership_set_role(campaign=campaign, user_id=player.pk, role="gm", by=gm_access)
    assert role_of(campaign, player) == Role.GM
    core_members.membership_set_role(
        campaign=campaign, user_id=co_gm.pk, role="player", by=gm_access
    )
    assert role_of(campaign, co_gm) == Role.PLAYER


def test_the_last_gm_cannot_be_demoted_leave_or_be_removed(campaign, gm, player, gm_access):
    with pytest.raises(ValidationError) as demote:
        core_members.membership_set_role(
            campaign=campaign, user_id=gm.pk, role="player", by=gm_access
        )
    assert "at least one game master" in str(demote.value)
    with pytest.raises(ValidationError):
        members.membership_leave(campaign=campaign, user=gm)
    assert role_of(campaign, gm) == Role.GM


def test_a_gm_may_step_down_when_another_gm_remains(campaign, gm, co_gm, gm_access):
    core_members.membership_set_role(campaign=campaign, user_id=gm.pk, role="player", by=gm_access)
    assert role_of(campaign, gm) == Role.PLAYER
    # now co_gm is the last GM
    with pytest.raises(ValidationError):
        members.membership_leave(campaign=campaign, user=co_gm)


def test_players_manage_nobody(campaign, player, other_player):
    access = access_for(player, campaign)
    with pytest.raises(PermissionDenied):
        core_members.membership_set_role(campaign=campaign, user_id=player.pk, role="gm", by=access)
    with pytest.raises(PermissionDenied):
        members.membership_remove(campaign=campaign, user_id=other_player.pk, by=access)


def test_a_gm_removes_themselves_by_leaving_not_removing(campaign, gm, co_gm, gm_access):
    with pytest.raises(ValidationError):
        members.membership_remove(campaign=campaign, user_id=gm.pk, by=gm_access)


def test_removed_players_keep_their_characters_which_leave_the_campaign(
    campaign, gm, player, character, handout_private, gm_access, client_for
):
    members.membership_remove(campaign=campaign, user_id=player.pk, by=gm_access)
    character.refresh_from_db()
    assert character.owner == player
    assert character.campaign is None
    assert not Membership.objects.filter(campaign=campaign, user=player).exists()
    assert not Handout.recipients.through.objects.filter(user=player).exists()
    # they lose access to the campaign, but keep their sheet
    client = client_for(player)
    assert client.get(f"/campaigns/{campaign.pk}/").status_code == 404
    assert client.get(f"/characters/{character.pk}/").status_code == 200
    # and the GM no longer sees it in the campaign
    assert client_for(gm).get(f"/characters/{character.pk}/").status_code == 404


def test_a_leaving_gm_hands_their_npcs_to_a_gm_who_stays(campaign, gm, co_gm, npc):
    members.membership_leave(campaign=campaign, user=gm)
    npc.refresh_from_db()
    assert (npc.owner, npc.campaign) == (co_gm, campaign)
    assert Character.objects.filter(campaign=campaign, is_npc=True).count() == 1


def test_leave_page_and_members_page(campaign, player, other_player, client_for):
    client = client_for(player)
    page = client.get(f"/campaigns/{campaign.pk}/members/")
    assert page.status_code == 200
    assert "Make GM" not in page.content.decode()  # players see no management buttons
    response = client.post(f"/campaigns/{campaign.pk}/leave/")
    assert response.status_code == 302
    assert not Membership.objects.filter(campaign=campaign, user=player).exists()


def test_last_gm_leaving_by_page_shows_the_reason(campaign, gm, client_for):
    client = client_for(gm)
    response = client.post(f"/campaigns/{campaign.pk}/leave/", follow=True)
    assert "at least one game master" in response.content.decode()
    assert role_of(campaign, gm) == Role.GM


def test_gm_promotes_and_removes_on_the_page(campaign, gm, player, other_player, client_for):
    client = client_for(gm)
    assert (
        client.post(
            f"/campaigns/{campaign.pk}/members/{player.pk}/role/", {"role": "gm"}
        ).status_code
        == 302
    )
    assert role_of(campaign, player) == Role.GM
    assert (
        client.post(f"/campaigns/{campaign.pk}/members/{other_player.pk}/remove/").status_code
        == 302
    )
    assert role_of(campaign, other_player) is None


def test_api_members(campaign, gm, player, other_player, api_for):
    api = api_for(gm)
    url = f"/api/campaigns/{campaign.pk}/members/{player.pk}/"
    response = api.patch(url, {"role": "gm"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["role"] == "gm"
    bad = api.patch(url, {"role": "emperor"}, format="json")
    assert bad.status_code == 400
    assert "role" in bad.json()["errors"]
    # demote the creator while the new GM remains, then the new GM cannot go
    assert (
        api.patch(
            f"/api/campaigns/{campaign.pk}/members/{gm.pk}/", {"role": "player"}, format="json"
        ).status_code
        == 200
    )
    last = api_for(player).patch(url, {"role": "player"}, format="json")
    assert last.status_code == 400
    assert "at least one game master" in last.json()["errors"]["role"][0]
    gone = api_for(player).delete(f"/api/campaigns/{campaign.pk}/members/{other_player.pk}/")
    assert gone.status_code == 204
    assert api_for(gm).post(f"/api/campaigns/{campaign.pk}/leave/").status_code == 204
    assert api_for(player).post(f"/api/campaigns/{campaign.pk}/leave/").status_code == 400


def test_unknown_member_is_a_field_error_not_a_500(campaign, gm, api_for):
    response = api_for(gm).patch(
        f"/api/campaigns/{campaign.pk}/members/987654/", {"role": "gm"}, format="json"
    )
    assert response.status_code == 400
    assert "user" in response.json()["errors"]


def test_the_add_member_form_cannot_demote_the_last_gm(campaign, gm, client_for):
    response = client_for(gm).post(
        f"/campaigns/{campaign.pk}/members/add/", {"username": gm.username, "role": "player"}
    )
    assert response.status_code == 400
    assert "at least one game master" in response.content.decode()
    assert role_of(campaign, gm) == Role.GM
