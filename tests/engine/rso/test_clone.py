"""The engine's two shortcuts on the playout path keep the rules' guarantees.

* :func:`minigames.engines.rso.state.clone` copies by hand only the containers it knows: no
  container outside ``SHARED_KEYS`` may be shared between a state and its clone, at any step of
  any game, or a move applied to the clone would change the position it came from.
* ``apply`` trusts a move only when it is the very action just listed for the very state
  (:mod:`westernroses.listed_moves`): an edited listed action, or one listed for another
  position, is checked in full and refused when illegal.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from minigames.engines.rso import ENGINE
from minigames.engines.rso.cards import shared_starter_set
from minigames.engines.rso.state import SHARED_KEYS, clone
from tests.engine.clones import cards_after_games, check_every_step
from westernroses.protocol import IllegalAction


@pytest.mark.parametrize("seed", range(6))
def test_a_clone_shares_nothing_that_moves_at_any_step(seed):
    assert check_every_step(ENGINE, clone, SHARED_KEYS, seed) > 20


def _position_with_a_choice(seed: int = 4) -> tuple[Any, int, list[dict[str, Any]]]:
    """A position where the seat to act has a move with a card in it."""
    rng = random.Random(seed)
    state = ENGINE.new_game(seats=2, seed=seed)
    while True:
        seat = rng.choice(ENGINE.waiting_on(state))
        actions = ENGINE.legal_actions(state, seat)
        if any("card" in a for a in actions):
            return state, seat, actions
        state, _ = ENGINE.apply(state, seat, rng.choice(actions))


def test_a_listed_move_edited_after_listing_is_checked_and_refused():
    state, seat, actions = _position_with_a_choice()
    action = next(a for a in actions if "card" in a)
    action["card"] = "rso-card-9999"  # no such card: the full check must see it
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, seat, action)


def test_a_move_listed_for_another_position_is_checked_in_full():
    state, seat, first = _position_with_a_choice()
    later, _ = ENGINE.apply(state, seat, first[0])
    # an action object from the earlier listing, applied to a later position: legal there only
    # if the full check finds it among that position's moves
    for action in first:
        if seat in ENGINE.waiting_on(later) and action in ENGINE.legal_actions(later, seat):
            continue
        with pytest.raises(IllegalAction):
            ENGINE.apply(later, seat, action)


def test_new_games_read_the_bundled_cards_and_never_change_them():
    before = {n: repr(c) for n, c in shared_starter_set().items()}
    assert cards_after_games(ENGINE, shared_starter_set) == before
