"""Spellcard deck limits, deck validation and battle-time deck state."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from westernroses.spellcards import Profession
from westernroses.spellcards.deck import (
    DeckEntry,
    DeckError,
    DeckLimits,
    DeckState,
    deck_limits,
    discard,
    draw,
    new_deck_state,
    shuffle_back,
    validate_deck,
)

P = Profession


@pytest.mark.parametrize(
    ("level", "profession", "grimoire", "cards", "kinds"),
    [
        # "15 plus an additional 5 cards per character level (20 for level 1, 25 for level 2)"
        # and "levelx4 different cards (4 different kinds at level 1, 8 at level 2)".
        (1, P.WITCH, False, 20, 4),
        (2, P.WITCH, False, 25, 8),
        (5, P.GUARDIAN, False, 40, 20),
        # Librarian level 1: "an additional 5 cards and 1 spell card kind".
        (1, P.LIBRARIAN, False, 25, 5),
        # Grimoire: "an additional 5 cards and one card type".
        (1, P.WITCH, True, 25, 5),
        # Both, stacked (project ruling: two separate sources).
        (1, P.LIBRARIAN, True, 30, 6),
        (3, P.LIBRARIAN, True, 40, 14),
    ],
)
def test_deck_limits(level: int, profession: P, grimoire: bool, cards: int, kinds: int) -> None:
    limits = deck_limits(level, profession, grimoire)
    assert (limits.max_cards, limits.max_kinds, limits.max_copies) == (cards, kinds, 5)
    json.dumps(limits.to_dict())


def test_deck_limits_explain_themselves() -> None:
    assert deck_limits(1, "librarian", True).reasons == (
        "Level 1: 20 cards, 4 kinds, 5 copies of a card",
        "Librarian: +5 cards, +1 kind",
        "Grimoire: +5 cards, +1 kind",
    )


def test_deck_limits_reject_bad_levels() -> None:
    with pytest.raises(ValueError):
        deck_limits(0, P.WITCH, False)
    with pytest.raises(ValueError):
        deck_limits(1, "pirate", False)


def test_a_legal_deck() -> None:
    entries = [DeckEntry(f"c{i}", 5) for i in range(4)]
    assert validate_deck(entries, deck_limits(1, P.WITCH, False)) == []
    # A deck may hold fewer cards than the limit.
    assert validate_deck([DeckEntry("c1", 1)], deck_limits(1, P.WITCH, False)) == []


def test_every_deck_problem_is_reported() -> None:
    limits = DeckLimits(max_cards=20, max_kinds=4, max_copies=5, reasons=("Level 1",))
    entries = [
        DeckEntry("a", 6, "Master Spark"),
        DeckEntry("b", 5),
        DeckEntry("c", 5),
        DeckEntry("d", 3),
        DeckEntry("d", 3),  # same card listed twice: 6 copies
        DeckEntry("e", 0, "Empty"),
    ]
    violations = validate_deck(entries, limits)
    assert [(v.code, v.card_id) for v in violations] == [
        ("invalid_copies", "e"),
        ("too_many_copies", "a"),
        ("too_many_copies", "d"),
        ("too_many_cards", None),
    ]
    assert violations[1].message == (
        "Master Spark: 6 copies, but a deck can only contain up to 5 of the same card."
    )
    assert violations[3].message == "22 cards, but this deck can hold only 20 (Level 1)."
    json.dumps([v.to_dict() for v in violations])


def test_too_many_kinds() -> None:
    entries = [DeckEntry(str(i), 1) for i in range(5)]
    (violation,) = validate_deck(entries, deck_limits(1, P.WITCH, False))
    assert violation.code == "too_many_kinds"
    assert violation.message.startswith("5 different cards, but this deck can contain only 4")


def test_losing_the_grimoire_five_copies_of_one_card_fit_both_limits() -> None:
    # "If you have five cards of the same type then you may remove those five cards from your
    # deck to fulfill both requirements" - 25 cards in 5 kinds back to 20 in 4.
    entries = [DeckEntry(str(i), 5) for i in range(5)]
    assert validate_deck(entries, deck_limits(1, P.WITCH, True)) == []
    assert len(validate_deck(entries, deck_limits(1, P.WITCH, False))) == 2
    assert validate_deck(entries[:4], deck_limits(1, P.WITCH, False)) == []


# --- battle-time state ------------------------------------------------------------------


def test_draw_discard_shuffle_back() -> None:
    rng = random.Random(1)
    state = new_deck_state([DeckEntry("a", 2), DeckEntry("b", 1)], rng)
    assert Counter(state.draw_pile) == Counter({"a": 2, "b": 1})
    result = draw(state, 2, rng)
    assert result.drawn == state.draw_pile[:2] and result.short == 0
    state = discard(result.state, result.drawn[0])
    assert len(state.hand) == 1 and state.discard == (result.drawn[0],)
    result = draw(state, 5)
    assert result.short == 4 and len(result.drawn) == 1 and result.state.draw_pile == ()
    state = shuffle_back(result.state, rng)
    assert state.discard == () and state.hand == result.state.hand
    assert len(state.draw_pile) == 1


def test_deck_errors() -> None:
    state = DeckState(draw_pile=("a",))
    with pytest.raises(DeckError):
        discard(state, "a")  # not in the hand
    with pytest.raises(DeckError):
        draw(state, -1)
    with pytest.raises(DeckError):
        DeckState.from_dict({"hand": [1]})


def test_state_json_round_trip() -> None:
    state = DeckState(("a", "b"), ("c",), ("a",))
    data = json.loads(json.dumps(state.to_dict()))
    assert DeckState.from_dict(data) == state


OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("draw"), st.integers(0, 7)),
        st.tuples(st.just("discard"), st.integers(0, 30)),
        st.tuples(st.just("shuffle_back"), st.just(0)),
        st.tuples(st.just("json"), st.just(0)),
    ),
    max_size=40,
)
DECKS = st.lists(
    st.builds(DeckEntry, st.sampled_from("abcdefgh"), st.integers(1, 5)), min_size=0, max_size=8
)


@settings(max_examples=200, deadline=None)
@given(entries=DECKS, operations=OPERATIONS, seed=st.integers(0, 2**32))
def test_deck_operations_never_lose_or_duplicate_cards(
    entries: list[DeckEntry], operations: list[tuple[str, int]], seed: int
) -> None:
    rng = random.Random(seed)
    state = new_deck_state(entries, rng)
    owned = Counter({e.card_id: 0 for e in entries})
    for entry in entries:
        owned[entry.card_id] += entry.copies
    owned = +owned
    assert state.cards() == owned
    for name, arg in operations:
        if name == "draw":
            before = state
            result = draw(state, arg, rng)
            state = result.state
            assert len(result.drawn) + result.short == arg
            assert result.drawn == before.draw_pile[: len(result.drawn)]
        elif name == "discard":
            if state.hand:
                card_id = state.hand[arg % len(state.hand)]
                state = discard(state, card_id)
                assert state.discard[-1] == card_id
        elif name == "shuffle_back":
            hand = state.hand
            state = shuffle_back(state, rng)
            assert state.discard == () and state.hand == hand
        else:
            state = DeckState.from_dict(json.loads(json.dumps(state.to_dict())))
        assert state.cards() == owned
