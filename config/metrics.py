"""Prometheus metrics: django-prometheus's (requests, responses, latency by view) and ours, at
``/metrics`` for a scraper that holds ``METRICS_TOKEN`` (docs/operations.md, "What to watch").

Ours:

* ``westernroses_moves_total{game, by}``: moves applied; ``by`` is ``player`` (a move sent to a
  table's actions endpoint and accepted, counted by :class:`MoveMetricsMiddleware`) or ``bot``
  (a bot's move played in a worker, :func:`_bot_move_done`). ``game`` is the game's slug.
* ``westernroses_move_seconds{game}``: the time from a move's request to its answer, whatever
  the answer (a 409 is a move too, for the player who waited for it).
* ``westernroses_celery_queue_length{queue}``: messages waiting in each Celery queue, asked of
  Redis at each scrape (so every web process reports the same, true number).
* ``westernroses_notification_deliveries_pending`` and
  ``westernroses_notification_deliveries_failed_24h``: deliveries not sent yet, and those that
  failed for good in the last day, asked of PostgreSQL at each scrape (each on a partial index
  of its own rows: failures are rare and pending rows leave quickly).
* ``westernroses_open_websockets``: WebSocket connections open; nothing sets it until the site
  has WebSockets (their consumer will ``inc()`` and ``dec()`` it), so it reads 0.

Several processes (gunicorn's workers) each count their own: with ``PROMETHEUS_MULTIPROC_DIR``
set (``config/gunicorn.py`` sets one for its workers), each writes its counts there and the
endpoint sums the files, so any worker's answer covers them all. A Celery worker counts its bot
moves in the same way when it shares that directory (a machine running both); elsewhere it
keeps them in its own process.
"""

from __future__ import annotations

import hmac
import os
import re
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from django.utils import timezone
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

MOVES = Counter(
    "westernroses_moves",
    "Moves applied, by game and by who made them (player or bot).",
    ["game", "by"],
)
MOVE_SECONDS = Histogram(
    "westernroses_move_seconds",
    "Seconds from a move's request to its answer, by game.",
    ["game"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
OPEN_WEBSOCKETS = Gauge(
    "westernroses_open_websockets",
    "WebSocket connections open (0 until the site has WebSockets).",
    multiprocess_mode="livesum",
)

#: A table's actions endpoint: ``api-<game>-actions`` (tables.api, battles, the tavern).
_MOVE_ROUTE = re.compile(r"^api-(?P<game>[a-z0-9_]+)-actions$")


class MoveMetricsMiddleware:
    """Counts and times the moves sent to the tables' actions endpoints (a ``POST`` to a route
    named ``api-<game>-actions``). The game is the answer's own ``game`` where it names one
    (a tavern table: ``raigo``, ``spirit_war`` ...), else the route's (``battle``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        if request.method != "POST" or request.resolver_match is None:
            return response
        route = _MOVE_ROUTE.match(request.resolver_match.url_name or "")
        if route is None:
            return response
        data = getattr(response, "data", None)
        game = str(data.get("game") or "") if isinstance(data, dict) else ""
        game = game if re.fullmatch(r"[a-z0-9_]{1,40}", game) else route["game"]
        MOVE_SECONDS.labels(game).observe(time.perf_counter() - started)
        if 200 <= response.status_code < 300:
            MOVES.labels(game, "player").inc()
        return response


def bot_move_done(sender: Any = None, result: Any = None, **kwargs: Any) -> None:
    """Celery's ``task_success`` for a bot's move: counted when it played."""
    if getattr(sender, "name", "") != "minigames.bot_move" or not str(result).startswith("played"):
        return
    from minigames.models import TavernTable

    args = sender.request.args or [0]
    game = (
        TavernTable.objects.filter(pk=int(args[0])).values_list("game", flat=True).first()
        or "tavern"
    )
    MOVES.labels(game, "bot").inc()


class LiveCollector(Collector):
    """What is true of the whole site, asked at each scrape: the Celery queues' lengths in
    Redis and the notification deliveries waiting or failed in PostgreSQL."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        queues = GaugeMetricFamily(
            "westernroses_celery_queue_length",
            "Messages waiting in each Celery queue.",
            labels=["queue"],
        )
        for name, length in queue_lengths().items():
            queues.add_metric([name], length)
        yield queues
        from notifications.models import Delivery

        yield GaugeMetricFamily(
            "westernroses_notification_deliveries_pending",
            "Notification deliveries not sent yet (retries included).",
            value=Delivery.objects.filter(status="pending").count(),
        )
        yield GaugeMetricFamily(
            "westernroses_notification_deliveries_failed_24h",
            "Notification deliveries that failed for good in the last 24 hours.",
            value=Delivery.objects.filter(
                status="failed", updated_at__gte=timezone.now() - timedelta(days=1)
            ).count(),
        )


def queue_lengths() -> dict[str, int]:
    """Messages waiting in each queue of ``CELERY_QUEUE_NAMES`` (kombu's Redis keys: the
    queue's list and one list per priority step); empty without a Redis broker."""
    url = settings.CELERY_BROKER_URL
    if not url.startswith(("redis://", "rediss://")):
        return {}
    import redis

    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    prefix = str(options.get("global_keyprefix", ""))
    steps = (0, 3, 6, 9)
    client = redis.Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0)
    try:
        with client.pipeline(transaction=False) as pipe:
            for name in settings.CELERY_QUEUE_NAMES:
                for step in steps:
                    pipe.llen(f"{prefix}{name}" + (f"\x06\x16{step}" if step else ""))
            lengths = pipe.execute()
    finally:
        client.close()
    per_queue = len(steps)
    return {
        name: sum(lengths[i * per_queue : (i + 1) * per_queue])
        for i, name in enumerate(settings.CELERY_QUEUE_NAMES)
    }


def registry() -> CollectorRegistry:
    """This process's metrics, or every process's through the multiprocess directory."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        merged = CollectorRegistry()
        multiprocess.MultiProcessCollector(merged)
        return merged
    return REGISTRY


def metrics_view(request: HttpRequest) -> HttpResponse:
    """``GET /metrics``: the metrics, for a scraper sending ``Authorization: Bearer
    <METRICS_TOKEN>``. Without a token configured the address answers 404, as if it did not
    exist; a missing or wrong token gets 401."""
    token = settings.METRICS_TOKEN
    if not token:
        return HttpResponseNotFound()
    sent = request.headers.get("Authorization", "")
    if not hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
        response = HttpResponse("A scraper's token is needed.\n", status=401)
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    live = CollectorRegistry()
    live.register(LiveCollector())
    body = generate_latest(registry()) + generate_latest(live)
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)
