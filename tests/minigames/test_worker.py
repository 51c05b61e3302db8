"""Bots and timeouts through a real Celery worker on the real Redis broker (issue 12: "a bot
seat's move is computed in a Celery task, never in a web request, and applied through the
same service as a human's (a bot's move can be stale too: it is then recomputed)"; RAIGO
"Reactions ... wait on the seats that may react, with a timeout after which a human seat
declines").

The worker is tests/notifications/celery_worker.py's ``celery -A config worker`` subprocess.
"""

from __future__ import annotations

import random

import pytest

from minigames import services
from minigames.engines.registry import get_engine
from minigames.models import TavernAction, TavernTable
from tables.errors import StaleVersion
from tests.minigames.conftest import to_a_choice, two_humans
from tests.notifications.celery_worker import CeleryWorker, real_publishing, wait_for

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("celery-worker"),
]


@pytest.fixture(scope="module")
def worker(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), real_publishing():
        w = CeleryWorker()
        try:
            w.start()
            yield w
        finally:
            w.stop()


def _bot_table(host, game="spirit_war", strength="random"):
    table = services.tavern_create(
        by=host,
        game=game,
        campaign=None,
        seats=[services.SeatSpec(kind="host"), services.SeatSpec(kind="bot", strength=strength)],
    )
    services.tavern_start(table_id=table.pk, by=host)
    return TavernTable.objects.get(pk=table.pk)


def test_bot_moves_in_the_worker(worker, player):
    """A human plays against a heuristic bot: each time the table waits on the bot, the worker
    computes its move and applies it through the table core (the log row has no actor)."""
    from config.celery import app

    assert app.conf.task_always_eager is False
    engine = get_engine("spirit_war")
    table = _bot_table(player, strength="heuristic")
    rng = random.Random(3)
    human_moves = 0
    while human_moves < 8:

        def human_turn() -> bool:
            t = TavernTable.objects.get(pk=table.pk)
            s = engine.from_json(t.state)
            return engine.is_terminal(s) or 0 in engine.waiting_on(s)

        wait_for(human_turn, timeout=30, what=f"the bot's move:\n{worker.output()}")
        t = TavernTable.objects.get(pk=table.pk)
        state = engine.from_json(t.state)
        if engine.is_terminal(state):
            break
        try:
            services.tavern_action_apply(
                table_id=t.pk,
                by=player,
                action=rng.choice(engine.legal_actions(state, 0)),
                expected_version=t.version,
            )
        except StaleVersion:
            continue  # a simultaneous choice: the bot answered first; read the table again
        human_moves += 1
    # Let the worker finish what the last move enqueued (the bot's answer, the turn notice).
    wait_for(human_turn, timeout=30, what=f"the bot's last move:\n{worker.output()}")
    worker.wait_ready(20)
    bot_rows = TavernAction.objects.filter(table_id=table.pk, seat="1")
    assert bot_rows.exists() and not bot_rows.filter(actor__isnull=False).exists()


def test_the_advisor_searches_in_the_worker(worker, api_for, player, other_player):
    """The advisor's second of search runs in a worker, never in the web request: the first ask
    answers 202 with no advice, and once the worker has searched, the same version's advice is
    there: one entry per legal move, in their order."""
    table = two_humans("spirit_war", player, other_player, practice=True, advisor=True)
    users = {0: player, 1: other_player}
    seat = to_a_choice(table, users)
    client = api_for(users[seat])
    url = f"/api/tavern/tables/{table.pk}/advice/"
    first = client.get(url)
    assert first.status_code == 202
    assert first.json() == {"version": table.version, "advice": None}
    wait_for(
        lambda: client.get(url).status_code == 200,
        timeout=30,
        what=f"the worker's advice:\n{worker.output()}",
    )
    answer = client.get(url).json()
    moves = client.get(f"/api/tavern/tables/{table.pk}/state/").json()["moves"]
    assert answer["version"] == table.version
    assert [a["action"] for a in answer["advice"]] == [m["action"] for m in moves]
    assert all(0 <= a["win_chance"] <= 1 for a in answer["advice"])
    assert sum(a["visits"] for a in answer["advice"]) > 0  # a search ran
