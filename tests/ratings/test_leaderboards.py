"""Leaderboards (page and API) and her rating history on the profile page."""

from __future__ import annotations

import pytest

from minigames import services
from tables.ratings.models import Rating
from tables.ratings.services import Player, Team, rate_result
from tests.factories import UserFactory
from tests.minigames.conftest import two_humans

pytestmark = pytest.mark.django_db


def _beat(winner, loser, game="rso", key="k", campaign_id=None):
    rate_result(
        key=key,
        game=game,
        campaign_id=campaign_id,
        teams=[Team(players=(winner,), rank=0), Team(players=(loser,), rank=1)],
        url="/tavern/tables/1/",
    )


def test_the_leaderboard_api_ranks_by_the_conservative_estimate(api_for, player, other_player):
    me, you = Player(user_id=player.pk), Player(user_id=other_player.pk)
    _beat(me, you, key="a")
    _beat(me, Player(bot="search"), key="b")
    answer = api_for(other_player).get("/api/leaderboards/rso/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["count"] == 3
    rows = body["results"]
    assert [r["place"] for r in rows] == [1, 2, 3]
    assert rows[0]["name"] == player.shown_name and rows[0]["games"] == 2
    assert rows[0]["rating"] > 1500 and rows[0]["provisional"] is True
    conservative = [r["mu"] - 3 * r["sigma"] for r in rows]
    assert conservative == sorted(conservative, reverse=True)
    assert {r["bot"] for r in rows} == {None, "search"}
    # paged: the second page's places follow the first's
    second = api_for(player).get("/api/leaderboards/rso/?limit=2&offset=2").json()["results"]
    assert [r["place"] for r in second] == [3]


def test_a_campaign_leaderboard_is_its_members(
    api_for, client_for, player, other_player, outsider, campaign
):
    table = two_humans("rso", player, other_player, campaign=campaign, rated=True)
    services.tavern_resign(table_id=table.pk, by=other_player)
    url = f"/api/leaderboards/rso/?campaign={campaign.pk}"
    rows = api_for(player).get(url).json()["results"]
    assert [r["name"] for r in rows] == [player.shown_name, other_player.shown_name]
    assert api_for(player).get("/api/leaderboards/rso/").json()["count"] == 0
    assert api_for(outsider).get(url).status_code == 404
    page = client_for(player).get(f"/campaigns/{campaign.pk}/tavern/ratings/rso/")
    assert page.status_code == 200 and other_player.shown_name in page.content.decode()
    assert (
        client_for(outsider).get(f"/campaigns/{campaign.pk}/tavern/ratings/rso/").status_code == 404
    )


@pytest.mark.parametrize(
    "url",
    [
        "/api/leaderboards/chess/",
        "/api/leaderboards/rso/?campaign=0",
        "/api/leaderboards/rso/?campaign=x",
        "/api/leaderboards/rso/?campaign=99999999999999999999999",
    ],
)
def test_bad_leaderboard_input_is_a_404(api_for, player, url):
    assert api_for(player).get(url).status_code == 404


def test_bad_paging_is_a_400_in_words(api_for, player):
    answer = api_for(player).get("/api/leaderboards/rso/?limit=zero")
    assert answer.status_code == 400 and "limit" in answer.json()["errors"]


def test_the_leaderboard_page(client_for, player, other_player):
    _beat(Player(user_id=player.pk), Player(bot="heuristic"))
    page = client_for(other_player).get("/tavern/ratings/rso/")
    text = page.content.decode()
    assert page.status_code == 200
    assert player.shown_name in text and "Heuristic bot" in text and "(provisional)" in text
    assert client_for(player).get("/tavern/ratings/").status_code == 302
    empty = client_for(player).get("/tavern/ratings/dbs/").content.decode()
    assert "No rated Dream Battle" in empty or 'id="ratings-empty"' in empty
    assert client_for(player).get("/tavern/ratings/chess/").status_code == 404
    assert client_for(None).get("/tavern/ratings/rso/").status_code == 302


def test_her_history_on_her_profile_and_in_the_api(client_for, api_for, player, other_player):
    _beat(Player(user_id=player.pk), Player(user_id=other_player.pk), key="one")
    _beat(Player(user_id=other_player.pk), Player(user_id=player.pk), key="two")
    page = client_for(player).get("/accounts/profile/").content.decode()
    assert 'id="ratings-history"' in page and "Lost" in page and "Won" in page
    mine = api_for(player).get("/api/ratings/mine/").json()
    assert len(mine) == 1 and mine[0]["games"] == 2 and mine[0]["scope"] == "Open tables"
    first, second = mine[0]["changes"][1], mine[0]["changes"][0]  # newest first
    assert (first["outcome"], first["before"]) == ("won", 1500)
    assert second["outcome"] == "lost" and second["before"] == first["after"]
    assert second["change"] == second["after"] - second["before"] < 0
    rating = Rating.objects.get(user=player)
    assert mine[0]["rating"] == round(1500 + 27 * (rating.mu - 25))
    newcomer = client_for(UserFactory(username="newcomer"))
    assert 'id="ratings-none"' in newcomer.get("/accounts/profile/").content.decode()


def test_a_finished_rated_tables_page_shows_what_it_did(client_for, player, other_player):
    table = two_humans("rso", player, other_player)
    before = client_for(player).get(f"/tavern/tables/{table.pk}/").content.decode()
    assert 'id="tavern-rated"' in before and 'id="tavern-rating-changes"' not in before
    services.tavern_resign(table_id=table.pk, by=other_player)
    after = client_for(player).get(f"/tavern/tables/{table.pk}/").content.decode()
    assert "Won, 1500 → 1571 (+71)" in after and "Lost, 1500 → 1429 (-71)" in after


def test_the_new_table_form_is_rated_at_open_tables_and_not_in_campaigns(
    client_for, player, campaign
):
    assert 'name="rated" id="rated" checked' in client_for(player).get("/tavern/").content.decode()
    page = client_for(player).get(f"/campaigns/{campaign.pk}/tavern/").content.decode()
    assert 'name="rated" id="rated">' in page
    made = client_for(player).post(
        f"/campaigns/{campaign.pk}/tavern/",
        {"game": "rso", "seat-0": "host", "seat-1": "open", "rated": "on"},
    )
    assert made.status_code == 302
    from minigames.models import TavernTable

    assert TavernTable.objects.get(campaign=campaign).rated is True


def test_a_rated_tables_page_shows_its_bots_ratings(client_for, player):
    _beat(Player(bot="search"), Player(user_id=player.pk), game="dbs", key="bot")
    table = services.tavern_create(
        by=player, game="dbs", campaign=None,
        seats=[services.SeatSpec(kind="host"), services.SeatSpec(kind="bot", strength="search")],
    )  # fmt: skip
    page = client_for(player).get(f"/tavern/tables/{table.pk}/").content.decode()
    assert "Search bot: 1571 (provisional)" in page
