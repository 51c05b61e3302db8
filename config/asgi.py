"""ASGI entry point: the production web process (gunicorn with uvicorn's workers,
``config/gunicorn.py``), for HTTP and the WebSockets of pushed updates (``config/websockets.py``).

Django's WSGI application runs in a fixed pool of ``WEB_THREADS`` threads per worker process
(a2wsgi's bridge), each keeping its database connection between requests as a sync worker did,
behind :class:`config.request_guard.RequestGuard`, which reads each request's whole body on the
event loop first (a slow client holds a coroutine, never one of those threads) and hands it
to Django from memory.
"""

import os

from a2wsgi import WSGIMiddleware
from django.conf import settings
from django.core.wsgi import get_wsgi_application

from config.request_guard import RequestGuard, with_read_body

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

django_application = get_wsgi_application()

http_application = RequestGuard(
    WSGIMiddleware(with_read_body(django_application), workers=int(settings.WEB_THREADS)),  # type: ignore[arg-type]
    body_seconds=float(settings.REQUEST_BODY_TIMEOUT),
    max_body_bytes=int(settings.MAX_REQUEST_BODY_BYTES),
)

# Imported once Django is set up: the consumers use its models.
from channels.routing import ProtocolTypeRouter  # noqa: E402

from config.websockets import websocket_application  # noqa: E402

application = ProtocolTypeRouter({"http": http_application, "websocket": websocket_application()})
