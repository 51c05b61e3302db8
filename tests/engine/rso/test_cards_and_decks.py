"""Card sets as data and the deck rules (rulebook rumbling-spell-orchestra-gameplay.txt,
"Game Preparation" lines 8-19; RULINGS.md "Spirit War, RSO, DBS")."""

from __future__ import annotations

import re

import pytest

from minigames.engines.rso import (
    ENGINE,
    CardSetError,
    card_lines,
    deck_from_text,
    deck_to_text,
    load_card_set,
    preset_deck,
    preset_decks,
    starter_card_set,
    validate_card,
    validate_deck,
)
from minigames.engines.rso.decks import character_levels

CARDS = starter_card_set()


def test_starter_set_has_eight_characters_and_every_kind_of_card():
    kinds = {(c["kind"], c.get("support")) for c in CARDS.values()}
    assert sum(1 for c in CARDS.values() if c["kind"] == "character") >= 8
    for kind in [
        ("spell", None),
        ("event", None),
        ("support", "leader"),
        ("support", "spell"),
        ("support", "scene"),
    ]:
        assert kind in kinds
    assert any(not c.get("requires") for c in CARDS.values() if c["kind"] != "character")
    assert any(len(c.get("requires") or {}) >= 2 for c in CARDS.values())  # Team cards


def test_every_starter_card_is_valid_and_reads_in_words():
    for number, card in CARDS.items():
        assert validate_card(card) == [], number
        lines = card_lines(card)
        assert lines
        for line in lines:
            assert not re.search(r"\b[a-z]+_[a-z_]+\b", line), line  # no vocabulary keys


@pytest.mark.parametrize("key", sorted(d["key"] for d in preset_decks()))
def test_every_preset_deck_is_legal(key):
    cards = preset_deck(key)
    assert validate_deck(cards, CARDS) == []
    assert len(cards) == 44


def test_the_four_preset_decks_are_distinct():
    decks = preset_decks()
    assert len(decks) == 4
    assert len({tuple(sorted(d["cards"])) for d in decks}) == 4


def test_character_levels_count_character_cards():
    """Line 11: four Reimu cards make a level 4 Reimu; 2 + 2 make level 2 of each."""
    assert character_levels(["RSO-001"] * 4, CARDS) == {"Reimu": 4}
    assert character_levels(["RSO-001", "RSO-001", "RSO-002", "RSO-002"], CARDS) == {
        "Reimu": 2,
        "Marisa": 2,
    }


def test_a_broken_deck_lists_every_broken_rule():
    """Lines 11-19: 4 characters, exactly 40 cards, 3 copies by name, character and level
    requirements, Team cards: every broken rule at once."""
    cards = (
        ["RSO-001"] * 3
        + ["RSO-002"] * 2  # five characters: Reimu 3, Marisa 2
        + ["RSO-101"] * 4  # four copies
        + ["RSO-131"]  # needs Remilia
        + ["RSO-202"]  # Team: needs Sakuya 2 and Remilia 2
        + ["RSO-301"] * 3
        + ["NOPE-1"]
    )
    errors = validate_deck(cards, CARDS)
    text = "\n".join(errors)
    assert "The card NOPE-1 is not in the card set." in errors
    assert "exactly 4 character cards; this one has 5" in text
    assert "exactly 40 Spell, Support and Event cards; this one has 9" in text
    assert "Amulet Scatter appears 4 times" in text
    assert "Crimson Fang Barrage needs Remilia level 1" in text
    assert "Team card Midnight Vow of the Mansion needs Sakuya level 2 and Remilia level 2" in text
    assert len(errors) == 6


def test_level_requirement():
    """Line 15: Level 3 Reimu and Level 1 Yukari cannot use a Yukari level 2 card; here a
    level 1 Marisa cannot use Comet Over the Forest (Marisa level 2)."""
    deck = preset_deck("grand-library")
    broken = [*deck[:-1], "RSO-113"]
    assert validate_deck(broken, CARDS) == [
        "The card Comet Over the Forest needs Marisa level 2; the characters give Alice level 1, "
        "Marisa level 1, Patchouli level 2."
    ]


