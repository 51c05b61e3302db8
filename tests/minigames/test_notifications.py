"""'Your turn' at the tavern: once per turn, not once per step of it. A seat's wait begins when
the table starts waiting on her after it did not, and goes on while she keeps acting (a RAIGO
turn's steps, her own consecutive moves); the next one begins only after the table stopped
waiting on her. Celery runs eagerly here (test settings); what would run on commit is run after
each move."""

from __future__ import annotations

import random
from typing import Any

import pytest

from minigames import services
from minigames.engines.registry import get_engine
from notifications.models import Notification, TurnWait

from .conftest import two_humans

pytestmark = pytest.mark.django_db


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """Run what would run on commit (the test's transaction never commits)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def _play(table: Any, users: dict[int, Any], committed: Any, seed: int, moves: int) -> list[int]:
    """Play ``moves`` random legal moves for the human seats, each committed (its on-commit
    callbacks run); returns how many waits each seat began: the times the table went from not
    waiting on her to waiting on her (the start counts as one)."""
    engine = get_engine(table.game)
    rng = random.Random(seed)
    table.refresh_from_db()
    state = engine.from_json(table.state)
    waited = set(engine.waiting_on(state))
    began = [1 if seat in waited else 0 for seat in range(len(users))]
    for _ in range(moves):
        if engine.is_terminal(state):
            break
        seat = rng.choice(list(engine.waiting_on(state)))
        action = rng.choice(engine.legal_actions(state, seat))
        with committed():
            services.tavern_action_apply(
                table_id=table.pk, by=users[seat], action=action, expected_version=table.version
            )
        table.refresh_from_db()
        state = engine.from_json(table.state)
        now = set(engine.waiting_on(state))
        for s in now - waited:
            began[s] += 1
        waited = now
    return began


@pytest.mark.parametrize(("game", "seed"), [("raigo", 1), ("raigo", 2), ("spirit_war", 3)])
def test_one_your_turn_per_turn_not_per_step(game, seed, player, other_player, committed):
    with committed():
        table = two_humans(game, player, other_player)
    users = {0: player, 1: other_player}
    began = _play(table, users, committed, seed, moves=150)
    for seat, user in users.items():
        notes = Notification.objects.filter(recipient=user, event="your_turn")
        keys = list(notes.values_list("dedupe_key", flat=True))
        # one alert per table (issue 39): each new turn's replaced the one before
        assert notes.count() == min(began[seat], 1), (seat, keys)
        # each of her waits is one turn row; at most the current one is open
        assert TurnWait.objects.filter(user=user).count() == began[seat]
        assert TurnWait.objects.filter(user=user, ended_at__isnull=True).count() <= 1
    # the steps of one turn are one wait: fewer waits than moves
    assert sum(began) < table.actions.count()


def _until_her_turn(table: Any, users: dict[int, Any], her: Any, committed: Any) -> Any:
    """Play the others' first legal moves until "your turn" reaches ``her`` at ``table``."""
    engine = get_engine(table.game)
    url = f"/tavern/tables/{table.pk}/"
    for _ in range(40):
        note = Notification.objects.filter(recipient=her, event="your_turn", url=url).first()
        if note is not None:
            return note
        table.refresh_from_db()
        state = engine.from_json(table.state)
        seat = next(s for s in engine.waiting_on(state) if users[s] != her)
        with committed():
            _first_move(table, state, seat, users)
    raise AssertionError("her turn never came")


def _first_move(table: Any, state: Any, seat: int, users: dict[int, Any]) -> None:
    """``seat``'s first legal move in ``state``, sent by her user at the table's version."""
    services.tavern_action_apply(
        table_id=table.pk,
        by=users[seat],
        action=get_engine(table.game).legal_actions(state, seat)[0],
        expected_version=table.version,
    )


def test_your_turn_names_the_game_and_the_table(
    player, other_player, outsider, campaign, marisa, committed
):
    """Two Spirit War tables: each "your turn" names the game and who else sits there (the
    table), in words; the body carries the game's summary."""
    with committed():
        at_home = two_humans(
            "spirit_war", player, other_player, campaign=campaign, guest_character=marisa
        )
        open_table = two_humans("spirit_war", player, outsider)
    one = _until_her_turn(at_home, {0: player, 1: other_player}, player, committed)
    two = _until_her_turn(open_table, {0: player, 1: outsider}, player, committed)
    assert one.title == "Your move at Spirit War with Marisa"
    assert two.title == f"Your move at Spirit War with {outsider.shown_name}"
    for note, table in ((one, at_home), (two, open_table)):
        table.refresh_from_db()
        assert note.body == table.summary  # "Turn 1: ... to draw."
        assert "_" not in note.title + note.body


