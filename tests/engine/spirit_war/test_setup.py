"""Setting up: the default decks, the deal, reveal-and-redraw, house rules and extra cards.

Rules: ../shared/rules/spirit-war-standard-rules.txt, "Introduction to the Spirit War decks" and
"Setting up"; RULINGS.md "Spirit War, RSO, DBS" (card counts are a house rule with a documented
default; a GM can add cards as data).
"""

from __future__ import annotations

from collections import Counter

import pytest

from minigames.engines.spirit_war import ENGINE
from minigames.engines.spirit_war.cards import CardSetError
from minigames.engines.spirit_war.piles import is_spirit, kind, locations
from tests.engine.spirit_war.helpers import new


def kinds(state, pile):
    return Counter(kind(state, c) for c in pile)


def test_engine_identity():
    assert (ENGINE.slug, ENGINE.title, ENGINE.min_seats, ENGINE.max_seats) == (
        "spirit_war",
        "Spirit War",
        2,
        6,
    )


def test_registered_in_the_tavern_registry_with_house_rules_in_words():
    from minigames.engines.registry import get_engine

    assert get_engine("spirit_war") is ENGINE
    rules = [rule.to_json() for rule in ENGINE.house_rules()]
    assert [r["key"] for r in rules] == [
        "spirit_cards",
        "spell_cards",
        "attack_cards",
        "fortune_cards",
        "disaster_cards",
        "hand_size",
        "support_order",
        "skip_proof",
        "rare_outcome",
    ]
    for r in rules:
        assert " " in r["help"] and "_" not in r["label"] + r["help"]
        assert all("_" not in label for _, label in r["choices"])


def test_default_composition():
    """The documented default (docs/games/spirit-war.md): Preparation deck 36 Spirit + 18 Spell,
    Encounter deck 16 Attack + 8 Fortune + 8 Disaster."""
    s = new(2)
    every = Counter(kind(s, c) for c in s["cards"])
    assert every == {"spirit": 36, "spell": 18, "attack": 16, "fortune": 8, "disaster": 8}
    prep = [*s["prep_deck"], *(c for h in s["hands"] for c in h)]
    assert kinds(s, prep) == {"spirit": 36, "spell": 18}
    assert kinds(s, s["encounter_deck"]) == {"attack": 16, "fortune": 8, "disaster": 8}
    # Each kind takes its definitions in turn: three of each of the 12 Spirits.
    spirits = Counter(s["cards"][c] for c in s["cards"] if is_spirit(s, c))
    assert set(spirits.values()) == {3} and len(spirits) == 12
    elements = Counter(s["defs"][k]["element"] for k in spirits.elements())
    assert elements == {"fire": 12, "earth": 12, "water": 12}


def test_card_counts_are_house_rules():
    s = new(3, spirit_cards=20, spell_cards=4, attack_cards=5, fortune_cards=0, disaster_cards=2)
    every = Counter(kind(s, c) for c in s["cards"])
    assert every == {"spirit": 20, "spell": 4, "attack": 5, "disaster": 2}
    house = {rule.key: rule.default for rule in ENGINE.house_rules()}
    assert house["spirit_cards"] == 36
    # RULINGS Spirit War 2: both sides choose face down at the same time, revealed together
    assert house["support_order"] == "together" and house["skip_proof"] == "none"


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_deal_five_each_everyone_holds_a_spirit(seats):
    """ "Deal 5 cards faced down ... Repeat this step until everyone has at least 1 Spirit card
    in hand"; the discards go back into the Preparation deck."""
    for seed in range(20):
        s = new(seats, seed)
        assert all(len(h) == 5 for h in s["hands"])
        assert all(any(is_spirit(s, c) for c in h) for h in s["hands"])
        assert len(s["prep_deck"]) == 54 - 5 * seats
        assert s["abyss"] == [] and s["history"] == [] and s["known"] == []
        assert len(locations(s)) == len(s["cards"]) == 86
        assert s["turn"] == 0 and s["phase"] == "turn"