def test_general_cards_need_no_character_and_team_cards_need_all():
    """Line 17: General cards are usable by anyone; line 19: Team cards need every named
    character (Three-Way Grimoire: Marisa, Alice and Patchouli)."""
    library = preset_deck("grand-library")
    assert "RSO-204" in library and validate_deck(library, CARDS) == []
    scarlet = preset_deck("scarlet-household")
    swapped = [c for c in scarlet if c != "RSO-303"] + ["RSO-204"] * 3
    errors = validate_deck(swapped, CARDS)
    assert len(errors) == 1 and "Team card Three-Way Grimoire" in errors[0]


def test_copies_are_counted_by_name():
    """Line 15: two cards with the same name are copies even with other effects."""
    twin = dict(CARDS["RSO-101"], number="GM-101", hv=5)
    cards = load_card_set([twin])
    deck = preset_deck("shrine-and-star")
    deck = [c for c in deck if c != "RSO-308"] + ["GM-101"] * 3
    errors = validate_deck(deck, cards)
    assert errors == ["At most 3 copies of a card by name: Amulet Scatter appears 6 times."]


def test_copies_are_counted_by_name_whatever_its_case_and_spaces():
    """Line 15: "'Copies' are determined by the name of the card": "Amulet Scatter" and
    " amulet  SCATTER " name one card, so three of each are six copies."""
    twin = dict(CARDS["RSO-101"], number="GM-101", name=" amulet  SCATTER ")
    cards = load_card_set([twin])
    deck = preset_deck("shrine-and-star")
    deck = [c for c in deck if c != "RSO-308"] + ["GM-101"] * 3
    errors = validate_deck(deck, cards)
    assert errors == [
        "At most 3 copies of a card by name: Amulet Scatter appears 6 times "
        "(also written “amulet SCATTER”)."
    ]
    numbers, _ = deck_from_text("3  AMULET scatter \n", cards)
    assert numbers == ["RSO-101"] * 3


def test_deck_text_round_trip_and_errors():
    deck = preset_deck("netherworld-garden")
    text = deck_to_text(deck, CARDS, "Netherworld Garden")
    assert "2 Youmu Konpaku [RSO-006]" in text
    numbers, errors = deck_from_text(text, CARDS)
    assert errors == [] and sorted(numbers) == sorted(deck)
    numbers, errors = deck_from_text(
        "3 amulet scatter\n2 RSO-102\nthree Barrier\n1 Nonsense", CARDS
    )
    assert numbers == ["RSO-101"] * 3 + ["RSO-102"] * 2
    assert errors == [
        "Line 3 should read like '3 Amulet Scatter': 'three Barrier'.",
        "Line 4: no card is called 'Nonsense'.",
    ]


def good_spell(**changes):
    card = {
        "number": "GM-1",
        "name": "Test Shot",
        "kind": "spell",
        "cost": 1,
        "shot": "spread",
        "av": 2,
        "iv": 2,
        "hv": 3,
    }
    card.update(changes)
    return card


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"shot": "laser"}, "shot: must be one of spread, concentration, normal"),
        ({"av": "big"}, "av: must be a whole number"),
        ({"basic": {"faith": 0}}, "basic.faith: must be between 1 and 9"),
        ({"basic": {"homing": 1}}, "basic.homing: unknown basic ability"),
        ({"requires": {"Reimu": 5}}, "requires.Reimu: must be between 1 and 4"),
        ({"battle_cost": [{"mana": 1}]}, "battle_cost[0]: unknown cost 'mana'"),
        ({"activate_cost": [{"hand": 3}]}, "activate_cost[0].hand: must be between 1 and 2"),
        ({"colour": "red"}, "colour: is not a field of a spell card"),
        (
            {
                "abilities": [
                    {"kind": "special", "phase": "end", "effects": [{"do": "draw", "amount": 1}]}
                ]
            },
            "abilities[0].phase: must be one of replenish, battle, preparation",
        ),
        (
            {"abilities": [{"kind": "trigger", "when": "hit", "effects": [{"do": "explode"}]}]},
            "abilities[0].effects[0].do: unknown effect 'explode'",
        ),
        (
            {
                "abilities": [
                    {
                        "kind": "special",
                        "phase": "battle",
                        "target": "own_battle_spell",
                        "effects": [{"do": "modify", "stat": "ev", "amount": 1}],
                    }
                ]
            },
            "abilities[0].effects[0]: modify needs a leader target, not own_battle_spell",
        ),
        (
            {
                "abilities": [
                    {"kind": "special", "phase": "battle", "effects": [{"do": "heal", "amount": 2}]}
                ]
            },
            "abilities[0].effects[0]: heal needs a target",
        ),
        (
            {
                "abilities": [
                    {
                        "kind": "passive",
                        "target": "all_spells",
                        "effects": [{"do": "draw", "amount": 1}],
                    }
                ]
            },
            "abilities[0].effects[0].do: a passive ability may only modify or grant",
        ),
        (
            {
                "abilities": [
                    {
                        "kind": "trigger",
                        "when": "hit",
                        "target": "any_leader",
                        "effects": [{"do": "damage", "amount": 1}],
                    }
                ]
            },
            "abilities[0].target: must be one of own_leader",
        ),
    ],
)
def test_card_validation_names_the_field(changes, field):
    errors = validate_card(good_spell(**changes))
    assert any(e.startswith(field) for e in errors), errors


