"""Fixtures for play-by-post: characters of both players and a thread of the campaign."""

from __future__ import annotations

import pytest

from campaign.permissions import access_for
from tests.factories import CharacterFactory


@pytest.fixture
def cirno(campaign, player):
    return CharacterFactory(owner=player, campaign=campaign, name="Cirno")


@pytest.fixture
def daiyousei(campaign, other_player):
    return CharacterFactory(owner=other_player, campaign=campaign, name="Daiyousei")


@pytest.fixture
def thread(campaign, gm):
    from threads import services

    return services.thread_create(
        campaign=campaign,
        by=access_for(gm, campaign),
        user=gm,
        title="The misty lake",
        category="Act one",
    )
