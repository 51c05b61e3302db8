"""Turn clocks (issue 39, "Turn clocks"; docs/clocks.md): a tavern table's time control, its
seats' deadlines moved by each move, the reminder, and each rule when time runs out, through
the real services and API (PostgreSQL, Redis). The arithmetic is held to its invariants by
hypothesis; the Celery worker that enforces it is in test_clocks_worker.py."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from freezegun import freeze_time
from hypothesis import given, settings
from hypothesis import strategies as st

from minigames import services
from minigames.engines.registry import get_engine
from minigames.models import TavernTable
from notifications.models import Notification
from tables.clocks import controls
from tables.clocks.models import TableClock
from tables.clocks.services import clock_set, clock_tick
from tables.registry import game_for
from tests.factories import UserFactory
from tests.minigames.conftest import two_humans
from tests.minigames.test_queries import MOVE_QUERIES, TURN_ENDS, _counted

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def control(mode: str = "move", seconds: int = 600, rule: str = "skip") -> controls.TimeControl:
    found = controls.check_control(mode, seconds, rule)
    assert found is not None
    return found


def clocked(game: str, host: Any, guest: Any, ctrl: controls.TimeControl, **kw: Any) -> Any:
    table = two_humans(game, host, guest, clock=ctrl, **kw)
    return TavernTable.objects.get(pk=table.pk)


def snapshot(table: Any) -> dict[str, Any]:
    text = TableClock.objects.get(table_label="minigames.taverntable", table_id=table.pk).snapshot
    found = controls.loads(text)
    assert found is not None
    return found


def waited(table: Any) -> int:
    engine = get_engine(table.game)
    table.refresh_from_db()
    (seat,) = engine.waiting_on(engine.from_json(table.state))
    return int(seat)


def deadline(table: Any, seat: int) -> datetime:
    found = snapshot(table)["seats"][str(seat)]["deadline"]
    assert found is not None, snapshot(table)
    return datetime.fromisoformat(found)


# --- the time control ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "seconds", "rule", "field"),
    [
        ("move", 59, "skip", "clock_seconds"),  # under a minute
        ("move", 3 * 86_400 + 1, "skip", "clock_seconds"),  # over Board Game Arena's 3 days
        ("total", 30 * 86_400 + 1, "skip", "clock_seconds"),
        ("move", 600, "resign", "clock_rule"),
        ("hourglass", 600, "skip", "clock_mode"),
        ("move", True, "skip", "clock_seconds"),
    ],
)
def test_a_time_control_out_of_bounds_is_refused_in_words(mode, seconds, rule, field):
    with pytest.raises(controls.ControlError) as caught:
        controls.check_control(mode, seconds, rule)
    assert list(caught.value.errors) == [field]
    assert "_" not in caught.value.errors[field][0].split(":")[0]


def test_the_bounds_are_board_game_arenas():
    """From 1 minute to 3 days per move (Board Game Arena's turn-based pace)."""
    assert control("move", 60).seconds == 60
    assert control("move", 3 * 86_400).words() == ("3 days per move; then the seat is skipped")
    assert controls.check_control("none") is None


_SEATS = st.sampled_from(["0", "1", "2"])


@settings(max_examples=60, deadline=None)
@given(
    mode=st.sampled_from(["move", "total"]),
    seconds=st.integers(60, 86_400),
    steps=st.lists(
        st.tuples(st.integers(0, 4000), _SEATS, st.lists(_SEATS, max_size=3, unique=True)),
        max_size=25,
    ),
)
def test_clocks_never_run_backwards_and_a_bank_never_grows(mode, seconds, steps):
    """Invariants of the arithmetic: a running seat's deadline is ``started`` plus at most the
    allowance; a total's bank never grows and never goes below zero; a seat not waited on has
    no deadline."""
    snap = controls.new_snapshot(control(mode, seconds))
    now = T0
    banks: dict[str, float] = {}
    for elapsed, mover, waiting in steps:
        now += timedelta(seconds=elapsed)
        snap = controls.after_move(
            snap, mover=mover, waiting=waiting, clocked=["0", "1", "2"], ended=False, now=now
        )
        for seat, clock in snap["seats"].items():
            assert (clock["deadline"] is not None) == (seat in waiting)
            assert 0 <= clock["remaining"] <= seconds
            if mode == "total":
                assert clock["remaining"] <= banks.get(seat, seconds) + 1e-6
                banks[seat] = clock["remaining"]
            if clock["deadline"] is not None:
                allowance = datetime.fromisoformat(clock["deadline"]) - now
                assert allowance <= timedelta(seconds=seconds)
                # a seat past her deadline is due (the task runs her out)
                assert (allowance <= timedelta(0)) == (seat in controls.due(snap, now))


def test_a_pause_keeps_what_was_left_and_a_resume_gives_it_back():
    snap = controls.after_move(
        controls.new_snapshot(control("move", 600)),
        mover=None, waiting=["0"], clocked=["0", "1"], ended=False, now=T0,
    )  # fmt: skip
    paused = controls.paused(snap, T0 + timedelta(seconds=100))
    assert paused["seats"]["0"]["deadline"] is None and paused["seats"]["0"]["remaining"] == 500
    assert controls.due(paused, T0 + timedelta(days=9)) == []
    resumed = controls.resumed(
        paused, waiting=["0"], clocked=["0", "1"], now=T0 + timedelta(hours=2)
    )
    assert resumed["seats"]["0"]["deadline"] == (T0 + timedelta(hours=2, seconds=500)).isoformat()


# --- on the table -------------------------------------------------------------------------------


def test_the_waited_seat_s_clock_starts_with_the_game_and_moves_with_each_move(
    player, other_player, api_for
):
    """Per move, 10 minutes: the seat the game waits on has until 10 minutes after the start;
    once she moved, the other seat has 10 minutes from her move, and hers stops."""
    with freeze_time(T0):
        table = clocked("raigo", player, other_player, control("move", 600))
        first = waited(table)
        assert deadline(table, first) == T0 + timedelta(minutes=10)
    users = {0: player, 1: other_player}
    with freeze_time(T0 + timedelta(minutes=3)):
        engine = get_engine("raigo")
        action = engine.legal_actions(engine.from_json(table.state), first)[0]
        services.tavern_action_apply(
            table_id=table.pk, by=users[first], action=action, expected_version=table.version
        )
        second = waited(table)
    if second != first:
        assert snapshot(table)["seats"][str(first)]["deadline"] is None
    assert deadline(table, second) == T0 + timedelta(minutes=13)
    payload = api_for(player).get(f"/api/tavern/tables/{table.pk}/state/").json()
    running = [s for s in payload["clock"]["seats"] if s["running"]]
    assert [s["seat"] for s in running] == [str(second)]
    assert payload["clock"]["words"] == "10 minutes per move; then the seat is skipped"


def test_a_total_per_player_keeps_what_she_did_not_use(player, other_player):
    """A total of 5 minutes each: a seat that moves after 2 minutes keeps 3 for later."""
    with freeze_time(T0):
        table = clocked("spirit_war", player, other_player, control("total", 300))
        first = waited(table)
    users = {0: player, 1: other_player}
    engine = get_engine("spirit_war")
    with freeze_time(T0 + timedelta(minutes=2)):
        action = engine.legal_actions(engine.from_json(table.state), first)[0]
        services.tavern_action_apply(
            table_id=table.pk, by=users[first], action=action, expected_version=table.version
        )
    clock = snapshot(table)["seats"][str(first)]
    if clock["deadline"] is None:  # the turn passed: her bank is what she had left
        assert clock["remaining"] == 180
    else:  # still her turn (a step of it): it runs on from what she had left
        assert datetime.fromisoformat(clock["deadline"]) == T0 + timedelta(minutes=5)


def test_a_reminder_goes_out_before_the_deadline_once(player, other_player):
    """A fifth of the allowance before the deadline (2 of 10 minutes), once per deadline."""
    with freeze_time(T0):
        table = clocked("raigo", player, other_player, control("move", 600))
    user = {0: player, 1: other_player}[waited(table)]
    clock_tick("minigames.taverntable", table.pk, now=T0 + timedelta(minutes=7))
    assert not Notification.objects.filter(recipient=user, event="turn_reminder").exists()
    for _ in range(2):
        clock_tick("minigames.taverntable", table.pk, now=T0 + timedelta(minutes=8, seconds=1))
    (note,) = Notification.objects.filter(recipient=user, event="turn_reminder")
    assert note.title == "1 minute 59 seconds left to move in RAIGO"
    assert note.url.endswith(f"/tavern/tables/{table.pk}/")


@pytest.mark.parametrize("rule", ["skip", "random", "heuristic"])
def test_when_time_runs_out_the_rule_plays_her_move(player, other_player, rule):
    """The seat out of time gets the table's rule: her move is played for her (logged with no
    actor), once however many times the task runs; the next seat's clock starts."""
    with freeze_time(T0):
        table = clocked("spirit_war", player, other_player, control("move", 120, rule))
    seat, version = waited(table), table.version
    clock_tick("minigames.taverntable", table.pk, now=T0 + timedelta(seconds=119))
    assert TavernTable.objects.get(pk=table.pk).version == version
    late = T0 + timedelta(seconds=121)
    with freeze_time(late):
        for _ in range(3):
            clock_tick("minigames.taverntable", table.pk, now=late)
    moved = TavernTable.objects.get(pk=table.pk)
    played = moved.actions.filter(seq__gt=version)
    assert played.count() >= 1
    assert played.order_by("seq").first().seat == str(seat)
    assert played.order_by("seq").first().actor_id is None
    for s, clock in snapshot(moved)["seats"].items():
        if clock["deadline"] is not None:
            assert datetime.fromisoformat(clock["deadline"]) > late - timedelta(seconds=1), s


def test_a_forfeit_ends_the_table_and_settles_the_stakes(
    campaign, player, other_player, reimu, marisa
):
    """Forfeit at a staked two-seat table is a resignation: the other seat wins the pot
    (Reimu 200 and Marisa 150 yen, 40 each at stake: as docs/tavern.md's resignation)."""
    with freeze_time(T0):
        table = clocked(
            "spirit_war", player, other_player, control("move", 300, "forfeit"),
            campaign=campaign, stake=40, host_character=reimu, guest_character=marisa,
        )  # fmt: skip
    loser = waited(table)
    clock_tick("minigames.taverntable", table.pk, now=T0 + timedelta(seconds=301))
    table.refresh_from_db()
    assert table.status == "ended" and table.outcome["winners"] == [1 - loser]
    assert table.outcome["text"].endswith("ran out of time.")
    reimu.refresh_from_db()
    marisa.refresh_from_db()
    assert (reimu.yen, marisa.yen) == ((240, 110) if loser == 1 else (160, 190))
    assert snapshot(table)["seats"][str(loser)]["deadline"] is None
    assert TableClock.objects.get(table_id=table.pk).next_due is None


def test_a_move_after_the_deadline_is_refused_and_the_rule_applied(player, other_player, api_for):
    """Judged by the deadline, not by when the task runs: her move sent after it is a 409 in
    words, and the timeout is applied at once (no worker ran here)."""
    table = clocked("raigo", player, other_player, control("move", 60))
    game = game_for("raigo")
    clock_set(game, table, control("move", 60), now=timezone.now() - timedelta(seconds=61))
    seat = waited(table)
    api = api_for({0: player, 1: other_player}[seat])
    state = api.get(f"/api/tavern/tables/{table.pk}/state/").json()
    answer = api.post(
        f"/api/tavern/tables/{table.pk}/actions/",
        {"action": state["moves"][0]["action"], "expected_version": state["version"]},
        format="json",
    )
    assert answer.status_code == 409, answer.content
    assert answer.json()["detail"].startswith("Your time ran out")
    after = TavernTable.objects.get(pk=table.pk)
    assert after.version > state["version"]
    assert after.actions.get(seq=state["version"] + 1).actor_id is None


def test_a_clocked_move_writes_its_clock_in_the_moves_transaction(player, other_player, api_for):
    """An unclocked table's plain move is one read and one write (tests/minigames/
    test_queries.py); a clocked one writes its clock in the same transaction as the table: the
    clock's statement and the transaction's savepoint and release, three more. A move that
    passes the turn already runs in that transaction (it ends the seat's open turn): the clock
    adds its one statement."""
    table = clocked("spirit_war", player, other_player, control("move", 3600))
    seat = waited(table)
    api = api_for({0: player, 1: other_player}[seat])
    state = api.get(f"/api/tavern/tables/{table.pk}/state/").json()
    with CaptureQueriesContext(connection) as ctx:
        answer = api.post(
            f"/api/tavern/tables/{table.pk}/actions/",
            {"action": state["moves"][0]["action"], "expected_version": state["version"]},
            format="json",
        )
    assert answer.status_code == 201
    still_hers = bool(answer.json()["moves"])
    expected = MOVE_QUERIES + 3 if still_hers else MOVE_QUERIES + TURN_ENDS + 1
    assert len(_counted(ctx.captured_queries)) == expected, ctx.captured_queries
    assert answer.json()["clock"]["mode"] == "move"


def test_the_clock_shows_no_hidden_choice(player, other_player, api_for):
    """Every seat and a spectator read the same clock: deadlines of waited seats only (whom
    the table waits on is public), nothing of a hand or a choice."""
    with freeze_time(T0):
        table = clocked("rso", player, other_player, control("total", 900))
    watcher = UserFactory(username="watcher")
    clocks = [
        api_for(u).get(f"/api/tavern/tables/{table.pk}/clock/").json()
        for u in (player, other_player, watcher)
    ]
    assert clocks[0] == clocks[1] == clocks[2]
    assert set(clocks[0]["clock"]) == {"mode", "seconds", "rule", "words", "paused", "seats"}
    for seat in clocks[0]["clock"]["seats"]:
        assert set(seat) == {"seat", "running", "deadline", "seconds_left"}


def test_only_the_host_pauses_and_bad_input_is_a_400(player, other_player, api_for):
    table = clocked("raigo", player, other_player, control("move", 600))
    url = f"/api/tavern/tables/{table.pk}/clock/"
    guest = api_for(other_player).post(url, {"paused": True}, format="json")
    assert guest.status_code == 403
    bad = api_for(player).post(url, {"paused": "maybe"}, format="json")
    assert bad.status_code == 400 and "paused" in bad.json()["errors"]
    both = api_for(player).post(url, {"paused": True, "mode": "move"}, format="json")
    assert both.status_code == 400 and "paused" in both.json()["errors"]
    short = api_for(player).post(url, {"mode": "move", "seconds": 30}, format="json")
    assert short.status_code == 400 and "seconds" in short.json()["errors"]
    changed = api_for(player).post(url, {"mode": "total", "seconds": 3600, "rule": "random"},
                                   format="json")  # fmt: skip
    assert changed.json()["clock"]["words"] == (
        "1 hour in all, per player; then the random bot plays the move"
    )
    paused = api_for(player).post(url, {"paused": True}, format="json")
    assert paused.status_code == 200 and paused.json()["clock"]["paused"]
    assert not any(s["running"] for s in paused.json()["clock"]["seats"])
    clock_tick("minigames.taverntable", table.pk, now=timezone.now() + timedelta(days=3))
    assert TavernTable.objects.get(pk=table.pk).actions.filter(actor__isnull=True).count() == 0
    resumed = api_for(player).post(url, {"paused": False}, format="json")
    assert any(s["running"] for s in resumed.json()["clock"]["seats"])
    unclocked = two_humans("raigo", player, other_player)
    none = api_for(player).post(
        f"/api/tavern/tables/{unclocked.pk}/clock/", {"paused": True}, format="json"
    )
    assert none.status_code == 400
    assert api_for(None).get(url).status_code in (401, 403)


def test_creating_a_table_takes_the_time_control(player, api_for):
    api = api_for(player)
    seats = [{"kind": "host"}, {"kind": "bot", "strength": "random"}]
    made = api.post(
        "/api/tavern/tables/",
        {"game": "raigo", "seats": seats, "clock_mode": "move", "clock_seconds": 86_400,
         "clock_rule": "heuristic"},
        format="json",
    )  # fmt: skip
    assert made.status_code == 201, made.content
    clock = api.get(f"/api/tavern/tables/{made.json()['id']}/clock/").json()["clock"]
    assert clock["words"] == "1 day per move; then the heuristic bot plays the move"
    bad = api.post(
        "/api/tavern/tables/",
        {"game": "raigo", "seats": seats, "clock_mode": "move", "clock_seconds": 10},
        format="json",
    )
    assert bad.status_code == 400 and "clock_seconds" in bad.json()["errors"]
    too_long = api.post(
        "/api/tavern/tables/",
        {"game": "raigo", "seats": seats, "clock_mode": "move", "clock_seconds": 4 * 86_400},
        format="json",
    )
    assert too_long.status_code == 400 and "clock_seconds" in too_long.json()["errors"]


def test_a_rematch_keeps_the_time_control_and_the_undo_leave(player, other_player):
    from tables.undo.services import undo_allowed_at

    table = clocked("raigo", player, other_player, control("total", 900, "forfeit"),
                    undo_allowed=True)  # fmt: skip
    services.tavern_resign(table_id=table.pk, by=other_player)
    rematch, made = services.tavern_rematch(table_id=table.pk, by=player)
    assert made
    assert snapshot(rematch)["mode"] == "total" and snapshot(rematch)["rule"] == "forfeit"
    assert undo_allowed_at(rematch)


def test_the_new_table_form_takes_the_time_control_in_minutes(player, client_for):
    client = client_for(player)
    form = {"game": "raigo", "seat-0": "host", "seat-1": "bot:random", "clock_mode": "move",
            "clock_minutes": "30", "clock_rule": "forfeit"}  # fmt: skip
    made = client.post("/tavern/", form)
    assert made.status_code == 302, made.content
    table = TavernTable.objects.get(host=player)
    assert snapshot(table)["seconds"] == 1800 and snapshot(table)["rule"] == "forfeit"
    refused = client.post("/tavern/", {**form, "clock_minutes": "5000"})
    assert refused.status_code == 400
    assert "Turn clock: give from 1 minute to 3 days per move" in refused.content.decode()
    assert TavernTable.objects.filter(host=player).count() == 1