def test_a_card_has_at_most_as_many_abilities_as_an_action_may_name():
    """A Special is named by its index on the card, and the action shape bounds that index
    (minigames/engines/rso/shapes.py): a GM-added card with more abilities than
    ``MAX_ABILITIES`` is refused in words, so none of its Specials is out of reach."""
    from minigames.engines.rso import ENGINE
    from minigames.engines.rso.vocabulary import MAX_ABILITIES

    special = {"kind": "special", "phase": "battle", "effects": [{"do": "draw", "amount": 1}]}
    assert validate_card(good_spell(abilities=[special] * MAX_ABILITIES)) == []
    assert validate_card(good_spell(abilities=[special] * (MAX_ABILITIES + 1))) == [
        f"abilities: at most {MAX_ABILITIES} abilities (got {MAX_ABILITIES + 1})"
    ]
    assert ENGINE.action_shapes()["use_special"].fields["ability"].maximum == MAX_ABILITIES - 1


def test_card_validation_of_other_types():
    assert validate_card(
        {
            "number": "GM-2",
            "name": "X",
            "kind": "event",
            "cost": 1,
            "phases": ["battle"],
            "effects": [],
        }
    ) == ["effects: must be a non-empty list of effects"]
    assert validate_card(
        {"name": "X", "kind": "character", "character": "X", "hp": 0, "ev": 1, "bv": 1}
    ) == ["number: is required", "hp: must be between 1 and 99"]
    assert validate_card(
        {
            "number": "S",
            "name": "S",
            "kind": "support",
            "support": "scene",
            "cost": 1,
            "abilities": [
                {
                    "kind": "passive",
                    "target": "this",
                    "effects": [{"do": "modify", "stat": "hv", "amount": 1}],
                }
            ],
        }
    ) == ["abilities[0].target: this card has nothing that 'this' could mean"]
    assert validate_card("a card") == ["card: must be a mapping of fields"]
    assert validate_card({"number": "1", "name": "x", "kind": "token"}) == [
        "kind: must be one of character, spell, support, event (got 'token')"
    ]


def event(**fields):
    """A General Event (written for these tests): +1 SP in the Replenish phase."""
    return {
        "number": "GM-3",
        "name": "Lantern Tithe",
        "kind": "event",
        "cost": 0,
        "phases": ["replenish"],
        "effects": [{"do": "gain_sp", "amount": 1}],
        **fields,
    }


SPECIAL = {"kind": "special", "cost": [{"sp": 1}], "effects": [{"do": "gain_sp", "amount": 2}]}
SHOT = {"opposing_shot": "spread"}


