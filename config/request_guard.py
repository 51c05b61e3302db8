"""The web process's front door (ASGI): a request's body must arrive in time, and in size,
before the app sees the request.

Why: a sync gunicorn worker reads the body itself, so a client that announced 100,000 bytes and
sent 18 held that worker, and every request behind it, for the worker's whole timeout (30 s).
The web process is now an event loop (gunicorn's process manager running uvicorn's worker,
``config/asgi_worker.py``): a slow body costs a waiting coroutine, not a worker, and this guard
bounds even that. It reads the whole body first, on the loop, within ``REQUEST_BODY_TIMEOUT``
seconds (else **408**) and ``MAX_REQUEST_BODY_BYTES`` (else **413**, also for a chunked body
that announced no size), both answered with ``Connection: close``; only then does Django see the
request, with the body already there.

The body read here is handed to Django whole (:func:`with_read_body`): the WSGI bridge would
otherwise fetch it again from the event loop, one cross-thread hop per read on every POST.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

#: Where the guard leaves the body it read, in the scope it passes on (a WSGI app finds the
#: scope in ``environ["asgi.scope"]``, a2wsgi's key).
BODY_KEY = "westernroses.body"

TOO_SLOW = b"The request's body did not arrive in time: nothing was read."
TOO_LARGE = b"The request is larger than this server takes: nothing was read."


class BodyTooLarge(Exception):
    """The body grew past the limit while it was read (a chunked body announces no size)."""


class RequestGuard:
    """Wraps an ASGI app (Django's): see the module's docstring."""

    def __init__(self, app: ASGIApp, *, body_seconds: float, max_body_bytes: int) -> None:
        self.app = app
        self.body_seconds = body_seconds
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            async with asyncio.timeout(self.body_seconds):
                messages = await self._read_body(receive)
        except TimeoutError:
            await _answer(send, 408, TOO_SLOW)
            return
        except BodyTooLarge:
            await _answer(send, 413, TOO_LARGE)
            return
        if messages is None:
            return  # the client went away before its body was in: nobody to answer
        body = b"".join(message.get("body", b"") for message in messages)
        await self.app({**scope, BODY_KEY: body}, _replay(messages, receive), send)

    async def _read_body(self, receive: Receive) -> list[Message] | None:
        """Every ``http.request`` message of the body, or None if the client disconnected."""
        messages: list[Message] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            messages.append(message)
            size += len(message.get("body", b""))
            if size > self.max_body_bytes:
                raise BodyTooLarge
            if not message.get("more_body", False):
                return messages


def with_read_body(app: WSGIApp) -> WSGIApp:
    """``app`` reading the body the guard read (from memory, in the request's own thread)
    instead of asking the bridge, which fetches it from the event loop's thread."""

    def read_body_first(
        environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Iterable[bytes]:
        body = environ.get("asgi.scope", {}).get(BODY_KEY)
        if body is not None:
            environ["wsgi.input"] = io.BytesIO(body)
        return app(environ, start_response)

    return read_body_first


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """``receive`` for the app: the body read already, then the connection's own messages (a
    disconnect, which Django listens for while the view runs)."""
    pending = list(messages)

    async def replay() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replay


async def _answer(send: Send, status: int, text: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(text)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": text})
