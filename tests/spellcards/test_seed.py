"""The demo seeder's spellcards: legal cards in the demo characters' decks, a GM template, and
nothing added twice."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from campaign.models import Campaign
from spellcards.models import DeckEntry, Spellcard, TemplateCard
from tests.spellcards.conftest import make_character

pytestmark = pytest.mark.django_db


def test_seed_demo_spellcards_idempotently():
    call_command("seed_demo", stdout=StringIO())
    campaign = Campaign.objects.get(name="The Scarlet Mist Incident")
    from django.contrib.auth import get_user_model

    users = get_user_model().objects
    for username in ("reimu", "marisa"):
        if not campaign.characters.filter(owner__username=username).exists():
            make_character(users.get(username=username), campaign, name=username.title())
    for _ in range(2):
        call_command("seed_demo", stdout=StringIO())
    assert TemplateCard.objects.filter(campaign=campaign).count() == 1
    characters = campaign.characters.filter(owner__username__in=["reimu", "marisa"])
    for character in characters:
        cards = Spellcard.objects.filter(character=character)
        assert cards.count() >= 2
        assert DeckEntry.objects.filter(character=character, copies=2).count() >= 2
