"""The channel layer: channels-redis's, whose receive ends once it is cancelled.

A socket's consumer receives from the layer in a task of its own, and cancels that task when
the socket closes. On Python 3.11, ``asyncio.wait_for`` returns the inner result instead of
raising when the cancellation arrives just as the inner future finishes (CPython gh-86296,
fixed in 3.12), and redis-py writes every command through ``wait_for`` when its socket has a
timeout (``CHANNEL_REDIS_HOST``). A cancellation that met a command's write was lost: the
receive went on popping from Redis every few seconds for ever, its consumer never ended, and
the web process kept it until gunicorn killed the worker at its graceful timeout. Pages that
drop their socket during its handshake (a closed tab, a tunnel) met it about every other time
at a restart, with 5 such sockets (``tests/push/test_socket_left_mid_connect.py``).

:class:`RedisChannelLayer` looks for a cancellation still pending before and after each
blocking pop, and raises it: a lost one ends the receive within one pop (5 s at most). A
message popped just before is safe: channels-redis keeps it in its backup queue, and the next
receive puts it back in the channel.
"""

from __future__ import annotations

import asyncio
from typing import Any

from channels_redis import core


def _raise_if_cancelled() -> None:
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


class RedisChannelLayer(core.RedisChannelLayer):  # type: ignore[misc]  # channels-redis is untyped
    """channels-redis's ``RedisChannelLayer``; see the module."""

    async def _brpop_with_clean(self, index: int, channel: str, timeout: float) -> Any:
        _raise_if_cancelled()
        member = await super()._brpop_with_clean(index, channel, timeout)
        _raise_if_cancelled()
        return member
