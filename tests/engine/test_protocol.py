"""The protocol's conformance checks (tests/engine/conformance.py) over the test-only game, and
proof that the checks can fail."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.conformance import assert_no_leak, play_random_game
from tests.games.duel import ENGINE, card_id
from westernroses.protocol import IllegalAction, event, event_visible


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**53 - 1))
def test_secret_duel_keeps_the_protocol(seed):
    final = play_random_game(ENGINE, seats=2, seed=seed)
    assert sum(final["won"]) == 3
    assert sorted(final["deck"] + [c for pair in final["played"] for c in pair]) == list(
        range(1, 10)
    )


def test_a_leaking_view_is_caught():
    class Leaky(type(ENGINE)):
        def view(self, state, seat):
            shown = super().view(state, seat)
            shown["other_hand"] = [card_id(v) for v in state["hands"][1 - seat]]
            return shown

    state = ENGINE.new_game(seats=2, seed=7)
    with pytest.raises(AssertionError, match="hidden"):
        assert_no_leak(Leaky(), state, 0)


def test_illegal_action_is_refused_and_changes_nothing():
    state = ENGINE.new_game(seats=2, seed=11)
    before = copy.deepcopy(state)
    not_held = next(v for v in range(1, 10) if v not in state["hands"][0])
    with pytest.raises(IllegalAction, match="cannot play"):
        ENGINE.apply(state, 0, {"type": "play", "card": not_held})
    assert state == before


def test_events_are_private_or_public():
    private = event("You draw a card.", type="draw", visible_to=[1])
    assert event_visible(private, 1)
    assert not event_visible(private, 0)
    assert not event_visible(private, None)
    assert event_visible(event("Somebody draws.", type="draw"), None)


def test_a_hidden_choice_told_in_an_event_is_caught():
    """The conformance test applies each of a seat's actions with one public face (a card
    laid face down, whichever) and compares what the other seat gets: a public event that
    names the card laid gives it away."""

    class Telling(type(ENGINE)):
        def apply(self, state, seat, action):
            new, events = super().apply(state, seat, action)
            odd = "an odd" if action["card"] % 2 else "an even"
            return new, [*events, event(f"Player {seat + 1} lays {odd} card.", type="tell")]

    with pytest.raises(AssertionError, match="can tell"):
        play_random_game(Telling(), seats=2, seed=3)


def test_a_public_face_that_names_the_card_escapes_nothing():
    """An engine that gives each card its own face promises nothing about it, and the check
    compares nothing: the stats say so (what the Secret Duel's real faces are compared by)."""
    from collections import Counter

    class Plain(type(ENGINE)):
        def public_action(self, state, seat, action):
            return dict(action)

    plain, real = Counter(), Counter()
    play_random_game(Plain(), seats=2, seed=3, stats=plain)
    play_random_game(ENGINE, seats=2, seed=3, stats=real)
    assert plain["compared"] == 0 and real["compared"] > 0
