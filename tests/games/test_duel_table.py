"""Secret Duel (tests/games/duel.py) through the table core: a second game needs no copy.

Everything here goes through the same services, selectors and generic API views as battles
(tables/): the lock and version check (409 on a stale move), per-seat views with no other
seat's hand, the cheap poll (204), the log filtered by event visibility, action schemas and the
body size limit, and replay of the stored log.
"""

from __future__ import annotations

import json

import pytest

from tables import services
from tables.registry import game_for
from tests.games.duel import ENGINE, card_id
from tests.games.duel_tables.models import DuelAction, DuelTable

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.games.duel_tables.urls")]

SEED = 20261123


@pytest.fixture
def duel(campaign, player, other_player):
    game = game_for("duel")
    state = ENGINE.new_game(seats=2, seed=SEED)
    table = DuelTable(campaign=campaign, seat0=player, seat1=other_player)
    return services.table_create(game, table=table, state=state)


def hands():
    state = ENGINE.new_game(seats=2, seed=SEED)
    return state["hands"]


def play(api, table_id, card, version):
    return api.post(
        f"/api/duels/{table_id}/actions/",
        {"action": {"type": "play", "card": card}, "expected_version": version},
        format="json",
    )


def test_each_seat_sees_its_own_hand_and_never_the_others(duel, player, other_player, gm, api_for):
    mine, theirs = hands()
    for user, own, other in ((player, mine, theirs), (other_player, theirs, mine)):
        response = api_for(user).get(f"/api/duels/{duel.pk}/state/")
        assert response.status_code == 200
        data = response.json()
        assert data["view"]["hand"] == own
        assert data["legal_actions"] == [{"type": "play", "card": c} for c in own]
        assert data["waiting_on"] == [0, 1]
        text = json.dumps(data)
        assert '"seed"' not in text and '"deck"' not in text
        assert data["view"]["hand_counts"] == [3, 3]
        assert not set(other) & set(data["view"]["hand"])
    spectator = api_for(gm).get(f"/api/duels/{duel.pk}/state/").json()
    assert spectator["seat"] is None and spectator["view"]["hand"] is None
    assert spectator["legal_actions"] == []


def test_a_move_applies_once_and_a_stale_one_is_409(duel, player, api_for):
    mine, _ = hands()
    api = api_for(player)
    first = play(api, duel.pk, mine[0], 0)
    assert first.status_code == 201
    assert first.json()["version"] == 1
    assert first.json()["view"]["chosen"][0] == mine[0]
    again = play(api, duel.pk, mine[1], 0)  # the same click, on the old version
    assert again.status_code == 409
    assert again.json()["version"] == 1 and "reload" in again.json()["detail"]
    assert DuelAction.objects.filter(table=duel).count() == 1


def test_the_poll_is_204_until_something_changes(duel, player, other_player, api_for):
    api = api_for(player)
    assert api.get(f"/api/duels/{duel.pk}/state/?since=0").status_code == 204
    play(api_for(other_player), duel.pk, hands()[1][0], 0)
    changed = api.get(f"/api/duels/{duel.pk}/state/?since=0")
    assert changed.status_code == 200 and changed.json()["version"] == 1
    # The other seat chose, face down: seat 0 sees that she chose, not what.
    assert changed.json()["view"]["chosen"] == [False, True]


def test_a_poll_ahead_of_the_table_gets_the_whole_state(duel, player, api_for):
    """A version the server no longer has (lost in a crash of PostgreSQL) is answered in full,
    as a first load; only the table's own version is 204."""
    api = api_for(player)
    play(api, duel.pk, hands()[0][0], 0)
    first = api.get(f"/api/duels/{duel.pk}/state/").json()
    assert first["version"] == 1
    for ahead in (2, 1_000_000):
        response = api.get(f"/api/duels/{duel.pk}/state/?since={ahead}")
        assert response.status_code == 200
        assert response.json() == first
    assert api.get(f"/api/duels/{duel.pk}/state/?since=1").status_code == 204


def test_illegal_and_malformed_actions_are_400_and_change_nothing(duel, player, api_for):
    _, theirs = hands()
    api = api_for(player)
    not_mine = play(api, duel.pk, theirs[0], 0)
    assert not_mine.status_code == 400
    assert not_mine.json()["errors"]["action"] == ["You cannot play that card now."]
    extra = api.post(
        f"/api/duels/{duel.pk}/actions/",
        {"action": {"type": "play", "card": hands()[0][0], "note": "hi"}, "expected_version": 0},
        format="json",
    )
    assert extra.status_code == 400
    assert "note" in extra.json()["errors"]["action"][0]
    unknown = api.post(
        f"/api/duels/{duel.pk}/actions/",
        {"action": {"type": "fold"}, "expected_version": 0},
        format="json",
    )
    assert unknown.status_code == 400
    out_of_range = play(api, duel.pk, 99, 0)
    assert out_of_range.status_code == 400
    duel.refresh_from_db()
    assert duel.version == 0 and not DuelAction.objects.filter(table=duel).exists()


