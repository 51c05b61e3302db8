"""The bots' ratings: every strength has one, seeded by rated bot games (``rate_bots``)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from minigames.bot_ratings import pairings
from tables.ratings.models import RatedResult, Rating

pytestmark = pytest.mark.django_db


def test_every_pair_of_strengths_plays_in_turn_and_swaps_seats():
    assert pairings(6) == [
        ("random", "heuristic"),
        ("random", "search"),
        ("heuristic", "search"),
        ("heuristic", "random"),
        ("search", "random"),
        ("search", "heuristic"),
    ]


def test_rate_bots_rates_each_strength_and_a_run_counts_once():
    out = StringIO()
    call_command("rate_bots", game="rso", games=3, simulations=4, run="t", seed=5, stdout=out)
    bots = {r.bot: r for r in Rating.objects.filter(game="rso", campaign__isnull=True)}
    assert set(bots) == {"random", "heuristic", "search"}
    assert sum(r.games for r in bots.values()) == 6  # three games of two seats
    assert all(r.user_id is None for r in bots.values())
    assert RatedResult.objects.filter(key__startswith="bots:t:rso:").count() == 3
    text = out.getvalue()
    assert "Search bot: " in text and "Random bot: " in text
    # the same run again: played, counted nothing twice
    before = sorted(Rating.objects.values_list("bot", "mu", "games"))
    call_command("rate_bots", game="rso", games=3, simulations=4, run="t", seed=5, stdout=out)
    assert sorted(Rating.objects.values_list("bot", "mu", "games")) == before
    assert "(counted before)" in out.getvalue()


def test_rate_bots_refuses_bad_counts_in_words():
    with pytest.raises(CommandError, match="from 1 to 1000 games"):
        call_command("rate_bots", game="rso", games=0)
    with pytest.raises(CommandError, match="from 2 to 10,000 simulations"):
        call_command("rate_bots", game="rso", games=1, simulations=1)
