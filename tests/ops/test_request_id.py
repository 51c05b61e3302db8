"""One id follows a move from its request into the Celery tasks it starts: the request's id
(django-guid's, in the response's X-Request-ID) is on the JSON log lines of the "your turn" task
a real worker ran for it, and of the delivery that task enqueued in turn."""

from __future__ import annotations

import json
import re

import pytest

from notifications.models import Delivery
from tables import services
from tables.registry import game_for
from tests.games.duel import ENGINE
from tests.games.duel_tables.models import DuelTable
from tests.notifications.celery_worker import CeleryWorker, real_publishing, wait_for

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("celery-worker"),
]


def json_lines(text: str) -> list[dict]:
    lines = []
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict):
            lines.append(record)
    return lines


@pytest.mark.urls("tests.games.duel_tables.urls")
def test_the_request_id_of_a_move_is_on_its_tasks_log_lines(
    campaign, player, other_player, api_for
):
    state = ENGINE.new_game(seats=2, seed=7)
    table = services.table_create(
        game_for("duel"),
        table=DuelTable(campaign=campaign, seat0=player, seat1=other_player),
        state=state,
    )
    url = f"/api/duels/{table.pk}/actions/"
    first = {"action": {"type": "play", "card": state["hands"][0][0]}, "expected_version": 0}
    assert api_for(player).post(url, first, format="json").status_code == 201
    with real_publishing():
        worker = CeleryWorker(loglevel="INFO", environ={"LOG_FORMAT": "json"})
        try:
            worker.start()
            second = {
                "action": {"type": "play", "card": state["hands"][1][0]},
                "expected_version": 1,
            }
            answer = api_for(other_player).post(url, second, format="json")
            assert answer.status_code == 201, answer.content
            request_id = answer["X-Request-ID"]
            assert len(request_id) >= 32
            wait_for(
                lambda: (
                    Delivery.objects.filter(
                        notification__event="your_turn", channel="in_app", status="sent"
                    ).count()
                    == 2
                ),
                what=f"both your_turn deliveries:\n{worker.output()}",
            )
            # the task's "succeeded" line comes just after its delivery was committed
            wait_for(
                lambda: re.search(
                    r"notifications\.deliver_in_app\[[^\]]+\] succeeded", worker.log_text()
                ),
                what=worker.output(),
            )
            records = json_lines(worker.log_text())
        finally:
            worker.stop()
    assert records, "the worker logs JSON lines"
    assert {"timestamp", "level", "name", "message", "request_id"} <= set(records[-1])
    ours = [r for r in records if r.get("request_id") == request_id]
    said = " ".join(r["message"] for r in ours)
    assert "tables.turn_notify" in said and "succeeded" in said, records[-10:]
    assert "notifications.deliver_in_app" in said, records[-10:]
    # the pings that checked the worker was up came from no request: their ids are others
    pings = [
        r for r in records if "notifications.ping" in r["message"] and "succeeded" in r["message"]
    ]
    assert pings and all(r.get("request_id") != request_id for r in pings)
