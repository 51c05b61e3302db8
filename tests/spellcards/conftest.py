"""Characters that can cast spellcards, for the spellcard tests.

Characters are stored rows of the characters app; these build complete ones (shot-type, race,
profession, element) so the engine can price, validate and derive the sheet.
"""

from __future__ import annotations

import pytest

from characters.models import Character


def make_character(owner, campaign=None, **fields):
    defaults = {
        "name": "Reimu",
        "shot_type": "homing_amulets",
        "race": "pony",
        "profession": "shrine_maiden",
        "element": "spirit",
        "level": 1,
        "draft": {"goddess_element": "light"},
    }
    defaults.update(fields)
    return Character.objects.create(owner=owner, campaign=campaign, **defaults)


@pytest.fixture
def character(campaign, player):
    """The player's Shrine Maiden (spirit, goddess of light), INT 9, PWR 5: dodge difficulty 9."""
    return make_character(player, campaign)


@pytest.fixture
def librarian(campaign, other_player):
    """The other player's Magic Missile Librarian (fire), INT 15: dodge difficulty 15."""
    return make_character(
        other_player,
        campaign,
        name="Patchouli",
        shot_type="magic_missile",
        profession="librarian",
        element="fire",
        draft={"bonus_points": {"int": 6}},
    )
