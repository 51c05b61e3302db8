"""Tables of every game for the chat's tests: a battle, each tavern game with two players, and
RAIGO with four (two partners against two, RAIGO rulebook setup rule 10)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from minigames import services
from tests.factories import UserFactory
from tests.minigames.conftest import two_humans

#: Each game's table prefix under /api/ (the core mounts chat under each).
PREFIX = {
    "battle": "battles",
    "raigo": "tavern/tables",
    "spirit_war": "tavern/tables",
    "rso": "tavern/tables",
    "dbs": "tavern/tables",
}
TAVERN = ("raigo", "spirit_war", "rso", "dbs")


def chat_url(game: str, pk: int, tail: str = "") -> str:
    return f"/api/{PREFIX[game]}/{pk}/chat/{tail}"


def post(client: Any, url: str, body: Any, method: str = "post") -> Any:
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return getattr(client, method)(url, data, content_type="application/json")


@pytest.fixture
def four():
    """Four people at a started four-player RAIGO (seats 0 and 2 against 1 and 3), and one
    more who only watches; an open table, so anyone signed in may watch."""
    users = [UserFactory(username=n) for n in ("reimu", "marisa", "sakuya", "youmu")]
    table = services.tavern_create(
        by=users[0],
        game="raigo",
        campaign=None,
        seats=[services.SeatSpec(kind="host")] + [services.SeatSpec() for _ in range(3)],
    )
    for index, user in enumerate(users[1:], 1):
        services.tavern_join(table_id=table.pk, by=user, index=index)
    services.tavern_start(table_id=table.pk, by=users[0])
    table.refresh_from_db()
    return table, users, UserFactory(username="aya")


@pytest.fixture
def tavern_table(campaign, player, other_player):
    """``tavern_table(game)``: a started campaign table of ``game``, hosted by ``player``
    (seat 0) against ``other_player`` (seat 1); the campaign's GM only watches."""

    def make(game: str) -> Any:
        return two_humans(game, player, other_player, campaign=campaign)

    return make


@pytest.fixture
def battle(campaign, gm, player, other_player):
    """A battle being set up in the campaign (the GM and both players are members)."""
    from tests.battles.conftest import build_battle
    from tests.factories import CharacterFactory

    characters = [
        CharacterFactory(campaign=campaign, owner=player, name="Reimu"),
        CharacterFactory(campaign=campaign, owner=other_player, name="Marisa"),
    ]
    return build_battle(campaign, gm, characters)
