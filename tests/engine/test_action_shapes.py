"""Each game's action shapes (``engine.action_shapes()``, westernroses/action_shapes.py) hold
every move its engine offers: over many random games of every game, each legal action of each
seat waited on fits its type's shape unchanged, and the same action with a key its type does
not declare is refused (tests/engine/conformance.py, ``check_shapes``). The table core checks
the shapes before the engine, so a shape that refused a legal move would make it unplayable.
The battle engine's moves are templates with choices to fill in: its random battles check the
actions played (tests/engine/battle/test_properties.py)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minigames.engines import dbs, raigo, rso, spirit_war
from tests.engine.conformance import play_random_game, play_shaped_game
from tests.games import bids, duel
from westernroses.action_shapes import ActionShape, Int, shapes

MANY = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(0, 2**40)


@MANY
@given(seed=SEEDS, seats=st.integers(raigo.ENGINE.min_seats, raigo.ENGINE.max_seats))
def test_raigo_moves_fit_their_shapes(seed, seats):
    assert raigo.ENGINE.is_terminal(play_shaped_game(raigo.ENGINE, seats=seats, seed=seed))


@MANY
@given(seed=SEEDS, seats=st.integers(spirit_war.ENGINE.min_seats, spirit_war.ENGINE.max_seats))
def test_spirit_war_moves_fit_their_shapes(seed, seats):
    """Six seats included: an attack's target is a seat, bounded by the most seats."""
    final = play_shaped_game(spirit_war.ENGINE, seats=seats, seed=seed)
    assert spirit_war.ENGINE.is_terminal(final)


RSO_DECKS = sorted(d["key"] for d in rso.preset_decks())


@MANY
@given(seed=SEEDS, decks=st.tuples(st.sampled_from(RSO_DECKS), st.sampled_from(RSO_DECKS)))
def test_rso_moves_fit_their_shapes(seed, decks):
    """Paying moves included: the hand cards they discard and the Supports they send away."""
    config = {"decks": list(decks)}
    assert rso.ENGINE.is_terminal(play_shaped_game(rso.ENGINE, seats=2, seed=seed, config=config))


DBS_DECKS = [d["cards"] for d in dbs.preset_decks()]


@MANY
@given(seed=SEEDS, first=st.sampled_from(DBS_DECKS), second=st.sampled_from(DBS_DECKS))
def test_dbs_moves_fit_their_shapes(seed, first, second):
    config = {"decks": [first, second]}
    assert dbs.ENGINE.is_terminal(play_shaped_game(dbs.ENGINE, seats=2, seed=seed, config=config))


@pytest.mark.parametrize("engine", [duel.ENGINE, bids.ENGINE], ids=["duel", "bids"])
@settings(max_examples=100, deadline=None)
@given(seed=SEEDS)
def test_test_games_moves_fit_their_shapes(engine, seed):
    assert engine.is_terminal(play_shaped_game(engine, seats=2, seed=seed))


def test_the_shapes_bound_by_the_games_own_numbers():
    """The bounds are the engines' data: a RAIGO seat below its four seats and a tower below
    its three (``board.ORDINALS``), a Spirit War target below its six seats, a Secret Duel
    card from 1 to 9."""
    raigo_chant = raigo.ENGINE.action_shapes()["chant"].fields
    assert (raigo_chant["seat"].maximum, raigo_chant["tower"].maximum) == (3, 2)
    assert raigo.ENGINE.action_shapes()["select"].fields["count"] == Int(1, 2)
    assert spirit_war.ENGINE.action_shapes()["attack"].fields["target"] == Int(0, 5)
    assert duel.ENGINE.action_shapes()["play"].fields["card"] == Int(1, 9)


class _Noting(type(duel.ENGINE)):
    """Secret Duel whose moves carry a note its shapes do not declare."""

    def legal_actions(self, state, seat):
        return [{**a, "note": "hi"} for a in super().legal_actions(state, seat)]

    def apply(self, state, seat, action):
        return super().apply(state, seat, {k: v for k, v in action.items() if k != "note"})


class _Narrow(type(duel.ENGINE)):
    """Secret Duel whose shapes take cards up to 5 only."""

    NARROW = shapes(ActionShape("play", {"card": Int(1, 5)}))

    def action_shapes(self):
        return self.NARROW


class _Fresh(type(duel.ENGINE)):
    """Secret Duel that builds its shapes anew on every call."""

    def action_shapes(self):
        return shapes(ActionShape("play", {"card": Int(1, 9)}))


@pytest.mark.parametrize(
    ("engine", "words"),
    [
        (_Noting(), "“note”: This action does not take this field"),
        (_Narrow(), "“card”: Give a whole number from 1 to 5"),
        (_Fresh(), "the same each call"),
    ],
    ids=["undeclared key", "too narrow", "new each call"],
)
def test_the_shape_check_catches_an_engine_its_shapes_do_not_hold(engine, words):
    """The check can fail: a legal move with a key no shape declares, a bound narrower than
    the engine's cards, shapes that are not one mapping are each caught by the conformance
    run every game's tests make."""
    with pytest.raises(AssertionError, match=words):
        play_random_game(engine, seats=2, seed=3)
