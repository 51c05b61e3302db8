"""Rated tavern tables through the real services: a finished game moves the ratings once, a
resignation is a loss, a campaign's ratings are its own (issue 39, "Ratings")."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from openskill.models import PlackettLuce

from minigames import services
from minigames.engines.registry import get_engine
from minigames.rated import rate_table, result_key
from tables.ratings.models import RatedResult, Rating, RatingChange
from tests.minigames.conftest import play_out, two_humans

pytestmark = pytest.mark.django_db


def test_an_open_table_is_rated_unless_the_host_says_no_and_a_campaigns_is_not(
    player, other_player, campaign
):
    open_table = services.tavern_create(
        by=player, game="rso", campaign=None,
        seats=[services.SeatSpec(kind="host"), services.SeatSpec()],
    )  # fmt: skip
    assert open_table.rated
    in_campaign = services.tavern_create(
        by=player, game="rso", campaign=campaign,
        seats=[services.SeatSpec(kind="host"), services.SeatSpec()],
    )  # fmt: skip
    assert not in_campaign.rated
    practice = services.tavern_create(
        by=player, game="rso", campaign=None, practice=True,
        seats=[services.SeatSpec(kind="host"), services.SeatSpec()],
    )  # fmt: skip
    assert not practice.rated
    with pytest.raises(ValidationError) as refused:
        services.tavern_create(
            by=player, game="rso", campaign=None, practice=True, rated=True,
            seats=[services.SeatSpec(kind="host"), services.SeatSpec()],
        )  # fmt: skip
    assert refused.value.message_dict == {"rated": ["Practice tables are never rated."]}


def test_a_finished_rated_game_moves_both_ratings_once(player, other_player):
    table = two_humans("dbs", player, other_player)
    assert table.rated
    state = play_out(table, {0: player, 1: other_player}, seed=3)
    engine = get_engine("dbs")
    returns = engine.returns(state)
    table.refresh_from_db()
    change = {c.rating.user_id: c for c in RatingChange.objects.select_related("rating")}
    model = PlackettLuce()
    if returns[0] == returns[1]:
        expected = model.rate([[model.rating()], [model.rating()]], ranks=[0, 0])
    else:
        expected = model.rate(
            [[model.rating()], [model.rating()]], ranks=[0 if r > 0 else 1 for r in returns]
        )
    for seat, user in enumerate((player, other_player)):
        row = Rating.objects.get(user=user, game="dbs", campaign__isnull=True)
        assert (row.mu, row.games) == (pytest.approx(expected[seat][0].mu), 1)
        assert change[user.pk].url == f"/tavern/tables/{table.pk}/"
    # the end seen again (a retried request, a task run twice) changes nothing
    before = list(Rating.objects.order_by("pk").values_list("mu", "sigma", "games"))
    assert rate_table(table, state) is False
    assert list(Rating.objects.order_by("pk").values_list("mu", "sigma", "games")) == before
    assert RatedResult.objects.filter(key=result_key(table)).count() == 1
    assert RatingChange.objects.count() == 2


def test_a_resignation_counts_as_a_loss(player, other_player):
    table = two_humans("rso", player, other_player)
    services.tavern_resign(table_id=table.pk, by=other_player)
    won = Rating.objects.get(user=player, game="rso")
    lost = Rating.objects.get(user=other_player, game="rso")
    assert won.mu > 25 > lost.mu
    assert RatingChange.objects.get(rating=lost).outcome == "lost"
    # resigning again is refused (the game is over) and counts nothing more
    with pytest.raises(ValidationError):
        services.tavern_resign(table_id=table.pk, by=player)
    assert Rating.objects.get(pk=lost.pk).games == 1


def test_a_resigned_seat_loses_even_when_the_bot_playing_on_for_it_wins(player, other_player, gm):
    """Three seats: the random bot plays on for her after she resigns; her seat still places
    last (issue 39: "a resigned ... rated game counts as a loss")."""
    table = services.tavern_create(
        by=player, game="spirit_war", campaign=None,
        seats=[services.SeatSpec(kind="host"), services.SeatSpec(), services.SeatSpec()],
    )  # fmt: skip
    services.tavern_join(table_id=table.pk, by=other_player, index=1)
    services.tavern_join(table_id=table.pk, by=gm, index=2)
    services.tavern_start(table_id=table.pk, by=player)
    services.tavern_resign(table_id=table.pk, by=gm)
    table.refresh_from_db()
    assert not RatingChange.objects.exists()  # the game goes on
    rate_table(table, _finished_war(table, winner=2))
    assert RatingChange.objects.get(rating__user=gm).outcome == "lost"
    assert RatingChange.objects.get(rating__user=gm).place == 3
    assert Rating.objects.get(user=gm).mu < 25


def _finished_war(table, winner: int):
    engine = get_engine("spirit_war")
    state = engine.from_json(table.state)
    state["phase"] = "over"
    others = [s for s in range(3) if s != winner]
    state["result"] = {
        "winners": [winner],
        "outcome": "spirit_king",
        "text": "",
        "eliminated_order": others,
    }
    return state


def test_a_campaigns_ratings_are_apart_from_the_sites(player, other_player, campaign):
    table = two_humans("rso", player, other_player, campaign=campaign, rated=True)
    services.tavern_resign(table_id=table.pk, by=other_player)
    assert Rating.objects.filter(campaign=campaign).count() == 2
    assert not Rating.objects.filter(campaign__isnull=True).exists()
    site = two_humans("rso", player, other_player)
    services.tavern_resign(table_id=site.pk, by=player)
    in_campaign = Rating.objects.get(user=player, campaign=campaign)
    at_site = Rating.objects.get(user=player, campaign__isnull=True)
    assert in_campaign.mu > 25 > at_site.mu
    assert (in_campaign.games, at_site.games) == (1, 1)


def test_an_unrated_or_abandoned_table_moves_nothing(player, other_player, campaign):
    table = two_humans("rso", player, other_player, campaign=campaign)
    services.tavern_resign(table_id=table.pk, by=other_player)
    abandoned = two_humans("rso", player, other_player)
    services.tavern_abandon(table_id=abandoned.pk, by=player)
    assert not Rating.objects.exists()
    assert not RatedResult.objects.exists()


def test_a_rematch_is_rated_as_its_table_was(player, other_player):
    table = two_humans("rso", player, other_player, rated=False)
    services.tavern_resign(table_id=table.pk, by=other_player)
    rematch, _ = services.tavern_rematch(table_id=table.pk, by=player)
    assert rematch.rated is False


def test_a_campaign_backup_keeps_its_ratings_naming_the_copys_tables(
    player, other_player, campaign
):
    from config.backup import export_campaign, import_campaign
    from minigames.models import TavernTable

    table = two_humans("rso", player, other_player, campaign=campaign, rated=True)
    services.tavern_resign(table_id=table.pk, by=other_player)
    copy = import_campaign(export_campaign(campaign.pk))
    copied = TavernTable.objects.get(campaign=copy)
    result = RatedResult.objects.get(campaign=copy)
    assert result.key == result_key(copied) != result_key(table)
    changes = RatingChange.objects.filter(result=result)
    assert {c.url for c in changes} == {f"/tavern/tables/{copied.pk}/"}
    assert sorted(Rating.objects.filter(campaign=copy).values_list("user__username", "games")) == [
        (player.username, 1),
        (other_player.username, 1),
    ]


def test_a_four_seat_raigo_table_rates_the_seats_facing_each_other_as_a_team(
    player, other_player, gm
):
    """Rulebook, "Player setup" 10: at four players the seats facing each other (0 and 2, 1
    and 3) are one team; the team's players move together, the bot's rating with its team."""
    table = services.tavern_create(
        by=player, game="raigo", campaign=None,
        seats=[services.SeatSpec(kind="host"), services.SeatSpec(), services.SeatSpec(),
               services.SeatSpec(kind="bot", strength="heuristic")],
    )  # fmt: skip
    services.tavern_join(table_id=table.pk, by=other_player, index=1)
    services.tavern_join(table_id=table.pk, by=gm, index=2)
    services.tavern_start(table_id=table.pk, by=player)
    table.refresh_from_db()
    engine = get_engine("raigo")
    state = engine.from_json(table.state)
    state["over"] = True
    state["result"] = {
        "winners": [1, 3],
        "text": "",
        "sides": [
            {"seats": [0, 2], "balls": 3, "inner_tokens": 2, "out": False},
            {"seats": [1, 3], "balls": 6, "inner_tokens": 5, "out": False},
        ],
    }
    assert rate_table(table, state)
    model = PlackettLuce()
    fresh = [[model.rating(), model.rating()], [model.rating(), model.rating()]]
    [[p0, p2], [p1, p3]] = model.rate(fresh, ranks=[1, 0])
    got = {(r.user_id, r.bot): r.mu for r in Rating.objects.filter(game="raigo", campaign=None)}
    assert got[(player.pk, "")] == pytest.approx(p0.mu)
    assert got[(gm.pk, "")] == pytest.approx(p2.mu)
    assert got[(other_player.pk, "")] == pytest.approx(p1.mu)
    assert got[(None, "heuristic")] == pytest.approx(p3.mu)
    outcomes = {c.rating.user_id: c.outcome for c in RatingChange.objects.select_related("rating")}
    assert outcomes[player.pk] == outcomes[gm.pk] == "lost"
    assert outcomes[other_player.pk] == "won"


def test_a_deleted_players_seat_rates_nobody_not_the_bot_that_finished_it(player, other_player, gm):
    table = services.tavern_create(
        by=player, game="spirit_war", campaign=None,
        seats=[services.SeatSpec(kind="host"), services.SeatSpec(), services.SeatSpec()],
    )  # fmt: skip
    services.tavern_join(table_id=table.pk, by=other_player, index=1)
    services.tavern_join(table_id=table.pk, by=gm, index=2)
    services.tavern_start(table_id=table.pk, by=player)
    gm.delete()  # her seat resigns; the random bot plays it on
    table.refresh_from_db()
    assert rate_table(table, _finished_war(table, winner=2))
    assert not Rating.objects.filter(bot="random").exists()
    assert sorted(Rating.objects.values_list("user_id", "games")) == sorted(
        [(player.pk, 1), (other_player.pk, 1)]
    )
