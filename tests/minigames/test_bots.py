"""Bot moves and reaction timeouts through the services and the beat task's body (issue 12:
"a bot's move can be stale too: it is then recomputed"; RAIGO "Reactions ... wait on the seats
that may react, with a timeout after which a human seat declines"). The worker itself is
exercised in test_worker.py."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from minigames import services
from minigames.engines.registry import get_engine
from minigames.models import TavernAction, TavernTable

pytestmark = pytest.mark.django_db


def test_a_stale_bot_move_is_recomputed(player):
    """The bot computed its move from an old version (the table moved meanwhile): the apply
    is a 409 inside the task, and the move is recomputed from the current state."""
    engine = get_engine("raigo")
    table = services.tavern_create(
        by=player,
        game="raigo",
        campaign=None,
        seats=[services.SeatSpec(kind="bot", strength="random"), services.SeatSpec(kind="host")],
    )
    services.tavern_start(table_id=table.pk, by=player)
    # (No on-commit tasks run in this test: the bot moves only when called.) Play until the
    # bot seat is asked twice in a row (a RAIGO Fetch: a token, then another or the end).
    for _ in range(400):
        t = TavernTable.objects.get(pk=table.pk)
        state = engine.from_json(t.state)
        assert not engine.is_terminal(state)
        if 0 not in engine.waiting_on(state):
            services.tavern_action_apply(
                table_id=t.pk, by=player, action=engine.legal_actions(state, 1)[0],
                expected_version=t.version,
            )  # fmt: skip
            continue
        seen = (state, t.version)
        assert services.tavern_bot_play(t.pk, 0) == f"played at v{t.version}"
        now = TavernTable.objects.get(pk=t.pk)
        if 0 in engine.waiting_on(engine.from_json(now.state)):
            break
    else:
        raise AssertionError("the bot was never asked twice in a row")
    # A late duplicate of the first task, computed from the old snapshot: 409, recomputed.
    result = services.tavern_bot_play(now.pk, 0, seen=seen)
    assert result == f"played at v{now.version} after 1 stale"
    assert TavernTable.objects.get(pk=now.pk).version == now.version + 1


def test_a_reaction_timeout_declines_for_a_human(player):
    """RAIGO: a human seat asked to react who does not answer in time declines (the engine's
    timeout_action), applied by the beat task through the table core."""
    from minigames.tasks import tavern_reaction_timeouts
    from tests.factories import UserFactory

    engine = get_engine("raigo")
    other = UserFactory(username="reactor")
    users = {0: player, 1: other}
    rng = random.Random(5)

    def play_until_a_reaction():
        """A new table played by random legal moves until a seat may react; None if the game
        ends first (a table's deal is its own, and some random games never offer a reaction)."""
        table = services.tavern_create(
            by=player,
            game="raigo",
            campaign=None,
            seats=[services.SeatSpec(kind="host"), services.SeatSpec(kind="open")],
            reaction_seconds=30,
        )
        services.tavern_join(table_id=table.pk, by=other, index=1)
        services.tavern_start(table_id=table.pk, by=player)
        for _ in range(4000):
            t = TavernTable.objects.get(pk=table.pk)
            state = engine.from_json(t.state)
            if engine.is_terminal(state):
                return None
            waiting = engine.waiting_on(state)
            timeouts = [s for s in waiting if engine.timeout_action(state, s) is not None]
            if timeouts:
                return t, state, timeouts
            seat = rng.choice(list(waiting))
            services.tavern_action_apply(
                table_id=t.pk, by=users[seat], action=rng.choice(engine.legal_actions(state, seat)),
                expected_version=t.version,
            )  # fmt: skip
        return None

    found = None
    for _ in range(5):
        found = play_until_a_reaction()
        if found:
            break
    assert found, "no reaction came up in five random games"
    t, state, timeouts = found
    seat = timeouts[0]
    expected = engine.timeout_action(state, seat)
    # Not yet: the seat still has time.
    assert tavern_reaction_timeouts.apply().get() == 0
    TavernTable.objects.filter(pk=t.pk).update(updated_at=timezone.now() - timedelta(seconds=31))
    assert tavern_reaction_timeouts.apply().get() == 1
    row = TavernAction.objects.filter(table_id=t.pk).order_by("-seq").first()
    assert row.seat == str(seat) and row.actor_id is None and row.action == expected


def _waiting_on_the_bot(player):
    """A started RAIGO table (the bot in seat 0) played by the human until it waits on the bot
    alone; no on-commit task runs in these tests, so the bot's move is never made: lost."""
    engine = get_engine("raigo")
    table = services.tavern_create(
        by=player, game="raigo", campaign=None,
        seats=[services.SeatSpec(kind="bot", strength="random"), services.SeatSpec(kind="host")],
    )  # fmt: skip
    services.tavern_start(table_id=table.pk, by=player)
    for _ in range(400):
        t = TavernTable.objects.get(pk=table.pk)
        state = engine.from_json(t.state)
        if list(engine.waiting_on(state)) == [0]:
            return t
        services.tavern_action_apply(
            table_id=t.pk, by=player, action=engine.legal_actions(state, 1)[0],
            expected_version=t.version,
        )  # fmt: skip
    raise AssertionError("the table never waited on the bot alone")


def test_a_lost_bot_move_is_enqueued_again_once_the_table_waited_longer_than_its_budget(
    player, settings
):
    """The sweep (``minigames.requeue_lost_bot_moves``, beat) enqueues the move of a bot the
    table has waited on longer than ``TAVERN_BOT_STALE_SECONDS``, not before; the move runs
    (eagerly here) and the table moves on."""
    table = _waiting_on_the_bot(player)
    budget = settings.TAVERN_BOT_STALE_SECONDS
    soon = table.updated_at + timedelta(seconds=budget - 1)
    assert services.tavern_lost_bot_moves(now=soon) == 0
    late = table.updated_at + timedelta(seconds=budget + 1)
    assert services.tavern_lost_bot_moves(now=late) == 1
    moved = TavernTable.objects.get(pk=table.pk)
    assert moved.version == table.version + 1
    assert TavernAction.objects.filter(table=moved, seq=moved.version, seat="0").exists()


def test_a_late_bot_move_leaves_a_table_that_moved_on_alone(player):
    """Idempotent on the version: a bot move asked for at a version the table has left (a
    message redelivered an hour late, or a second copy from the sweep) plays nothing."""
    table = _waiting_on_the_bot(player)
    assert services.tavern_bot_play(table.pk, 0, version=table.version - 1) == (
        f"moved on to v{table.version}"
    )
    assert TavernTable.objects.get(pk=table.pk).version == table.version
    assert services.tavern_bot_play(table.pk, 0, version=table.version).startswith("played")
