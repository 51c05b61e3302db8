"""Fixtures for the decks app: GM cards in the campaign, decks from the presets."""

from __future__ import annotations

import pytest

from decks import services
from decks.games import DBS, RSO

#: An original GM card for RSO (written for these tests): a General spell.
RSO_GM_SPELL = {
    "number": "GM-101",
    "name": "Lantern Drift",
    "kind": "spell",
    "cost": 2,
    "shot": "spread",
    "av": 3,
    "iv": 2,
    "hv": 3,
    "basic": {"guided": True},
}

#: A DBS GM character and one Battle Spellcard of hers.
DBS_GM_CHARACTER = {
    "number": "GM-001",
    "name": "Mystia Lorelei",
    "kind": "character",
    "title": "Night Sparrow",
    "support": {"statics": [{"static": "hand_limit", "amount": 1}]},
}
DBS_GM_BATTLE = {
    "number": "GM-002",
    "name": "Night Song Barrage",
    "kind": "battle",
    "character": "GM-001",
    "cost": 1,
    "attack": 1500,
    "level": 2,
}


def preset(game, key=None):
    presets = game.engine.preset_decks()
    chosen = presets[0] if key is None else next(p for p in presets if p["key"] == key)
    return list(chosen["cards"])


@pytest.fixture
def rso_gm_card(campaign, gm):
    return services.custom_card_create(by=gm, game="rso", campaign=campaign, data=RSO_GM_SPELL)


@pytest.fixture
def dbs_gm_cards(campaign, gm):
    character = services.custom_card_create(
        by=gm, game="dbs", campaign=campaign, data=DBS_GM_CHARACTER
    )
    battle = services.custom_card_create(by=gm, game="dbs", campaign=campaign, data=DBS_GM_BATTLE)
    return character, battle


@pytest.fixture
def rso_deck(player):
    return services.deck_create(by=player, game="rso", name="Shrine copy", cards=preset(RSO))


@pytest.fixture
def dbs_deck(player):
    return services.deck_create(by=player, game="dbs", name="Stars copy", cards=preset(DBS))
