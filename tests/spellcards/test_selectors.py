"""Reading a deck costs the same number of queries whatever its size."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from spellcards import selectors, services
from spellcards.models import DeckEntry
from tests.factories import SpellcardFactory

pytestmark = pytest.mark.django_db


def fill_deck(character, n: int) -> None:
    for i in range(n):
        card = SpellcardFactory(character=character, name=f"Card {i:02}")
        DeckEntry.objects.create(character=character, spellcard=card, copies=1)
    SpellcardFactory(character=character, name="Spare")


@pytest.mark.parametrize("size", [0, 1, 12])
def test_deck_entries_and_spare_cards_take_two_queries(character, size, django_assert_num_queries):
    fill_deck(character, size)
    with django_assert_num_queries(2):
        entries = selectors.deck_entries(character)
        outside = selectors.cards_outside_deck(character)
        names = [e.spellcard.name for e in entries]  # cards came with the entries
    assert len(names) == size and [c.name for c in outside] == ["Spare"]


def count(fn) -> int:
    with CaptureQueriesContext(connection) as ctx:
        fn()
    return len(ctx.captured_queries)


def test_deck_summary_and_page_are_constant_in_deck_size(character, player, client_for):
    client = client_for(player)
    url = f"/characters/{character.pk}/deck/"
    client.get(
        url
    )  # the first request keeps her signed-in user in the cache (accounts/backends.py)
    fill_deck(character, 1)
    small_summary = count(lambda: services.deck_summary(character))
    small_page = count(lambda: client.get(url))
    fill_deck(character, 10)
    big_summary = count(lambda: services.deck_summary(character))
    big_page = count(lambda: client.get(url))
    assert small_summary == big_summary
    assert small_page == big_page
    assert services.deck_summary(character).kinds == 11


def test_api_deck_is_constant_in_deck_size(character, player, api_for):
    client = api_for(player)
    url = f"/api/characters/{character.pk}/deck/"
    fill_deck(character, 1)
    client.get(url)  # her new token is looked up in the database once, then kept
    small = count(lambda: client.get(url))
    fill_deck(character, 10)
    assert count(lambda: client.get(url)) == small
