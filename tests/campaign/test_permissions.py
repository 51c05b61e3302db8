"""The one permission layer, for every role, on every campaign page and endpoint so far.

Policy (docs/architecture.md): outsiders get 404; members read public things; players act for
their own things; GMs manage. Anonymous users are sent to log in (pages) or get 401 (API).
"""

from __future__ import annotations

import pytest

from campaign.models import Membership, Role, Roll
from campaign.permissions import access_for

pytestmark = pytest.mark.django_db


def _role_user(role, gm, player, outsider):
    return {"gm": gm, "player": player, "outsider": outsider, "anonymous": None}[role]


# (method, url template, data, {role: expected status})
PAGES = [
    (
        "get",
        "/campaigns/{id}/",
        None,
        {"gm": 200, "player": 200, "outsider": 404, "anonymous": 302},
    ),
    (
        "get",
        "/campaigns/{id}/dice/",
        None,
        {"gm": 200, "player": 200, "outsider": 404, "anonymous": 302},
    ),
    (
        "post",
        "/campaigns/{id}/dice/",
        {"notation": "4d", "target": "12"},
        {"gm": 302, "player": 302, "outsider": 404, "anonymous": 302},
    ),
    (
        "post",
        "/campaigns/{id}/members/add/",
        {"username": "newcomer", "role": "player"},
        {"gm": 302, "player": 403, "outsider": 404, "anonymous": 302},
    ),
]

API = [
    (
        "get",
        "/api/campaigns/{id}/",
        None,
        {"gm": 200, "player": 200, "outsider": 404, "anonymous": 401},
    ),
    (
        "get",
        "/api/campaigns/{id}/members/",
        None,
        {"gm": 200, "player": 200, "outsider": 404, "anonymous": 401},
    ),
    (
        "get",
        "/api/rolls/?campaign={id}",
        None,
        {"gm": 200, "player": 200, "outsider": 404, "anonymous": 401},
    ),
    (
        "post",
        "/api/rolls/",
        {"notation": "4d", "target": 12, "campaign": "{id}"},
        {"gm": 201, "player": 201, "outsider": 404, "anonymous": 401},
    ),
]


@pytest.fixture
def newcomer(db):
    from tests.factories import UserFactory

    return UserFactory(username="newcomer")


@pytest.mark.parametrize("role", ["gm", "player", "outsider", "anonymous"])
@pytest.mark.parametrize(("method", "url", "data", "expected"), PAGES)
def test_pages_per_role(
    role, method, url, data, expected, campaign, gm, player, outsider, newcomer, client_for
):
    client = client_for(_role_user(role, gm, player, outsider))
    response = getattr(client, method)(url.format(id=campaign.pk), data)
    assert response.status_code == expected[role]


@pytest.mark.parametrize("role", ["gm", "player", "outsider", "anonymous"])
@pytest.mark.parametrize(("method", "url", "data", "expected"), API)
def test_api_per_role(role, method, url, data, expected, campaign, gm, player, outsider, api_for):
    client = api_for(_role_user(role, gm, player, outsider))
    if data:
        data = {k: (v.format(id=campaign.pk) if isinstance(v, str) else v) for k, v in data.items()}
    response = getattr(client, method)(url.format(id=campaign.pk), data, format="json")
    assert response.status_code == expected[role], response.content


def test_unknown_and_malformed_campaign_ids_are_404_not_500(client_for, api_for, gm):
    assert client_for(gm).get("/campaigns/999999/").status_code == 404
    assert api_for(gm).get("/api/rolls/?campaign=abc").status_code == 404
    # an id in a body that is no id is a 400 on its field (docs/api.md, "Ids in bodies")
    assert api_for(gm).post("/api/rolls/", {"notation": "4d", "campaign": "x"}).status_code == 400


def test_outsiders_do_not_see_the_campaign_in_lists(campaign, outsider, api_for, client_for):
    assert api_for(outsider).get("/api/campaigns/").json()["results"] == []
    assert campaign.name not in client_for(outsider).get("/campaigns/").content.decode()


def test_access_object_for_each_role(campaign, gm, player, outsider):
    gm_access = access_for(gm, campaign)
    player_access = access_for(player, campaign)
    outsider_access = access_for(outsider, campaign)
    assert (gm_access.can_view, gm_access.can_manage) == (True, True)
    assert (player_access.can_view, player_access.can_manage) == (True, False)
    assert (outsider_access.can_view, outsider_access.can_manage) == (False, False)
    # players act for their own things only; GMs for everything in the campaign
    assert player_access.can_act_for(player.pk)
    assert not player_access.can_act_for(gm.pk)
    assert gm_access.can_act_for(player.pk)
    assert not outsider_access.can_act_for(outsider.pk)
    # private things: owner and GMs
    assert player_access.can_see_private(player.pk)
    assert not player_access.can_see_private(gm.pk)
    assert gm_access.can_see_private(player.pk)


def test_access_is_one_query_and_memoised(campaign, player, django_assert_num_queries):
    campaign.__dict__.pop("_access_cache", None)
    with django_assert_num_queries(1):
        access_for(player, campaign)
        access_for(player, campaign)


def test_gm_adds_a_member_and_a_player_cannot(campaign, gm, player, newcomer, client_for):
    client_for(player).post(
        f"/campaigns/{campaign.pk}/members/add/", {"username": "newcomer", "role": "gm"}
    )
    assert not Membership.objects.filter(user=newcomer).exists()
    client_for(gm).post(
        f"/campaigns/{campaign.pk}/members/add/", {"username": "newcomer", "role": "player"}
    )
    assert Membership.objects.get(user=newcomer, campaign=campaign).role == Role.PLAYER


def test_adding_an_unknown_user_is_a_field_error(campaign, gm, client_for):
    response = client_for(gm).post(
        f"/campaigns/{campaign.pk}/members/add/", {"username": "nobody", "role": "player"}
    )
    assert response.status_code == 400
    assert "username" in response.context["add_member_form"].errors


def test_secret_rolls_are_seen_by_the_roller_and_gms_only(
    campaign, gm, player, other_player, api_for, client_for
):
    made = api_for(player).post(
        "/api/rolls/",
        {"notation": "4d", "campaign": campaign.pk, "secret": True, "label": "hidden-check"},
        format="json",
    )
    assert made.status_code == 201
    roll_id = made.json()["id"]
    for user, sees in ((player, True), (gm, True), (other_player, False)):
        log = api_for(user).get(f"/api/rolls/?campaign={campaign.pk}").json()["results"]
        assert (roll_id in [r["id"] for r in log]) is sees
        single = api_for(user).get(f"/api/rolls/{roll_id}/")
        assert single.status_code == (200 if sees else 404)
        page = client_for(user).get(f"/campaigns/{campaign.pk}/").content.decode()
        assert ("hidden-check" in page) is sees


def test_personal_rolls_are_private(player, other_player, api_for):
    made = api_for(player).post("/api/rolls/", {"notation": "2d"}, format="json").json()
    assert api_for(other_player).get(f"/api/rolls/{made['id']}/").status_code == 404
    assert api_for(other_player).get("/api/rolls/").json()["results"] == []
    assert Roll.objects.get(pk=made["id"]).campaign is None


def test_a_403_says_why_in_words(campaign, player, api_for):
    """A member refused something is told the service's reason (config/api_errors.py), not
    only DRF's general sentence."""
    refused = api_for(player).patch(f"/api/campaigns/{campaign.pk}/", {"name": "Mine"})
    assert refused.status_code == 403
    assert refused.json() == {"detail": "Only the campaign's game masters may do that."}
