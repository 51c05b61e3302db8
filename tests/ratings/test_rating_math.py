"""The rating math (tables/ratings/services.py) against OpenSkill's own numbers, and the
placings each game's rules give (minigames/rated.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from minigames.rated import placings
from tables.ratings.models import Rating, RatingChange
from tables.ratings.scale import SCALE, shown
from tables.ratings.services import Player, Team, rate_result

pytestmark = pytest.mark.django_db


def _rating(game: str, user=None, bot: str = "", campaign=None) -> Rating:
    return Rating.objects.get(game=game, user=user, bot=bot, campaign=campaign)


def test_a_two_player_game_moves_both_as_openskill_does(player, other_player):
    counted = rate_result(
        key="test:1",
        game="rso",
        campaign_id=None,
        teams=[
            Team(players=(Player(user_id=player.pk),), rank=0),
            Team(players=(Player(user_id=other_player.pk),), rank=1),
        ],
    )
    assert counted
    model = PlackettLuce()
    [[a], [b]] = model.rate([[model.rating()], [model.rating()]], ranks=[0, 1])
    # OpenSkill's Plackett-Luce from 25 and 25/3: 27.635389493140497 and 22.364610506859503
    assert a.mu == pytest.approx(27.635389493140497)
    winner, loser = _rating("rso", user=player), _rating("rso", user=other_player)
    assert (winner.mu, winner.sigma) == pytest.approx((a.mu, a.sigma))
    assert (loser.mu, loser.sigma) == pytest.approx((b.mu, b.sigma))
    # shown on the familiar scale: a first win from 1500 is worth SCALE * 2.635 points
    assert shown(winner.mu) == 1500 + round(SCALE * (a.mu - 25)) == 1571
    assert shown(loser.mu) == 1429
    history = RatingChange.objects.get(rating=winner)
    assert (history.outcome, history.place, history.teams) == ("won", 1, 2)
    assert RatingChange.objects.get(rating=loser).outcome == "lost"


def test_a_raigo_team_game_moves_each_team_as_openskill_does(player, other_player, gm, outsider):
    """RAIGO at four: seats 0 and 2 against 1 and 3 (rulebook, "Player setup" 10)."""
    rate_result(
        key="test:2",
        game="raigo",
        campaign_id=None,
        teams=[
            Team(players=(Player(user_id=player.pk), Player(user_id=gm.pk)), rank=1),
            Team(players=(Player(user_id=other_player.pk), Player(bot="search")), rank=0),
        ],
    )
    model = PlackettLuce()
    after = model.rate(
        [[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[1, 0]
    )
    for user, rated in ((player, after[0][0]), (gm, after[0][1]), (other_player, after[1][0])):
        row = _rating("raigo", user=user)
        assert (row.mu, row.sigma) == pytest.approx((rated.mu, rated.sigma))
    bot = _rating("raigo", bot="search")
    assert (bot.mu, bot.sigma) == pytest.approx((after[1][1].mu, after[1][1].sigma))
    assert bot.mu > 25 > _rating("raigo", user=player).mu


def test_a_later_game_starts_from_the_rating_the_first_left(player, other_player):
    teams = [
        Team(players=(Player(user_id=player.pk),), rank=0),
        Team(players=(Player(user_id=other_player.pk),), rank=1),
    ]
    rate_result(key="test:a", game="dbs", campaign_id=None, teams=teams)
    rate_result(key="test:b", game="dbs", campaign_id=None, teams=teams)
    model = PlackettLuce()
    [[a], [b]] = model.rate([[model.rating()], [model.rating()]], ranks=[0, 1])
    [[a], [b]] = model.rate([[a], [b]], ranks=[0, 1])
    row = _rating("dbs", user=player)
    assert (row.mu, row.sigma, row.games) == pytest.approx((a.mu, a.sigma, 2))


def test_a_result_counts_once(player, other_player):
    teams = [
        Team(players=(Player(user_id=player.pk),), rank=0),
        Team(players=(Player(user_id=other_player.pk),), rank=1),
    ]
    assert rate_result(key="test:once", game="rso", campaign_id=None, teams=teams)
    first = _rating("rso", user=player).mu
    assert not rate_result(key="test:once", game="rso", campaign_id=None, teams=teams)
    assert _rating("rso", user=player).mu == first
    assert RatingChange.objects.count() == 2


def test_a_bot_at_the_table_twice_is_not_rated_by_playing_itself(player):
    rate_result(
        key="test:twice",
        game="spirit_war",
        campaign_id=None,
        teams=[
            Team(players=(Player(bot="random"),), rank=0),
            Team(players=(Player(user_id=player.pk),), rank=1),
            Team(players=(Player(bot="random"),), rank=2),
        ],
    )
    bot = _rating("spirit_war", bot="random")
    assert (bot.mu, bot.games) == (25.0, 0)
    assert _rating("spirit_war", user=player).games == 1


def test_a_player_is_a_user_or_a_bot():
    with pytest.raises(ValueError):
        Player()
    with pytest.raises(ValueError):
        Player(user_id=1, bot="random")
    with pytest.raises(ValueError):
        Player(bot="random", gone=True)
    with pytest.raises(ValueError, match="at least two teams"):
        rate_result(key="x", game="rso", campaign_id=None, teams=[])


# --------------------------------------------------------------------------- placings


def _raigo_over(sides: list[dict], winners: list[int]) -> dict:
    """A finished RAIGO state as far as placings read it (the engine's result)."""
    from minigames.engines.raigo.engine import ENGINE

    state = ENGINE.new_game(seats=4, seed=1)
    state["over"] = True
    state["result"] = {"winners": winners, "sides": sides, "text": ""}
    return state


def test_raigo_four_players_place_as_two_teams():
    """Rulebook "Player setup" 10: the players facing each other (seats 0 and 2, 1 and 3) are
    one team; "End of the game": the team with the most Yang balls in total wins."""
    state = _raigo_over(
        [
            {"seats": [0, 2], "balls": 5, "inner_tokens": 4, "out": False},
            {"seats": [1, 3], "balls": 7, "inner_tokens": 9, "out": False},
        ],
        [1, 3],
    )
    assert placings("raigo", state, 4) == [([0, 2], 1), ([1, 3], 0)]


def test_raigo_ties_on_balls_go_to_fewer_inner_tokens_and_out_is_last():
    """ "When the number of Yang balls are in a tie, the player with the least number of
    Tokens ... wins"; a side with no Yang ball left is out and loses."""
    from minigames.engines.raigo.engine import ENGINE

    state = ENGINE.new_game(seats=3, seed=1)
    state["over"] = True
    state["result"] = {
        "winners": [1],
        "text": "",
        "sides": [
            {"seats": [0], "balls": 4, "inner_tokens": 3, "out": False},
            {"seats": [1], "balls": 4, "inner_tokens": 2, "out": False},
            {"seats": [2], "balls": 9, "inner_tokens": 0, "out": True},
        ],
    }
    assert placings("raigo", state, 3) == [([0], 1), ([1], 0), ([2], 2)]


def test_a_resigned_seat_places_its_team_last():
    state = _raigo_over(
        [
            {"seats": [0, 2], "balls": 9, "inner_tokens": 0, "out": False},
            {"seats": [1, 3], "balls": 2, "inner_tokens": 0, "out": False},
        ],
        [0, 2],
    )
    # seat 2 resigned and the random bot played it on to a win: still her team's loss
    assert placings("raigo", state, 4, resigned=[2]) == [([0, 2], 1), ([1, 3], 0)]


def test_spirit_war_places_the_last_eliminated_best():
    from minigames.engines.spirit_war.engine import ENGINE

    state = ENGINE.new_game(seats=4, seed=1)
    state["phase"] = "over"
    state["result"] = {
        "winners": [2],
        "outcome": "spirit_king",
        "text": "",
        "eliminated_order": [0, 3, 1],
    }
    assert placings("spirit_war", state, 4) == [([0], 3), ([1], 1), ([2], 0), ([3], 2)]


def test_a_resignation_at_two_seats_places_the_winner_first():
    assert placings("rso", None, 2, resigned=[0], winners=[1]) == [([0], 1), ([1], 0)]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(min_value=0, max_value=3), min_size=2, max_size=6),
    st.data(),
)
def test_ranks_are_dense_and_resigned_sides_are_never_above_the_others(ranks_seed, data):
    """Whatever the order, ranks run 0..k without gaps, and a resigned side never places
    above a side that did not resign."""
    n = len(ranks_seed)
    winners = [i for i, r in enumerate(ranks_seed) if r == min(ranks_seed)]
    resigned = data.draw(st.lists(st.integers(min_value=0, max_value=n - 1), max_size=n - 1))
    placed = placings(
        "rso" if n == 2 else "spirit_war", None, n, resigned=resigned, winners=winners
    )
    ranks = [rank for _, rank in placed]
    assert sorted(set(ranks)) == list(range(max(ranks) + 1))
    gave_up = set(resigned)
    for side, rank in placed:
        for other, other_rank in placed:
            if set(side) & gave_up and not set(other) & gave_up:
                assert rank > other_rank
