"""Deck rules (rulebook §三, RULES lines 19-20: 40-50 cards, at most 3 of one number, at
least one character), the preset decks, and decks as text."""

from __future__ import annotations

from collections import Counter

from minigames.engines.dbs import (
    deck_from_text,
    deck_to_text,
    preset_deck,
    preset_decks,
    starter_card_set,
    validate_deck,
)

CARDS = starter_card_set()


def test_four_distinct_preset_decks_are_legal():
    decks = preset_decks()
    assert len(decks) == 4
    assert len({tuple(sorted(d["cards"])) for d in decks}) == 4
    for deck in decks:
        assert validate_deck(deck["cards"], CARDS) == [], deck["name"]
        assert 40 <= len(deck["cards"]) <= 50
        assert deck["name"] and deck["about"]


def test_preset_decks_use_every_character_of_the_set():
    used = {n for d in preset_decks() for n in d["cards"] if CARDS[n]["kind"] == "character"}
    assert used == {n for n, c in CARDS.items() if c["kind"] == "character"}


def test_a_deck_breaking_every_rule_lists_them_all():
    """39 cards, four copies of one number, no character, a number that does not exist."""
    spells = [n for n, c in CARDS.items() if c["kind"] != "character"]
    deck = ["DBS-101"] * 4 + ["DBS-999"]
    deck += [n for n in spells if n != "DBS-101" for _ in range(2)][: 39 - len(deck)]
    assert len(deck) == 39
    errors = validate_deck(deck, CARDS)
    assert errors == [
        "A deck needs at least 40 cards; this one has 39.",
        "There is no card numbered DBS-999 in this card set.",
        "At most 3 cards of the same number are allowed; "
        "Paper Charm Flurry (DBS-101) is in it 4 times.",
        "A deck needs at least one character card.",
    ]


def test_fifty_cards_pass_and_fifty_one_do_not():
    deck = preset_deck("shrine-and-stars")
    fillers = [n for n, c in CARDS.items() if c["kind"] != "character" and n not in deck]
    fifty = deck + [n for n in fillers for _ in range(2)][: 50 - len(deck)]
    assert len(fifty) == 50 and validate_deck(fifty, CARDS) == []
    extra = next(n for n in fillers if Counter(fifty)[n] < 3)
    assert validate_deck([*fifty, extra], CARDS) == [
        "A deck holds at most 50 cards; this one has 51."
    ]


def test_exactly_three_copies_are_allowed():
    deck = preset_deck("scarlet-household")
    assert Counter(deck)["DBS-126"] == 3
    assert validate_deck(deck, CARDS) == []
    assert len(validate_deck([*deck, "DBS-126"], CARDS)) == 1


def test_copies_are_counted_by_number_not_by_name():
    """RULES line 20 (the Chinese text: 同编号, "the same number"): DBS counts copies by card
    number, unlike RSO (by name). A GM card named like a starter card but numbered apart is
    another card, as a reprint with new numbers and stats is in print."""
    twin = {**CARDS["DBS-126"], "number": "GM-126", "name": " " + CARDS["DBS-126"]["name"].upper()}
    cards = {**CARDS, "GM-126": twin}
    deck = preset_deck("scarlet-household")
    deck = [*deck[:-3], "GM-126", "GM-126", "GM-126"]
    assert Counter(deck)["DBS-126"] == 3
    assert validate_deck(deck, cards) == []


def test_deck_text_round_trip():
    deck = preset_deck("witch-and-blade")
    text = deck_to_text(deck, CARDS)
    assert text.splitlines()[0] == "3 DBS-002 Kirisame Marisa"
    cards, errors = deck_from_text(text, CARDS)
    assert errors == []
    assert sorted(cards) == sorted(deck)


def test_deck_text_accepts_x_counts_comments_and_lowercase():
    cards, errors = deck_from_text("# my deck\n3x dbs-001\n\n2 DBS-101  # charms\n", CARDS)
    assert errors == []
    assert cards == ["DBS-001"] * 3 + ["DBS-101"] * 2


def test_deck_text_errors_name_the_line():
    cards, errors = deck_from_text("3 DBS-001\nthree DBS-101\n2 DBS-777\n0 DBS-102\n", CARDS)
    assert cards == ["DBS-001"] * 3
    assert errors == [
        "Line 2: write the number of copies, then the card number.",
        "Line 3: there is no card numbered DBS-777.",
        "Line 4: the number of copies must be from 1 to 50.",
    ]
