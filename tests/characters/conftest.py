"""Fixtures for the characters tests: a player's character and a GM's NPC in the campaign."""

from __future__ import annotations

import pytest

from tests.factories import CharacterFactory, legal_draft


@pytest.fixture
def character(campaign, player):
    """The player's legal character in the campaign, with public and private notes."""
    return CharacterFactory(
        owner=player,
        campaign=campaign,
        name="Cirno",
        public_notes="Strongest fairy of the lake.",
        private_notes="Secretly afraid of frogs.",
    )


@pytest.fixture
def npc(campaign, gm):
    return CharacterFactory(
        owner=gm, campaign=campaign, name="Meiling", is_npc=True, private_notes="GM secret."
    )


@pytest.fixture
def media(settings, tmp_path):
    """Uploaded files go to a temporary folder."""
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return tmp_path / "media"


@pytest.fixture
def draft():
    return legal_draft()
