"""A deck text's counts are bounded and read in the ASCII digits 0-9, in both games and on
every way in (the API's import and validate, the deck builder's page).

``999999999 RSO-001`` once built a list of a billion card numbers (a worker held 33 s until
gunicorn killed it), ``²`` passed ``str.isdigit()`` and then made ``int()`` raise (a 500), and
``٣`` was read as 3. No line of a deck text may ask for more copies than a deck of its game
can hold: RSO's deck is exactly 40 Spell, Support and Event cards besides its characters
(../shared/rules/rumbling-spell-orchestra-gameplay.txt, line 15); a DBS deck holds 40 to 50
cards (../shared/rules/dream-battle-of-spellcard-rules.en.md, line 19).
"""

from __future__ import annotations

import pytest

from decks.games import DBS, RSO

pytestmark = pytest.mark.django_db

TOO_MANY = {"rso": ["41", "999999999", "9" * 5000], "dbs": ["51", "999999999", "9" * 5000]}
NOT_ASCII_DIGITS = ["²", "٣", "𝟗", "3²"]


@pytest.mark.parametrize("count", TOO_MANY["rso"], ids=len)
def test_an_rso_line_beyond_the_decks_forty_cards_is_refused_in_words(count):
    numbers, errors = RSO.engine.deck_from_text(f"{count} RSO-001\n", RSO.engine.starter_card_set())
    assert numbers == []
    assert errors == ["Line 1: the number of copies must be from 1 to 40."]


@pytest.mark.parametrize("count", TOO_MANY["dbs"], ids=len)
def test_a_dbs_line_beyond_the_decks_fifty_cards_is_refused_in_words(count):
    numbers, errors = DBS.engine.deck_from_text(f"{count} DBS-001\n", DBS.engine.starter_card_set())
    assert numbers == []
    assert errors == ["Line 1: the number of copies must be from 1 to 50."]


def test_the_largest_counts_a_deck_can_hold_are_still_read():
    numbers, errors = RSO.engine.deck_from_text("40 RSO-101\n", RSO.engine.starter_card_set())
    assert errors == [] and numbers == ["RSO-101"] * 40
    numbers, errors = DBS.engine.deck_from_text("50 DBS-101\n", DBS.engine.starter_card_set())
    assert errors == [] and numbers == ["DBS-101"] * 50


@pytest.mark.parametrize("count", NOT_ASCII_DIGITS)
def test_only_ascii_digits_make_a_count(count):
    numbers, errors = RSO.engine.deck_from_text(
        f"1 RSO-101\n{count} RSO-001\n", RSO.engine.starter_card_set()
    )
    assert numbers == ["RSO-101"]
    assert len(errors) == 1 and errors[0].startswith("Line 2 should read like '3 Amulet Scatter'")
    numbers, errors = DBS.engine.deck_from_text(
        f"1 DBS-101\n{count} DBS-001\n", DBS.engine.starter_card_set()
    )
    assert numbers == ["DBS-101"]
    assert errors == ["Line 2: write the number of copies, then the card number."]


@pytest.mark.parametrize(
    ("game", "text", "error"),
    [
        ("rso", "999999999 RSO-001", "Line 1: the number of copies must be from 1 to 40."),
        ("dbs", "999999999 DBS-001", "Line 1: the number of copies must be from 1 to 50."),
        ("rso", "² RSO-001", "Line 1 should read like '3 Amulet Scatter': '² RSO-001'."),
        ("dbs", "٣ DBS-001", "Line 1: write the number of copies, then the card number."),
        ("rso", "𝟗 RSO-001", "Line 1 should read like '3 Amulet Scatter': '𝟗 RSO-001'."),
    ],
)
def test_the_api_refuses_such_lines_on_import_and_validate(
    api_for, player, rso_deck, dbs_deck, game, text, error
):
    client = api_for(player)
    deck = {"rso": rso_deck, "dbs": dbs_deck}[game]
    before = list(deck.cards)
    imported = client.post(f"/api/decks/{deck.pk}/import/", {"text": text}, format="json")
    assert imported.status_code == 400
    assert imported.json()["errors"] == {"text": [error]}
    deck.refresh_from_db()
    assert deck.cards == before
    checked = client.post("/api/decks/validate/", {"game": game, "text": text}, format="json")
    assert checked.status_code == 400
    assert checked.json()["errors"] == {"text": [error]}
    created = client.post(
        "/api/decks/", {"game": game, "name": "Pasted", "text": text}, format="json"
    )
    assert created.status_code == 400
    assert created.json()["errors"] == {"text": [error]}


@pytest.mark.parametrize("text", ["999999999 RSO-001", "² RSO-001"])
def test_the_deck_builder_page_names_the_line(client_for, player, rso_deck, text):
    before = list(rso_deck.cards)
    response = client_for(player).post(f"/decks/{rso_deck.pk}/import/", {"text": text})
    assert response.status_code == 400
    assert "Line 1" in response.content.decode()
    rso_deck.refresh_from_db()
    assert rso_deck.cards == before
