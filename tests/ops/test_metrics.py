"""Prometheus metrics at /metrics: only for the holder of METRICS_TOKEN, with django-prometheus's
request metrics and ours (moves and their time by game, each Celery queue's length in Redis,
deliveries waiting and failed, open WebSockets), read through the real endpoint."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from notifications import notify
from notifications.models import Delivery, NotificationPreference
from tables import services
from tables.registry import game_for
from tests.games.duel import ENGINE
from tests.games.duel_tables.models import DuelTable
from tests.notifications.celery_worker import real_publishing

pytestmark = pytest.mark.django_db

TOKEN = "a-scrapers-token-0123456789"


def scrape() -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of /metrics: (name, sorted labels) → value."""
    answer = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert answer.status_code == 200, answer.content[:300]
    assert answer["Content-Type"].startswith("text/plain")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(answer.content.decode())
        for sample in family.samples
    }


def test_metrics_answer_only_the_holder_of_the_token(client, settings):
    settings.METRICS_TOKEN = ""
    assert client.get("/metrics").status_code == 404  # off: as if there were no such page
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 404
    settings.METRICS_TOKEN = TOKEN
    assert client.get("/metrics").status_code == 401
    wrong = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}x")
    assert wrong.status_code == 401
    assert wrong["WWW-Authenticate"] == 'Bearer realm="metrics"'
    assert b"westernroses" not in wrong.content
    assert client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").status_code == 200


@pytest.mark.urls("tests.games.duel_tables.urls")
def test_moves_are_counted_and_timed_by_game(campaign, player, other_player, api_for, settings):
    """Two accepted moves and a stale one at a duel table: moves_total{game="duel"} goes up by
    two, the time histogram by three (a 409 kept its player waiting too)."""
    settings.METRICS_TOKEN = TOKEN
    client = api_for(player)
    before = scrape()
    state = ENGINE.new_game(seats=2, seed=7)
    table = services.table_create(
        game_for("duel"),
        table=DuelTable(campaign=campaign, seat0=player, seat1=other_player),
        state=state,
    )
    url = f"/api/duels/{table.pk}/actions/"
    for seat, user in enumerate((player, other_player)):
        move = {"action": {"type": "play", "card": state["hands"][seat][0]}}
        answer = api_for(user).post(url, {**move, "expected_version": seat}, format="json")
        assert answer.status_code == 201, answer.content
    stale = {"action": {"type": "play", "card": state["hands"][0][1]}, "expected_version": 0}
    assert client.post(url, stale, format="json").status_code == 409
    after = scrape()

    def grew(name: str, **labels: str) -> float:
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0.0) - before.get(key, 0.0)

    assert grew("westernroses_moves_total", game="duel", by="player") == 2
    assert grew("westernroses_move_seconds_count", game="duel") == 3
    assert grew("westernroses_move_seconds_bucket", game="duel", le="+Inf") == 3
    assert grew("westernroses_move_seconds_sum", game="duel") > 0
    # django-prometheus's own, by view
    assert any(name == "django_http_requests_total_by_view_transport_method_total"
               for name, _ in after)  # fmt: skip


def test_queue_lengths_deliveries_and_sockets_are_reported(campaign, player, settings):
    """Three messages waiting in "notify" (published for real, no worker to take them), a
    pending delivery and one failed in the last day (one failed a week ago no longer counts),
    no WebSocket open."""
    settings.METRICS_TOKEN = TOKEN
    from notifications.tasks import ping

    NotificationPreference.objects.create(user=player, channels={"loot_awarded": ["in_app"]})
    notes = [
        notify(recipient=player, event="loot_awarded", campaign=campaign, title=f"Loot {n}")
        for n in range(3)
    ]
    Delivery.objects.filter(notification=notes[0]).update(status="failed")
    Delivery.objects.filter(notification=notes[1]).update(
        status="failed", updated_at=timezone.now() - timedelta(days=7)
    )
    with real_publishing():
        for _ in range(3):
            ping.apply_async()
        samples = scrape()
    assert samples[("westernroses_celery_queue_length", (("queue", "notify"),))] == 3
    for queue in ("turns", "bots", "bulk"):
        assert samples[("westernroses_celery_queue_length", (("queue", queue),))] == 0
    assert samples[("westernroses_notification_deliveries_pending", ())] == 1
    assert samples[("westernroses_notification_deliveries_failed_24h", ())] == 1
    assert samples[("westernroses_open_websockets", ())] == 0


def test_a_bot_move_played_in_a_worker_is_counted(player, settings):
    """A RAIGO bot's move, played by the bot task (run here in this process, as a worker runs
    it): moves_total{game="raigo", by="bot"} goes up by one; a late run that finds the table
    moved on plays nothing and counts nothing."""
    from minigames import services as tavern
    from minigames.engines.registry import get_engine
    from minigames.models import TavernTable
    from minigames.tasks import tavern_bot_move

    settings.METRICS_TOKEN = TOKEN
    engine = get_engine("raigo")
    table = tavern.tavern_create(
        by=player,
        game="raigo",
        campaign=None,
        seats=[tavern.SeatSpec(kind="bot", strength="random"), tavern.SeatSpec(kind="host")],
    )
    tavern.tavern_start(table_id=table.pk, by=player)
    for _ in range(50):  # the host moves until the bot is asked
        row = TavernTable.objects.get(pk=table.pk)
        state = engine.from_json(row.state)
        if 0 in engine.waiting_on(state):
            break
        tavern.tavern_action_apply(
            table_id=row.pk,
            by=player,
            action=engine.legal_actions(state, 1)[0],
            expected_version=row.version,
        )
    before = scrape()
    key = ("westernroses_moves_total", (("by", "bot"), ("game", "raigo")))
    assert tavern_bot_move.apply(args=[row.pk, 0, row.version]).get().startswith("played")
    assert tavern_bot_move.apply(args=[row.pk, 0, row.version]).get().startswith("moved on")
    assert scrape()[key] - before.get(key, 0.0) == 1
