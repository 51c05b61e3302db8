"""The starter set as data and the card vocabulary (issue 13 "Card sets as data"; the card
kinds are rulebook §五, RULES lines 30-36)."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from minigames.engines.dbs import (
    CardSetError,
    describe_card,
    load_card_set,
    starter_card_set,
    validate_card,
    validate_card_set,
)


def test_the_starter_set_is_valid_and_big_enough():
    cards = starter_card_set()
    assert validate_card_set(cards.values()) == []
    kinds = Counter(c["kind"] for c in cards.values())
    assert kinds["character"] >= 6
    assert kinds["battle"] >= 5 * 6
    for kind in ("buff", "trap", "instant", "constant"):
        assert kinds[kind] >= 4, kind
    # every character has Spellcards at each Level 1-5 and both status limits exist
    for number, char in cards.items():
        if char["kind"] == "character":
            own = [c for c in cards.values() if c.get("character") == number]
            assert sorted(c["level"] for c in own) == [1, 2, 3, 4, 5]
            assert {c.get("limit", "none") for c in own} == {"none", "center", "hyper"}


def test_every_card_reads_in_words():
    cards = starter_card_set()
    for card in cards.values():
        text = describe_card(card, cards)
        assert card["name"] in text
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), text  # no snake_case identifiers
        assert "{" not in text and "None" not in text


def test_a_card_reads_its_numbers():
    text = describe_card(starter_card_set()["DBS-105"], starter_card_set())
    assert "Level 5" in text and "attack 3800" in text and "costs 4 SP" in text
    assert "Hyper status" in text and "Hakurei Reimu" in text


GOOD = {
    "number": "GM-001",
    "name": "Test Shot",
    "kind": "battle",
    "character": "DBS-001",
    "cost": 1,
    "attack": 1200,
    "level": 2,
    "on_hit": [{"do": "damage", "amount": 200}],
}


def test_a_good_gm_card_passes_and_joins_the_set():
    assert validate_card(GOOD) == []
    cards = load_card_set([GOOD])
    assert cards["GM-001"]["attack"] == 1200
    assert "DBS-001" in cards


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"number": "gm1"}, "number:"),
        ({"name": ""}, "name:"),
        ({"kind": "monster"}, "kind:"),
        ({"attack": -5}, "attack:"),
        ({"level": 6}, "level:"),
        ({"cost": 11}, "cost:"),
        ({"limit": "boss"}, "limit:"),
        ({"power": 3}, "power:"),
        ({"on_hit": [{"do": "explode", "amount": 1}]}, "on_hit[0].do:"),
        ({"on_hit": [{"do": "damage"}]}, "on_hit[0].amount:"),
        ({"on_hit": [{"do": "damage", "amount": 5, "target": "everyone"}]}, "on_hit[0].target:"),
        ({"on_hit": [{"do": "negate"}]}, "on_hit[0].do:"),
        ({"requires": [{"check": "moon_is_full", "amount": 1}]}, "requires[0].check:"),
        ({"requires": [{"check": "lp_below", "amount": 5, "whose": "gm"}]}, "requires[0].whose:"),
        ({"character": "Reimu"}, "character:"),
        # a list or a mapping where a word belongs: refused in words, never a TypeError
        ({"on_hit": [{"do": ["damage"], "amount": 1}]}, "on_hit[0].do:"),
        ({"on_hit": [{"do": {"damage": 1}}]}, "on_hit[0].do:"),
        ({"requires": [{"check": ["lp_below"], "amount": 1}]}, "requires[0].check:"),
        ({"requires": [{"check": {"lp_below": 1}}]}, "requires[0].check:"),
    ],
)
def test_a_broken_card_names_the_field(change, field):
    errors = validate_card({**GOOD, **change})
    assert errors, change
    assert any(e.startswith(field) for e in errors), errors


def lp(check, amount, whose="self"):
    return {"check": check, "amount": amount, "whose": whose}


@pytest.mark.parametrize(
    ("requires", "error"),
    [
        (
            [lp("lp_below", 0)],
            "requires[0].amount: your LP below 0 means below 0, which ends the game by Knock "
            "Out, so this card could never be played.",
        ),
        (
            [lp("chain_count_at_least", 1), lp("lp_below", -500, "opponent")],
            "requires[1].amount: your opponent's LP below -500 means below 0",
        ),
        (
            [lp("lp_below", 3000), lp("lp_at_least", 3000)],
            "requires[1].amount: your LP cannot be at least 3000 and below 3000 at once, so "
            "this card could never be played.",
        ),
        (
            [lp("hand_at_most", 0)],
            "requires[0].amount: the card is in your hand while you play it, so your hand "
            "never holds at most 0 cards and this card could never be played.",
        ),
    ],
    ids=["knocked-out", "opponent-knocked-out", "lp-between-nothing", "empty-hand"],
)
def test_a_card_whose_needs_can_never_hold_is_refused_naming_the_field(requires, error):
    """Rulebook 二 B: LP below 0 is a Knock Out, which ends the game at once (RULES line 15), so
    no card can be played then; nor with LP both below and at least one number, nor from a
    hand that holds nothing while it holds the card."""
    assert error in " ".join(validate_card({**GOOD, "requires": requires}))
    with pytest.raises(CardSetError):
        load_card_set([{**GOOD, "requires": requires}])


def test_needs_that_can_hold_are_accepted():
    """LP at exactly 0 goes on (no K.O.); a Trap is sprung from the Item Area, so an empty
    hand can need it; the two LP checks of different players do not clash."""
    assert validate_card({**GOOD, "requires": [lp("lp_below", 1)]}) == []
    assert (
        validate_card({**GOOD, "requires": [lp("lp_below", 3000), lp("lp_at_least", 2000)]}) == []
    )
    assert (
        validate_card(
            {**GOOD, "requires": [lp("lp_below", 3000, "opponent"), lp("lp_at_least", 5000)]}
        )
        == []
    )
    trap = {
        "number": "GM-004",
        "name": "Empty-Handed Ward",
        "kind": "trap",
        "cost": 1,
        "requires": [lp("hand_at_most", 0)],
        "effects": [{"do": "boost", "amount": 500}],
    }
    assert validate_card(trap) == []


def test_a_missing_required_field_is_named():
    card = dict(GOOD)
    del card["attack"]
    assert "attack: is required for a Battle Spellcard." in validate_card(card)


def test_constant_and_character_fields_are_checked_too():
    constant = {
        "number": "GM-002",
        "name": "Bad Lantern",
        "kind": "constant",
        "cost": 1,
        "triggers": [{"at": "midnight", "effects": [{"do": "heal", "amount": 100}]}],
        "statics": [{"static": "attack_bonus", "amount": 100, "when": "sometimes"}],
    }
    errors = validate_card(constant)
    assert any(e.startswith("triggers[0].at:") for e in errors)
    assert any(e.startswith("statics[0].when:") for e in errors)
    character = {
        "number": "GM-003",
        "name": "Cirno",
        "kind": "character",
        "hyper": {"statics": [{"static": "win_when"}], "moves": []},
    }
    errors = validate_card(character)
    assert any(e.startswith("hyper.statics[0].if:") for e in errors)
    assert any(e.startswith("hyper.moves:") for e in errors)
    assert validate_card("not a card") == ["card: must be a mapping of fields."]


def test_the_set_refuses_a_bad_card_with_every_error():
    with pytest.raises(CardSetError) as caught:
        load_card_set([{**GOOD, "level": 9}, {**GOOD, "number": "GM-009", "character": "DBS-999"}])
    assert any(e.startswith("GM-001: level:") for e in caught.value.errors)
    with pytest.raises(CardSetError) as caught:
        load_card_set([{**GOOD, "character": "DBS-999"}])
    assert caught.value.errors == [
        "GM-001: character: DBS-999 is not a character card in this set."
    ]


def test_two_extra_cards_with_one_number_are_refused():
    with pytest.raises(CardSetError) as caught:
        load_card_set([GOOD, GOOD])
    assert "GM-001: number: is used by two cards." in caught.value.errors
