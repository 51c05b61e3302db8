"""The demo seeder's cards and decks: a GM card, a legal deck and a half-built one, once."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from decks import selectors
from decks.models import CustomCard, Deck

pytestmark = pytest.mark.django_db


def test_seed_demo_adds_a_gm_card_and_two_decks_once():
    out = StringIO()
    for _ in range(2):
        call_command("seed_demo", stdout=out)
    card = CustomCard.objects.get()
    assert (card.number, card.game, card.campaign.name) == (
        "GM-001",
        "rso",
        "The Scarlet Mist Incident",
    )
    decks = {d.name: selectors.deck_report(d) for d in Deck.objects.all()}
    assert len(decks) == 2
    assert decks["Shrine and Star"].legal
    half = decks["Half-built mist deck"]
    assert not half.legal and len(half.errors) == 3  # too few characters, cards, a 4th copy
    assert "/decks/" in out.getvalue()
