"""Who sees and changes which cards and decks (docs/decks.md "Who may do what"); the full
role sweep of every route is in tests/campaign/test_permission_matrix.py."""

from __future__ import annotations

import pytest

from decks import selectors, services
from decks.games import RSO
from decks.models import CustomCard
from tests.decks.conftest import RSO_GM_SPELL, preset
from tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_campaign(outsider):
    from campaign.models import Membership, Role

    c = CampaignFactory(created_by=outsider, name="Elsewhere")
    Membership.objects.create(campaign=c, user=outsider, role=Role.GM)
    return c


@pytest.fixture
def secret_card(outsider, other_campaign):
    return services.custom_card_create(
        by=outsider, game="rso", campaign=other_campaign, data={**RSO_GM_SPELL, "number": "ZZ-001"}
    )


def test_another_campaigns_gm_cards_do_not_exist_for_outsiders(
    api_for, client_for, player, secret_card
):
    api = api_for(player)
    assert api.get(f"/api/custom-cards/{secret_card.pk}/").status_code == 404
    assert (
        api.patch(
            f"/api/custom-cards/{secret_card.pk}/", {"data": RSO_GM_SPELL}, format="json"
        ).status_code
        == 404
    )
    assert api.get("/api/custom-cards/").json()["results"] == []
    numbers = [c["number"] for c in api.get("/api/card-games/rso/cards/").json()]
    assert "ZZ-001" not in numbers
    page = client_for(player)
    assert page.get(f"/cards/gm/{secret_card.pk}/").status_code == 404
    assert page.get("/cards/rso/ZZ-001/").status_code == 404
    assert b"ZZ-001" not in page.get("/cards/rso/?q=lantern").content


def test_a_player_reads_but_may_not_edit_her_campaigns_gm_cards(
    api_for, client_for, player, rso_gm_card
):
    api = api_for(player)
    assert api.get(f"/api/custom-cards/{rso_gm_card.pk}/").status_code == 200
    url = f"/api/custom-cards/{rso_gm_card.pk}/"
    assert api.put(url, {"data": RSO_GM_SPELL}, format="json").status_code == 403
    assert api.delete(url).status_code == 403
    page = client_for(player)
    assert page.get(f"/cards/rso/{rso_gm_card.number}/").status_code == 302  # to its page
    assert page.get(f"/cards/gm/{rso_gm_card.pk}/edit/").status_code == 403
    assert page.post(f"/cards/gm/{rso_gm_card.pk}/delete/").status_code == 403
    assert CustomCard.objects.filter(pk=rso_gm_card.pk).exists()


def test_a_player_cannot_add_cards_to_her_campaign(api_for, client_for, player, campaign):
    response = api_for(player).post(
        "/api/custom-cards/",
        {"game": "rso", "campaign": campaign.pk, "data": RSO_GM_SPELL},
        format="json",
    )
    assert response.status_code == 403
    page = client_for(player).post(
        f"/campaigns/{campaign.pk}/cards/", {"game": "rso", "card": "number: GM-001"}
    )
    assert page.status_code == 403
    assert not CustomCard.objects.exists()


def test_site_wide_cards_are_for_staff_to_add_and_everyone_to_use(
    api_for, player, admin_user, outsider
):
    body = {"game": "rso", "campaign": None, "data": {**RSO_GM_SPELL, "number": "WR-001"}}
    assert api_for(player).post("/api/custom-cards/", body, format="json").status_code == 403
    created = api_for(admin_user).post("/api/custom-cards/", body, format="json")
    assert created.status_code == 201
    assert api_for(outsider).get(f"/api/custom-cards/{created.json()['id']}/").status_code == 200
    card = CustomCard.objects.get()
    assert api_for(player).delete(f"/api/custom-cards/{card.pk}/").status_code == 403


def test_decks_are_their_owners_alone(api_for, client_for, gm, player, other_player, rso_deck):
    for user in (gm, other_player):
        api = api_for(user)
        assert api.get(f"/api/decks/{rso_deck.pk}/").status_code == 404
        assert (
            api.patch(f"/api/decks/{rso_deck.pk}/", {"name": "x"}, format="json").status_code == 404
        )
        assert api.get("/api/decks/").json()["results"] == []
        page = client_for(user)
        assert page.get(f"/decks/{rso_deck.pk}/").status_code == 404
        assert (
            page.post(
                f"/decks/{rso_deck.pk}/cards/", {"number": "RSO-101", "count": "0"}
            ).status_code
            == 404
        )
    assert selectors.seat_decks(other_player, "rso") == [
        (f"preset:{p['key']}", p["name"]) for p in RSO.engine.preset_decks()
    ]
    rso_deck.refresh_from_db()
    assert rso_deck.name == "Shrine copy" and len(rso_deck.cards) == len(preset(RSO))


def test_anonymous_visitors_are_sent_to_log_in(client, api_for):
    assert client.get("/decks/").status_code == 302
    assert client.get("/cards/rso/").status_code == 302
    assert api_for(None).get("/api/decks/").status_code == 401
