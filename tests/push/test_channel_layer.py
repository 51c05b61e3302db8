"""The channel layer's receive ends once it is cancelled, even when the cancellation was lost
on its way (``config/channel_layer.py``): on Python 3.11, ``asyncio.wait_for``, through which
redis-py writes its commands, can return instead of raising a cancellation that meets a
finished write. channels-redis's own receive then pops from Redis for ever, and its consumer
never ends. Real Redis, a layer with a prefix of its own."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.conf import settings

from config.channel_layer import RedisChannelLayer

#: Seconds before a receive that did not end is called hung (a pop waits 5 s at most).
HUNG = 12.0


def _layer() -> RedisChannelLayer:
    config = {**settings.CHANNEL_LAYERS["default"]["CONFIG"]}
    config["prefix"] = f"lost-cancel-{secrets.token_hex(4)}"
    return RedisChannelLayer(**config)


async def _receive_after_a_lost_cancel(layer: RedisChannelLayer, channel: str) -> Any:
    """Receive in a task whose cancellation arrived and was swallowed, as ``wait_for`` does:
    still requested (``cancelling()`` is 1), no longer raised."""
    asyncio.current_task().cancel()  # type: ignore[union-attr]
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.sleep(0)
    return await layer.receive(channel)


def test_a_receive_whose_cancellation_was_lost_ends_and_loses_no_message():
    async def scenario() -> tuple[str, Any]:
        layer = _layer()
        try:
            channel = await layer.new_channel()
            await layer.send(channel, {"type": "table.version", "version": 7})
            receiving = asyncio.ensure_future(_receive_after_a_lost_cancel(layer, channel))
            done, _ = await asyncio.wait([receiving], timeout=HUNG)
            ended = "cancelled" if receiving in done and receiving.cancelled() else "hung"
            if ended == "hung":
                receiving.cancel()
            # the message waits for the next receive
            message = await asyncio.wait_for(layer.receive(channel), HUNG)
            return ended, message
        finally:
            await layer.flush()
            await layer.close_pools()

    # a thread of its own: a browser test before it in this process leaves Playwright's loop
    # running in the main thread
    with ThreadPoolExecutor(1) as thread:
        ended, message = thread.submit(asyncio.run, scenario()).result()
    assert ended == "cancelled"
    assert message == {"type": "table.version", "version": 7}