def test_reveal_and_redraw_happens_and_is_told():
    """A player without a Spirit shows her hand, discards it and draws five more; the
    discarded cards are shuffled back into the Preparation deck ("Setting up", steps 2-3)."""
    # Few Spirits make a Spirit-less first hand likely.
    seed = next(
        seed for seed in range(200) if new(4, seed, spirit_cards=8, spell_cards=40)["setup_notes"]
    )
    s = new(4, seed, spirit_cards=8, spell_cards=40)
    notes = " ".join(note["text"] for note in s["setup_notes"])
    assert "has no Spirit and shows her hand as proof" in notes
    assert "shuffled back into the Preparation deck" in notes
    assert all(any(is_spirit(s, c) for c in h) for h in s["hands"])
    assert len(s["prep_deck"]) == 48 - 20
    # Anyone may read the notes: they name no card ids.
    assert "sw-card-" not in notes


def test_same_seed_same_deal_and_first_seat_from_config():
    """ "Owner of the game shall take the very first turn, thereafter the prevailing Spirit King
    shall have the honours": seat 0 by default, ``first_seat`` for a rematch."""
    assert new(3, 9) == new(3, 9)
    s = ENGINE.new_game(
        seats=3, seed=9, config={"first_seat": 2, "names": ["Reimu", "Marisa", "Sakuya"]}
    )
    assert s["turn"] == 2 and ENGINE.waiting_on(s) == (2,)
    assert "Sakuya" in str(ENGINE.summary(s))


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"spirit_cards": 2}, "Spirit cards must be between 6 and 120."),
        ({"attack_cards": 0}, "Attack cards must be between 1 and 60."),
        ({"hand_size": "five"}, "Starting hand must be a whole number."),
        ({"support_order": "attacker"}, "Choosing Support cards must be one of"),
        ({"jokers": 2}, "no house rule called 'jokers'"),
    ],
)
def test_bad_house_rules_are_refused_in_words(options, words):
    with pytest.raises(ValueError, match=words):
        ENGINE.new_game(seats=2, seed=1, options=options)


def test_bad_seats_and_config_are_refused():
    with pytest.raises(ValueError, match="2 to 6 players"):
        ENGINE.new_game(seats=7, seed=1)
    with pytest.raises(ValueError, match="first player"):
        ENGINE.new_game(seats=2, seed=1, config={"first_seat": 2})
    with pytest.raises(ValueError, match="Names must be a list of 2"):
        ENGINE.new_game(seats=2, seed=1, config={"names": ["Reimu"]})
    with pytest.raises(ValueError, match="too small"):
        ENGINE.new_game(seats=6, seed=1, options={"spirit_cards": 10, "spell_cards": 0})


def test_extra_cards_from_config_join_their_deck():
    """A GM adds a card as data: a new Spell with a vocabulary effect."""
    extra = [
        {
            "kind": "spell",
            "key": "shrine_bell",
            "name": "Shrine Bell",
            "support": "imbue",
            "element": "earth",
            "text": "For this battle your Spirit counts as an Earth Spirit.",
        }
    ]
    s = ENGINE.new_game(seats=2, seed=3, config={"extra_cards": extra})
    assert s["defs"]["shrine_bell"]["support"] == "imbue"
    # 18 Spells taken in turn from 7 definitions: the new one is among them.
    assert Counter(s["cards"].values())["shrine_bell"] == 2


def test_extra_cards_errors_name_the_field():
    bad = [
        {
            "kind": "spell",
            "key": "x",
            "name": "X",
            "support": "imbue",
            "element": "wood",
            "text": "t",
        }
    ]
    with pytest.raises(CardSetError) as err:
        ENGINE.new_game(seats=2, seed=3, config={"extra_cards": bad})
    assert err.value.source == "config"
    assert err.value.field == "extra_cards[0].element"
    assert "must be one of fire, earth, water" in str(err.value)
    dup = [{"kind": "spirit", "key": "cinder_fox", "name": "X", "element": "fire", "text": "t"}]
    with pytest.raises(
        CardSetError, match=r"config: extra_cards\[0\].key: 'cinder_fox' is used twice"
    ):
        ENGINE.new_game(seats=2, seed=3, config={"extra_cards": dup})