def _to_a_spell_to_answer(
    table: Any, users: dict[int, Any], committed: Any, rng: random.Random
) -> Any | None:
    """Random legal moves until a spell is to be answered in someone else's turn (the state),
    or None if the game ends first."""
    engine = get_engine(table.game)
    while True:
        table.refresh_from_db()
        state = engine.from_json(table.state)
        prompt = state["prompt"]
        if (
            prompt is not None
            and prompt["kind"] == "react"
            and state["turn"]["seat"] not in prompt["asked"]
        ):
            return state
        if engine.is_terminal(state):
            return None
        seat = rng.choice(list(engine.waiting_on(state)))
        with committed():
            services.tavern_action_apply(
                table_id=table.pk,
                by=users[seat],
                action=rng.choice(engine.legal_actions(state, seat)),
                expected_version=table.version,
            )


def test_a_spell_to_answer_in_someone_elses_turn_says_which_spell(player, other_player, committed):
    """RAIGO asks a player to answer a spell in the caster's turn (Shield, Roar): her "your
    move" says which spell, on what, rather than the game's summary ("Turn 12: Marisa to
    play"), which named someone else's turn. (A table's deal is random: games are played until
    one brings such a spell.)"""
    users = {0: player, 1: other_player}
    engine = get_engine("raigo")
    rng = random.Random(5)
    for _ in range(8):
        with committed():
            table = two_humans("raigo", player, other_player)
        state = _to_a_spell_to_answer(table, users, committed, rng)
        if state is not None:
            break
    else:
        raise AssertionError("no spell to answer in someone else's turn in eight games")
    prompt = state["prompt"]
    asked = prompt["asked"][0]
    note = (
        Notification.objects.filter(
            recipient=users[asked], event="your_turn", url=f"/tavern/tables/{table.pk}/"
        )
        .order_by("-pk")
        .first()
    )
    assert note is not None
    assert note.body == str(engine.waiting_text(state, asked))
    caster = state["names"][prompt["caster"]]
    assert note.body.startswith(f"{caster} chants ") and note.body.endswith(
        ": answer it, or let it happen."
    )
    assert note.body != table.summary


def test_still_waiting_counts_from_her_last_step_not_from_the_turns_start(
    player, other_player, committed
):
    """A RAIGO turn is several steps (fetch, select, pile or chant), one wait. The reminder
    ("still your turn") comes once the campaign's delay has passed since her last step of it
    (tables/activity.py reads the action log), not since the turn began: while she plays a
    long turn she is not told she is keeping the table waiting."""
    from datetime import timedelta

    from notifications.reminders import turn_reminders_send
    from westernroses.house_rules import DEFAULT_HOUSE_RULES

    delay = timedelta(minutes=DEFAULT_HOUSE_RULES.turn_reminder_minutes)
    with committed():
        table = two_humans("raigo", player, other_player)
    users = {0: player, 1: other_player}
    engine = get_engine("raigo")
    for _ in range(40):  # her first step that leaves the table still waiting on her
        state = engine.from_json(table.state)
        seat = next(iter(engine.waiting_on(state)))
        with committed():
            _first_move(table, state, seat, users)
        table.refresh_from_db()
        if seat in engine.waiting_on(engine.from_json(table.state)):
            break
    her = users[seat]
    wait = TurnWait.objects.get(user=her, ended_at__isnull=True)
    step = table.actions.filter(actor=her).order_by("-seq").first()
    assert step is not None and step.created_at >= wait.started_at
    # the turn began long ago (as a long turn would have); her last step was just now
    TurnWait.objects.filter(pk=wait.pk).update(started_at=step.created_at - 3 * delay)
    assert turn_reminders_send(now=step.created_at + delay - timedelta(minutes=1)) == 0
    assert not Notification.objects.filter(recipient=her, event="turn_reminder").exists()
    assert turn_reminders_send(now=step.created_at + delay) == 1
    reminder = Notification.objects.get(recipient=her, event="turn_reminder")
    assert reminder.title.startswith("Still your")
    # the other seat, not waited on, gets no reminder
    assert not Notification.objects.filter(recipient=users[1 - seat], event="turn_reminder")


def test_a_lost_turn_notice_is_told_by_the_sweep_once(player, other_player, settings):
    """The sweep (``tables.requeue_lost_waits``, beat) tells the waits of a table in play
    whose notice was lost (no on-commit task runs in this test: every notice is lost), once
    the table has been quiet longer than ``TABLE_WAITS_STALE_SECONDS``; once told, the next
    sweep finds nothing to do."""
    from datetime import timedelta

    from notifications.models import TurnWait
    from tables.services import table_lost_waits

    table = two_humans("spirit_war", player, other_player)
    assert not TurnWait.objects.exists()
    budget = settings.TABLE_WAITS_STALE_SECONDS
    assert table_lost_waits(now=table.updated_at + timedelta(seconds=budget - 1)) == 0
    late = table.updated_at + timedelta(seconds=budget + 1)
    assert table_lost_waits(now=late) == 1
    assert TurnWait.objects.filter(ended_at__isnull=True).count() >= 1
    assert table_lost_waits(now=late) == 0