def test_a_four_and_a_half_megabyte_note_is_refused(duel, player, api_for):
    """The issue's report: a 4.5 MB note on a move was accepted and served to every seat."""
    body = json.dumps(
        {
            "action": {"type": "play", "card": hands()[0][0], "note": "x" * 4_500_000},
            "expected_version": 0,
        }
    )
    response = api_for(player).post(
        f"/api/duels/{duel.pk}/actions/", body, content_type="application/json"
    )
    assert response.status_code == 413
    assert "bytes" in response.json()["detail"]
    assert not DuelAction.objects.filter(table=duel).exists()


def test_outsiders_get_404(duel, outsider, api_for, client):
    assert api_for(outsider).get(f"/api/duels/{duel.pk}/state/").status_code == 200  # spectator
    assert client.get(f"/api/duels/{duel.pk}/state/").status_code in (401, 403, 404)
    assert api_for(outsider).get("/api/duels/999999/state/").status_code == 404
    spectator_move = play(api_for(outsider), duel.pk, hands()[0][0], 0)
    assert spectator_move.status_code == 403


def test_the_log_shows_each_seat_only_its_events_and_the_game_replays(
    duel, player, other_player, api_for
):
    mine, theirs = hands()
    a, b = api_for(player), api_for(other_player)
    version = 0
    for round_ in range(3):
        assert play(a, duel.pk, mine[round_], version).status_code == 201
        assert play(b, duel.pk, theirs[round_], version + 1).status_code == 201
        version += 2
    final = a.get(f"/api/duels/{duel.pk}/state/").json()
    assert final["finished"] is True and final["waiting_on"] == []
    won0 = sum(1 for x, y in zip(mine, theirs, strict=True) if x > y)
    assert final["result"]["scores"] == [won0, 3 - won0]
    log0 = a.get(f"/api/duels/{duel.pk}/log/?limit=2").json()
    assert [e["n"] for e in log0["results"]] == [1, 2] and log0["next_after"] == 2
    first_event_texts = [e["text"] for e in log0["results"][0]["events"]]
    assert f"You lay the {mine[0]} face down." in first_event_texts
    log1 = b.get(f"/api/duels/{duel.pk}/log/?limit=200").json()
    texts1 = json.dumps(log1)
    assert f"You lay the {mine[0]} face down." not in texts1
    assert "Player 1 lays a card face down." in texts1
    duel.refresh_from_db()
    game = game_for("duel")
    replayed = services.table_replay(game, duel)
    assert ENGINE.to_json(replayed) == duel.state
    assert duel.status == "ended" and duel.summary.startswith("Rounds won")


def test_hidden_cards_never_reach_another_seats_payloads(duel, player, other_player, api_for):
    mine, _ = hands()
    play(api_for(player), duel.pk, mine[0], 0)
    duel.refresh_from_db()
    state = ENGINE.from_json(duel.state)
    hidden = ENGINE.hidden_from(state, 1)
    assert card_id(mine[0]) in hidden
    seen = api_for(other_player)
    payload = json.dumps(seen.get(f"/api/duels/{duel.pk}/state/").json())
    payload += json.dumps(seen.get(f"/api/duels/{duel.pk}/log/").json())
    for card in [*mine, *state["deck"]]:
        assert f'"card": {card}' not in payload
    assert f"You lay the {mine[0]}" not in payload


def test_a_table_outside_any_campaign_says_your_turn_and_still_waiting(
    player, other_player, django_capture_on_commit_callbacks
):
    """ "Your turn" comes from ``waiting_on`` for any table; a table in no campaign is reminded
    after the default delay (house rule ``turn_reminder_minutes``)."""
    from datetime import timedelta

    from notifications.models import Notification, TurnWait
    from notifications.reminders import turn_reminders_send
    from westernroses.house_rules import DEFAULT_HOUSE_RULES

    game = game_for("duel")
    state = ENGINE.new_game(seats=2, seed=3)
    table = services.table_create(
        game, table=DuelTable(seat0=player, seat1=other_player), state=state
    )
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        for version, (user, seat) in enumerate(((player, 0), (other_player, 1))):
            services.table_action_apply(
                game,
                table_id=table.pk,
                actor=user,
                action={"type": "play", "card": state["hands"][seat][0]},
                expected_version=version,
            )
    # Only the reveal starts new waits (then each "your turn" is delivered on commit too).
    notify = [c for c in callbacks if "_enqueue_turn_notify" in repr(c)]
    assert len(notify) == 1
    for user in (player, other_player):
        assert Notification.objects.filter(recipient=user, event="your_turn").count() == 1
    waits = TurnWait.objects.filter(ended_at__isnull=True)
    assert [w.campaign_id for w in waits] == [None, None]
    started = max(w.started_at for w in waits)
    later = started + timedelta(minutes=DEFAULT_HOUSE_RULES.turn_reminder_minutes)
    assert turn_reminders_send(now=later - timedelta(minutes=1)) == 0
    assert turn_reminders_send(now=later) == 2
    reminder = Notification.objects.get(recipient=player, event="turn_reminder")
    assert reminder.title == "Still your turn at the duel"