@pytest.mark.parametrize(
    ("card", "error"),
    [
        # Line 208: in the Preparation phase only Player 1 (the attacker) acts
        (
            event(phases=["preparation"], role="intercept"),
            "role: only the attacking player acts in the Preparation phase, so this, for the "
            "intercepting player, could never be played",
        ),
        (
            good_spell(abilities=[{**SPECIAL, "phase": "preparation", "role": "intercept"}]),
            "abilities[0].role: only the attacking player acts in the Preparation phase",
        ),
        # A spell in battle exists only in the Battle phase
        (
            event(
                phases=["replenish", "preparation"],
                target="own_battle_spell",
                effects=[{"do": "modify", "stat": "av", "amount": 1}],
            ),
            "target: own_battle_spell is a spell in battle, and there is no battle in the "
            "Replenish phase or the Preparation phase, so this could never be played",
        ),
        (event(condition=SHOT), "condition.opposing_shot: the opposing spell's shot needs"),
        (
            good_spell(abilities=[{**SPECIAL, "phase": "replenish", "condition": SHOT}]),
            "abilities[0].condition.opposing_shot: the opposing spell's shot needs a battle",
        ),
        (
            good_spell(
                abilities=[
                    {
                        "kind": "trigger",
                        "when": "battle_end",
                        "target": "opposing_battle_spell",
                        "effects": [{"do": "to_reserve"}],
                    }
                ]
            ),
            "abilities[0].target: opposing_battle_spell is a spell in battle, and there is "
            "none at the end of the Battle phase, so this would never fire",
        ),
    ],
    ids=["event-role", "special-role", "event-target", "event-shot", "special-shot", "trigger"],
)
def test_a_card_that_could_never_be_played_is_refused_naming_the_field(card, error):
    """A GM card must be playable: an Event or a Special whose role never acts in its phases,
    or that needs a battle in phases that have none, is refused with words naming the field."""
    errors = validate_card(card)
    assert any(e.startswith(error) for e in errors), errors
    with pytest.raises(CardSetError, match=re.escape(error.split(":")[0])):
        load_card_set([card])


@pytest.mark.parametrize(
    "card",
    [
        event(phases=["preparation"], role="attack"),
        event(phases=["battle", "preparation"], role="intercept"),
        event(phases=["battle"], condition=SHOT),
        good_spell(abilities=[{**SPECIAL, "phase": "battle", "role": "intercept"}]),
        good_spell(
            abilities=[
                {
                    "kind": "trigger",
                    "when": "hit",
                    "target": "opposing_battle_spell",
                    "effects": [{"do": "to_reserve"}],
                }
            ]
        ),
    ],
    ids=["attacker-preparation", "intercept-in-battle", "shot-in-battle", "special", "hit"],
)
def test_a_card_playable_in_one_of_its_phases_is_accepted(card):
    assert validate_card(card) == []


def test_a_gm_card_is_refused_by_the_loader_and_the_game():
    with pytest.raises(CardSetError, match=r"GM-1: shot: must be one of"):
        load_card_set([good_spell(shot="laser")])
    with pytest.raises(CardSetError, match="RSO-101: number: another card already"):
        load_card_set([good_spell(number="RSO-101")])
    with pytest.raises(CardSetError):
        ENGINE.new_game(seats=2, seed=1, config={"cards": [good_spell(av=-1)]})


def test_a_gm_card_can_be_played():
    """A valid new card joins the set through config["cards"] and a deck may use it."""
    card = good_spell(number="GM-7", name="Guest Star Volley")
    deck = [c for c in preset_deck("shrine-and-star") if c != "RSO-308"]
    deck += ["GM-7"] * 3
    state = ENGINE.new_game(
        seats=2, seed=3, config={"cards": [card], "decks": [deck, "grand-library"]}
    )
    assert "GM-7" in state["cards"]
    assert sum(1 for n in state["inst"].values() if n == "GM-7") == 3


def test_new_game_refuses_illegal_decks_and_options_in_words():
    with pytest.raises(ValueError, match="Seat 1's deck is not legal: A deck holds exactly 40"):
        ENGINE.new_game(seats=2, seed=1, config={"decks": [["RSO-001"] * 4, "grand-library"]})
    with pytest.raises(ValueError, match="no house rule called"):
        ENGINE.new_game(seats=2, seed=1, options={"speed": 3})
    with pytest.raises(ValueError, match="exactly two players"):
        ENGINE.new_game(seats=3, seed=1)
