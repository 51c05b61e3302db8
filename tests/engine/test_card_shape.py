"""Rumbling Spell Orchestra and Dream Battle of SpellCard share one card shape and one set of
public names (docs/decks.md, "One card shape"), so the decks app and the tavern call either
engine the same way. Deck sizes are the rulebooks': RSO's four characters and forty others
(rumbling-spell-orchestra-gameplay.txt, "Game Preparation" lines 8-19), DBS's 40 to 50 cards
(dream-battle-of-spellcard-rules, section 三 "Preparation of game")."""

from __future__ import annotations

import pytest

from minigames.engines import dbs, rso

ENGINES = [rso, dbs]
#: The deck sizes a preset may have, by game.
PRESET_SIZES = {"rso": {44}, "dbs": set(range(40, 51))}


def _slug(module):
    return module.ENGINE.slug


@pytest.mark.parametrize("engine", ENGINES, ids=_slug)
def test_every_starter_card_has_a_number_a_name_a_kind_and_lines(engine):
    cards = engine.starter_card_set()
    for number, card in cards.items():
        assert card["number"] == number and isinstance(card["name"], str) and card["name"]
        assert card["kind"] in engine.KIND_WORDS, number
        assert "type" not in card, number
        lines = engine.card_lines(card, cards)
        assert lines and all(isinstance(line, str) and line for line in lines), number
        assert engine.upgrade_card(card) == card
        for name in engine.card_characters(card, cards):
            assert isinstance(name, str) and name, number
        for needed in engine.card_needs(card):
            assert cards[needed]["kind"] == "character", number


@pytest.mark.parametrize("engine", ENGINES, ids=_slug)
def test_presets_are_a_list_of_key_name_about_and_cards(engine):
    presets = engine.preset_decks()
    assert len(presets) == 4
    cards = engine.starter_card_set()
    for preset in presets:
        assert set(preset) == {"key", "name", "about", "cards"}
        assert len(preset["cards"]) in PRESET_SIZES[_slug(engine)], preset["key"]
        assert engine.preset_deck(preset["key"]) == preset["cards"]
        assert engine.validate_deck(preset["cards"], cards) == []
        text = engine.deck_to_text(preset["cards"], cards, preset["name"])
        assert text.startswith(f"# {preset['name']}\n")
        numbers, errors = engine.deck_from_text(text, cards)
        assert errors == [] and sorted(numbers) == sorted(preset["cards"])
    with pytest.raises(KeyError):
        engine.preset_deck("no-such-deck")
    assert engine.DECK_RULES


@pytest.mark.parametrize("engine", ENGINES, ids=_slug)
def test_a_seats_view_gives_each_card_in_the_same_words(engine):
    state = engine.ENGINE.new_game(seats=2, seed=3)
    view = engine.ENGINE.view(state, 0)
    assert view["cards"]
    for number, words in view["cards"].items():
        card = state["cards"][number]
        assert words["name"] == card["name"] and words["kind"] == card["kind"]
        assert words["kind_label"] == engine.KIND_WORDS[card["kind"]]
        assert words["lines"] == engine.card_lines(card, state["cards"])


@pytest.mark.parametrize("engine", ENGINES, ids=_slug)
def test_a_bad_card_set_lists_its_errors(engine):
    card = {**engine.starter_card_set()[next(iter(engine.starter_card_set()))], "kind": "token"}
    with pytest.raises(engine.CardSetError) as raised:
        engine.load_card_set([{**card, "number": "GM-001"}])
    assert raised.value.errors and all(isinstance(e, str) for e in raised.value.errors)
    assert any("GM-001" in e and "kind" in e for e in raised.value.errors)


def test_an_rso_card_and_game_in_the_older_shape_read_as_todays():
    """RSO cards named their kind ``type`` before the shared shape: a GM card written so loads,
    and a game saved so (its carried cards) plays on with the cards in today's shape."""
    today = rso.starter_card_set()["RSO-101"]
    older = {("type" if k == "kind" else k): v for k, v in today.items()}
    assert rso.upgrade_card(older) == today
    assert rso.load_card_set([{**older, "number": "GM-001"}])["GM-001"]["kind"] == "spell"
    state = rso.ENGINE.new_game(seats=2, seed=5)
    saved = rso.ENGINE.to_json(state)
    saved["cards"] = {
        n: {("type" if k == "kind" else k): v for k, v in c.items()}
        for n, c in saved["cards"].items()
    }
    loaded = rso.ENGINE.from_json(saved)
    assert loaded["cards"] == state["cards"]
    assert rso.ENGINE.to_json(loaded) == rso.ENGINE.to_json(state)
