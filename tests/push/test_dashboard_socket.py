"""The GM dashboard's socket (issue 39, "Pushed updates": "the GM dashboard receive[s] changes
pushed over WebSockets"; gmtools/consumers.py, gmtools/live.py): only the campaign's GMs may
open it, it hears of changes to what the dashboard shows (a roll, a character, a battle's new
version) and of nothing in another campaign, and a GM made a player has it closed."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from battles import services as battles
from campaign.models import Campaign, Membership, Role, Roll
from campaign.permissions import access_for
from tests.factories import CampaignFactory, CharacterFactory
from tests.push.test_sockets import _cookie, _fresh_layer, _run, _socket  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


def _path(campaign: Campaign) -> str:
    return f"/ws/campaigns/{campaign.pk}/dashboard/"


async def _opened(sock: WebsocketCommunicator) -> None:
    assert (await sock.connect(timeout=10))[0]
    assert await sock.receive_json_from(timeout=10) == {"type": "changed"}


def _roll(campaign: Campaign, user: Any) -> None:
    Roll.objects.create(campaign=campaign, user=user, notation="2d", total=7)


@pytest.mark.parametrize(("who", "code"), [("player", 4403), ("outsider", 4404), (None, 4401)])
def test_only_the_campaigns_gms_may_open_it(campaign, request, who, code):
    headers = [_cookie(request.getfixturevalue(who))] if who else []

    async def scenario() -> None:
        sock = _socket(_path(campaign), *headers)
        connected, closed = await sock.connect(timeout=10)
        assert not connected and closed == code

    _run(scenario)


def test_a_roll_a_character_and_a_battle_reach_her_dashboard_and_nothing_else(campaign, gm, player):
    other = CampaignFactory(created_by=gm, name="Another")
    Membership.objects.create(campaign=other, user=gm, role=Role.GM)
    battle = battles.battle_create(
        campaign=campaign,
        by=access_for(gm, campaign),
        created_by=gm,
        name="Shrine yard",
        width=6,
        height=4,
        seed=1,
    )

    cookie = _cookie(gm)

    async def scenario() -> None:
        sock = _socket(_path(campaign), cookie)
        await _opened(sock)
        await sync_to_async(_roll)(other, gm)  # another campaign's roll: not hers to hear
        assert await sock.receive_nothing(timeout=0.5)
        await sync_to_async(_roll)(campaign, player)
        assert await sock.receive_json_from(timeout=10) == {"type": "changed"}
        await sync_to_async(lambda: CharacterFactory(owner=player, campaign=campaign))()
        assert await sock.receive_json_from(timeout=10) == {"type": "changed"}
        while not await sock.receive_nothing(timeout=0.3):  # one note per saved row
            await sock.receive_json_from()
        await sync_to_async(
            lambda: battles.battle_square_set(
                battle_id=battle.pk, by=gm, square=[0, 0], terrain="blocked"
            )
        )()
        assert await sock.receive_json_from(timeout=10) == {"type": "changed"}
        await sock.disconnect()

    _run(scenario)


def test_a_gm_made_a_player_has_her_dashboard_socket_closed(campaign, gm):
    def demote() -> None:
        membership = Membership.objects.get(campaign=campaign, user=gm)
        membership.role = Role.PLAYER
        membership.save()

    cookie = _cookie(gm)

    async def scenario() -> None:
        sock = _socket(_path(campaign), cookie)
        await _opened(sock)
        await sync_to_async(demote)()
        closed = await sock.receive_output(timeout=10)
        while closed["type"] == "websocket.send":  # the campaign's own note comes first
            closed = await sock.receive_output(timeout=10)
        assert closed["type"] == "websocket.close" and closed["code"] == 4403

    _run(scenario)
