"""A battle screen with its socket open polls nothing (make bench: "requests per minute of an
idle open tab"), so what reaches the screen without a new version must be told on the socket:
a ping and a map laid under the battle send the same bare note as a chat line
(battles/table_talk.py ``feed_changed``), and the screen reads its feed."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from battles import services as battles
from battles import table_talk
from campaign.permissions import access_for
from tests.push.test_sockets import _cookie, _fresh_layer, _run, _socket  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


async def _next(sock: Any, kind: str) -> dict[str, Any]:
    while True:
        message = await sock.receive_json_from(timeout=10)
        if message["type"] == kind:
            return message


def test_a_ping_reaches_every_open_screen_as_a_note_without_its_square(campaign, gm, player):
    battle = battles.battle_create(
        campaign=campaign,
        by=access_for(gm, campaign),
        created_by=gm,
        name="Yard",
        width=6,
        height=4,
        seed=1,
    )
    cookie = _cookie(player)

    async def scenario() -> None:
        sock = _socket(f"/ws/tables/battle/{battle.pk}/", cookie)
        assert (await sock.connect(timeout=10))[0]
        await _next(sock, "version")
        await sync_to_async(
            lambda: table_talk.ping_place(
                battle=battle, access=access_for(gm, campaign), author=gm, x=2, y=3
            )
        )()
        assert await _next(sock, "chat") == {"type": "chat"}  # the square is read, not pushed
        await sock.disconnect()

    _run(scenario)
