"""What a seat receives once a table ended before its game did (minigames/selectors.py's
``tavern_payload``): a resignation or an abandon. Each player is still her seat (not a
spectator) and sees what that seat may see, her own hand included; the result says who
resigned, or that the table was abandoned and by whom; nobody is asked to move."""

from __future__ import annotations

import pytest

from minigames import services
from minigames.engines.registry import get_engine
from minigames.models import TavernTable
from minigames.selectors import tavern_payload
from tests.minigames.conftest import three_humans_at_war, two_humans
from tests.minigames.playing import play

pytestmark = pytest.mark.django_db


def _hand(table: TavernTable, seat: int) -> list[dict]:
    engine = get_engine(table.game)
    hand = engine.view(engine.from_json(table.state), seat)["hand"]
    assert hand  # a Spirit War hand is dealt at the start
    return hand


def test_after_a_resignation_each_player_is_still_her_seat(player, other_player, outsider):
    table = two_humans("spirit_war", player, other_player)
    services.tavern_resign(table_id=table.pk, by=other_player)
    table.refresh_from_db()
    winner = tavern_payload(table.pk, player)
    resigner = tavern_payload(table.pk, other_player)
    assert winner["seat"] == 0 and resigner["seat"] == 1
    assert winner["view"]["hand"] == _hand(table, 0)
    assert resigner["view"]["hand"] == _hand(table, 1)
    assert not winner["public_view"] and not resigner["public_view"]
    assert resigner["resigned"] and not winner["resigned"]
    for payload in (winner, resigner):
        assert payload["finished"] and payload["moves"] == [] and payload["waiting_on"] == []
        assert payload["result"]["winners"] == [0]
        assert payload["result"]["resigned"] == [1]
        assert not payload["result"]["abandoned"]
    # a spectator of an open table still sees no hand
    watcher = tavern_payload(table.pk, outsider)
    assert watcher["seat"] is None and watcher["view"]["hand"] == []


def test_an_abandoned_table_says_by_whom_and_keeps_each_seats_view(player, other_player):
    table = two_humans("spirit_war", player, other_player)
    services.tavern_abandon(table_id=table.pk, by=player)
    table.refresh_from_db()
    for user, seat in ((player, 0), (other_player, 1)):
        payload = tavern_payload(table.pk, user)
        assert payload["seat"] == seat
        assert payload["view"]["hand"] == _hand(table, seat)
        assert payload["moves"] == [] and payload["waiting_on"] == []
        result = payload["result"]
        assert result["abandoned"] and result["winners"] == [] and result["resigned"] == []
        assert result["abandoned_by"] == player.shown_name
        assert result["text"] == f"{player.shown_name} abandoned the table."
        assert payload["summary"] == f"Abandoned by {player.shown_name}."


def test_a_resigned_seat_played_on_by_a_bot_sees_only_public_information(
    player, other_player, outsider, django_capture_on_commit_callbacks
):
    """At three seats the random bot plays the resigned seat on: she is still shown as that
    seat, but its hand (cards dealt to the bot after she left) is not hers to see."""
    table = three_humans_at_war(player, other_player, outsider)
    services.tavern_resign(table_id=table.pk, by=outsider)
    table.refresh_from_db()
    payload = tavern_payload(table.pk, outsider)
    assert payload["seat"] == 2 and payload["resigned"] and payload["public_view"]
    assert payload["view"]["hand"] == [] and payload["moves"] == []
    assert _hand(table, 2)  # the seat has a hand; she does not receive it
    playing = tavern_payload(table.pk, player)
    assert playing["seat"] == 0 and not playing["public_view"]
    assert playing["view"]["hand"] == _hand(table, 0)


def _log_lines(user, table: TavernTable) -> list[str]:
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(user)
    response = client.get(f"/api/tavern/tables/{table.pk}/log/?limit=200")
    assert response.status_code == 200
    return [e.get("text", "") for entry in response.json()["results"] for e in entry["events"]]


def _until_she_reads_her_own(table: TavernTable, users: dict, her, watcher) -> None:
    """Each waited-on seat's first legal move until ``her`` log holds a line of her own (a
    card she drew, in words for her) that ``watcher`` does not read (a deal is random)."""
    table.refresh_from_db()
    for _ in range(80):
        if _log_lines(her, table) != _log_lines(watcher, table):
            return
        play(table, users, 1)
    raise AssertionError("no line of her own in 80 moves")


def test_the_player_whose_resignation_ended_the_game_reads_her_own_seats_log(
    player, other_player, outsider
):
    """Her log is her seat's, as her table view is ("You draw …"), not a spectator's; the
    winner's stays hers, and a spectator still reads the public lines only."""
    table = two_humans("spirit_war", player, other_player)
    _until_she_reads_her_own(table, {0: player, 1: other_player}, other_player, outsider)
    hers, watching = _log_lines(other_player, table), _log_lines(outsider, table)
    assert hers != watching  # lines of her own seat's (her draws, in words for her)
    services.tavern_resign(table_id=table.pk, by=other_player)
    table.refresh_from_db()
    assert _log_lines(other_player, table)[: len(hers)] == hers
    assert _log_lines(outsider, table)[: len(watching)] == watching


def test_a_resigned_seat_played_on_by_a_bot_reads_the_public_log(
    player, other_player, outsider, django_capture_on_commit_callbacks
):
    """The bot plays her seat on: its draws after she left are not hers to read."""
    from tests.factories import UserFactory

    table = three_humans_at_war(player, other_player, outsider)
    watcher = UserFactory()
    _until_she_reads_her_own(table, {0: player, 1: other_player, 2: outsider}, outsider, watcher)
    services.tavern_resign(table_id=table.pk, by=outsider)
    table.refresh_from_db()
    assert _log_lines(outsider, table) == _log_lines(watcher, table)
