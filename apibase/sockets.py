"""The base of the site's WebSocket consumers: a client that leaves at any moment, the handshake
included, is let go quietly and leaves nothing behind.

A consumer joins its groups in ``connect`` before it accepts the socket (so no news sent
between the two is missed). A page that gives up meanwhile (a tab closed, a network lost) makes
the server refuse the accept, or any later send (uvicorn raises ``ClientDisconnected``): the
consumer then stopped with that error, so its ``disconnect`` never ran and its channel stayed in
its groups, where every move was sent to it until the channel layer's group expiry (a day).
Here a send refused for that reason ends the consumer as a disconnect does: Channels' own
groups and the consumer's ``disconnect`` (its groups, who is at a table) are left, and nothing
is reported, since nothing went wrong (tests/push/test_socket_left_mid_connect.py).
"""

from __future__ import annotations

from typing import Any, Final

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from uvicorn.protocols.utils import ClientDisconnected

#: The close code of a connection lost without a closing handshake (RFC 6455 7.1.5).
CLOSE_ABNORMAL: Final = 1006


class PushConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]  # channels is untyped
    """A consumer whose client may leave mid-handshake or mid-send (see the module)."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        try:
            await super().dispatch(message)
        except ClientDisconnected:
            # the server's own disconnect message for it may still be queued: this one ends
            # the consumer first (StopConsumer), as that one would have
            await self.websocket_disconnect(
                {"type": "websocket.disconnect", "code": CLOSE_ABNORMAL}
            )
