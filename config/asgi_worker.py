"""The web process's gunicorn worker: uvicorn's (``uvicorn-worker``), set for this app.

gunicorn stays the process manager (workers started, watched and restarted, the
``post_worker_init`` hook of ``config/gunicorn.py``); each worker is an asyncio event loop that
reads requests without holding anything for a slow client, and hands Django complete requests
through :mod:`config.request_guard`. Its settings: the plain asyncio loop and the h11 parser
(pure Python, nothing to compile), no lifespan messages (Django has none), at most
``WEB_CONNECTIONS`` open connections per worker (a 503 past them), a request's head at most
16 kB, and an idle keep-alive connection closed after gunicorn's ``keepalive`` seconds.
"""

from __future__ import annotations

import os
from typing import Any, ClassVar

from uvicorn_worker import UvicornWorker


class Worker(UvicornWorker):  # type: ignore[misc]  # uvicorn-worker ships no types
    CONFIG_KWARGS: ClassVar[dict[str, Any]] = {
        "loop": "asyncio",
        "http": "h11",
        "lifespan": "off",
        "limit_concurrency": int(os.environ.get("WEB_CONNECTIONS", "1000")),
        "h11_max_incomplete_event_size": 16 * 1024,
    }
