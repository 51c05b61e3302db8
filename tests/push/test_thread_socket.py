"""A thread's socket (issue 43, play-by-post: "new posts are pushed live"; threads/consumers.py):
only the campaign's members may open it, it hears of a post in its own thread and of nothing
in another, and what it carries is a bare "changed" (the page then fetches what it may see)."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from campaign.permissions import access_for
from tests.push.test_sockets import _cookie, _fresh_layer, _run, _socket  # noqa: F401
from threads import services

pytestmark = pytest.mark.django_db(transaction=True)


def _threads(campaign: Any, gm: Any) -> tuple[Any, Any]:
    by = access_for(gm, campaign)
    make = services.thread_create
    return (
        make(campaign=campaign, by=by, user=gm, title="The lake"),
        make(campaign=campaign, by=by, user=gm, title="The mansion"),
    )


def test_members_hear_a_post_in_their_thread_and_outsiders_may_not_listen(
    campaign, gm, player, other_player, outsider
):
    lake, mansion = _threads(campaign, gm)
    path = f"/ws/campaigns/{campaign.pk}/threads/{lake.pk}/"

    def post(thread: Any, body: str) -> None:
        by = access_for(player, campaign)
        services.post_create(thread=thread, by=by, user=player, body=body)

    outsiders, member = _cookie(outsider), _cookie(other_player)

    async def scenario() -> None:
        for headers, code, where in (
            ([outsiders], 4404, path),
            ([], 4401, path),
            ([member], 4404, f"/ws/campaigns/{campaign.pk}/threads/999999/"),
        ):
            refused = _socket(where, *headers)
            connected, closed = await refused.connect(timeout=10)
            assert not connected and closed == code
        sock = _socket(path, member)
        assert (await sock.connect(timeout=10))[0]
        assert await sock.receive_json_from(timeout=10) == {"type": "changed"}
        await sync_to_async(post)(mansion, "Elsewhere")
        assert await sock.receive_nothing(timeout=0.5)
        await sync_to_async(post)(lake, "A secret one\n/roll secret 3d > 9")
        assert await sock.receive_json_from(timeout=10) == {"type": "changed"}
        await sock.disconnect()

    _run(scenario)
