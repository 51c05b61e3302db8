"""Undo requests (issue 39, "Undo requests"; docs/undo.md): Board Game Arena's policy per
engine, the other seats' vote, the state rebuilt from the log byte for byte, refusal, staked
tables, secrets and bad input, through the real services and API."""

from __future__ import annotations

import random
from typing import Any

import pytest

from minigames import services
from minigames.engines.registry import ENGINE_MODULES, get_engine
from minigames.models import TavernTable
from tables.registry import game_for
from tables.replay import final_state
from tables.services import table_replay
from tables.undo.services import _undoable
from tests.factories import UserFactory
from tests.minigames.conftest import play_first_move, two_humans
from westernroses.undo_policy import nothing_drawn_or_revealed

pytestmark = pytest.mark.django_db


def moves_of(slug: str, games: int = 3, length: int = 200) -> list[tuple[Any, Any, Any, Any]]:
    """``(before, seat, action, (after, events))`` of random two-seat games (seeded)."""
    engine = get_engine(slug)
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        state = engine.new_game(seats=2, seed=seed)
        for _ in range(length):
            if engine.is_terminal(state):
                break
            seat = rng.choice(list(engine.waiting_on(state)))
            action = rng.choice(engine.legal_actions(state, seat))
            after = engine.apply(state, seat, action)
            out.append((state, seat, action, after))
            state = after[0]
    return out


@pytest.mark.parametrize("slug", ENGINE_MODULES)
def test_a_move_that_draws_or_reveals_is_never_undoable(slug):
    """Board Game Arena's undo policy, for every tavern engine over random games: a move that
    moved the random source (a draw from a shuffled pile, a die, a shuffle) or revealed
    anything hidden from some seat or a spectator is never undoable; some moves are (placing,
    attacking, passing), so the policy is not "never"."""
    engine = get_engine(slug)
    undoable = refused = 0
    for before, seat, action, (after, events) in moves_of(slug):
        verdict = engine.is_undoable(before, seat, action, after, events)
        drew = engine.to_json(before)["rng"] != engine.to_json(after)["rng"]
        seats = [0, 1, None]
        revealed = any(engine.hidden_from(before, s) - engine.hidden_from(after, s) for s in seats)
        private = any(e.get("visible_to") is not None or e.get("hidden_from") for e in events)
        if drew or revealed or private or engine.is_terminal(after):
            assert not verdict, (slug, action)
        else:
            assert verdict, (slug, action)
        undoable += verdict
        refused += not verdict
    assert undoable and refused, (slug, undoable, refused)


def test_spirit_war_s_draw_is_never_undoable():
    """Spirit War, "Turn": "Draw 1 Preparation card without revealing it and put it into your
    hand. Draw 1 Encounter card, reveal it" (spirit-war-standard-rules.txt, lines 28-29): the
    draw shows her a hidden card and the table an Encounter card."""
    engine = get_engine("spirit_war")
    draws = [m for m in moves_of("spirit_war") if m[2]["type"] == "draw"]
    assert draws
    for before, _seat, _action, (after, events) in draws:
        assert not nothing_drawn_or_revealed(engine, before, after, events)


def _ready(table: Any, users: dict[int, Any]) -> tuple[int, dict[str, Any]]:
    """Play first moves until the waited seat has a move that may be taken back; that seat and
    move (``table`` refreshed)."""
    engine = get_engine(table.game)
    game = game_for(table.game)
    for _ in range(80):
        table.refresh_from_db()
        state = engine.from_json(table.state)
        waiting = engine.waiting_on(state)
        if len(waiting) == 1:
            for action in engine.legal_actions(state, waiting[0]):
                if _undoable(game, state, waiting[0], action):
                    return waiting[0], action
        play_first_move(table, users, state)
    raise AssertionError("no undoable move within 80 moves")


def _play(api: Any, table: Any, action: Any) -> None:
    table.refresh_from_db()
    answer = api.post(
        f"/api/tavern/tables/{table.pk}/actions/",
        {"action": action, "expected_version": table.version},
        format="json",
    )
    assert answer.status_code == 201, answer.content


@pytest.mark.parametrize("slug", ["raigo", "dbs"])
def test_approval_restores_the_earlier_state_byte_for_byte(slug, player, other_player, api_for):
    users = {0: player, 1: other_player}
    apis = {seat: api_for(u) for seat, u in users.items()}
    table = two_humans(slug, player, other_player, rated=False)
    seat, action = _ready(table, users)
    before = TavernTable.objects.get(pk=table.pk).state
    _play(apis[seat], table, action)
    url = f"/api/tavern/tables/{table.pk}/undo/"
    asked = apis[seat].post(url, {"decision": "ask"}, format="json")
    assert asked.status_code == 201, asked.content
    assert asked.json()["yours"] and asked.json()["request"]["waiting_for"] == [str(1 - seat)]
    other = apis[1 - seat].get(url).json()
    assert other["your_vote"] and other["request"]["status"] == "pending"
    approved = apis[1 - seat].post(url, {"decision": "approve"}, format="json")
    assert approved.status_code == 200, approved.content
    assert approved.json()["request"]["status"] == "approved"
    after = TavernTable.objects.get(pk=table.pk)
    assert after.state == before  # byte for byte: the replay without the move
    undo_row = after.actions.order_by("-seq").first()
    assert undo_row.seat == "" and undo_row.action["type"] == "undo"
    game = game_for(slug)
    assert game.engine.to_json(table_replay(game, after)) == after.state
    # a replay (tables/replay.py) leaves the move taken back out and ends at the same state
    assert game.engine.to_json(final_state(game, after)) == after.state
    # the same move may be played again
    _play(apis[seat], table, action)


def test_refusal_leaves_the_state_and_a_vote_needs_a_request(player, other_player, api_for):
    users = {0: player, 1: other_player}
    apis = {seat: api_for(u) for seat, u in users.items()}
    table = two_humans("raigo", player, other_player, rated=False)
    seat, action = _ready(table, users)
    _play(apis[seat], table, action)
    moved = TavernTable.objects.get(pk=table.pk).state
    url = f"/api/tavern/tables/{table.pk}/undo/"
    assert apis[1 - seat].post(url, {"decision": "approve"}, format="json").status_code == 400
    assert apis[seat].post(url, {"decision": "ask"}, format="json").status_code == 201
    again = apis[seat].post(url, {"decision": "ask"}, format="json")
    assert again.status_code == 400 and "waiting already" in again.json()["errors"]["undo"][0]
    mine = apis[seat].post(url, {"decision": "approve"}, format="json")
    assert mine.status_code == 403  # she asked: the others decide
    refused = apis[1 - seat].post(url, {"decision": "refuse"}, format="json")
    assert refused.json()["request"]["status"] == "refused"
    assert TavernTable.objects.get(pk=table.pk).state == moved


def test_a_move_that_drew_cannot_be_taken_back(player, other_player, api_for):
    """Spirit War's draw (rules lines 28-29) is refused in words; nothing changes."""
    users = {0: player, 1: other_player}
    table = two_humans("spirit_war", player, other_player, rated=False)
    engine = get_engine("spirit_war")
    for _ in range(40):
        table.refresh_from_db()
        state = engine.from_json(table.state)
        seat = engine.waiting_on(state)[0]
        legal = engine.legal_actions(state, seat)
        draw = next((a for a in legal if a["type"] == "draw"), None)
        if draw is not None:
            break
        services.tavern_action_apply(
            table_id=table.pk, by=users[seat], action=legal[0], expected_version=table.version
        )
    assert draw is not None
    api = api_for(users[seat])
    _play(api, table, draw)
    drawn = TavernTable.objects.get(pk=table.pk)
    answer = api.post(f"/api/tavern/tables/{table.pk}/undo/", {"decision": "ask"}, format="json")
    assert answer.status_code == 400
    assert answer.json()["errors"]["undo"] == [
        "This move cannot be taken back: it drew at random or revealed something hidden."
    ]
    assert TavernTable.objects.get(pk=table.pk).version == drawn.version


def test_a_rated_table_takes_undo_only_with_the_host_s_leave(player, other_player, api_for):
    """Open tables are rated unless the host says (docs/tavern.md, Ratings): undo is off there
    unless she allowed it."""
    users = {0: player, 1: other_player}
    for allowed in (False, True):
        table = two_humans("raigo", player, other_player, undo_allowed=allowed)
        assert table.rated
        seat, action = _ready(table, users)
        api = api_for(users[seat])
        _play(api, table, action)
        answer = api.post(
            f"/api/tavern/tables/{table.pk}/undo/", {"decision": "ask"}, format="json"
        )
        assert answer.status_code == (201 if allowed else 400), answer.content


def test_a_staked_table_takes_undo_only_with_the_host_s_leave(
    campaign, player, other_player, reimu, marisa, api_for
):
    users = {0: player, 1: other_player}
    for allowed in (False, True):
        table = two_humans(
            "raigo", player, other_player, campaign=campaign, stake=5,
            host_character=reimu, guest_character=marisa, undo_allowed=allowed,
        )  # fmt: skip
        seat, action = _ready(table, users)
        api = api_for(users[seat])
        _play(api, table, action)
        answer = api.post(
            f"/api/tavern/tables/{table.pk}/undo/", {"decision": "ask"}, format="json"
        )
        if allowed:
            assert answer.status_code == 201, answer.content
        else:
            assert answer.status_code == 400
            assert answer.json()["errors"]["undo"][0].startswith("Undo is off at this table")


def test_an_undo_request_shows_no_move_and_bad_input_is_refused(
    player, other_player, api_for, campaign
):
    """Every seat and a spectator read a request as a seat and a log position, never the
    move (a hidden choice stays hidden); bad input is a 400, a spectator's ask a 403."""
    users = {0: player, 1: other_player}
    apis = {seat: api_for(u) for seat, u in users.items()}
    table = two_humans("raigo", player, other_player, rated=False)
    seat, action = _ready(table, users)
    _play(apis[seat], table, action)
    url = f"/api/tavern/tables/{table.pk}/undo/"
    apis[seat].post(url, {"decision": "ask"}, format="json")
    watcher = api_for(UserFactory(username="watcher"))
    answers = [apis[0].get(url).json(), apis[1].get(url).json(), watcher.get(url).json()]
    for answer in answers:
        assert set(answer["request"]) == {
            "seat", "move", "status", "status_words", "votes", "waiting_for",
        }  # fmt: skip
        assert answers[0]["request"] == answer["request"]
    assert watcher.post(url, {"decision": "ask"}, format="json").status_code == 403
    for body in ({"decision": "maybe"}, {}, {"decision": ["ask"]}):
        bad = apis[seat].post(url, body, format="json")
        assert bad.status_code == 400 and "decision" in bad.json()["errors"]
    assert apis[seat].post(url, "x" * 2000, content_type="application/json").status_code == 413
    assert apis[seat].post(url, {"decision": "withdraw"}, format="json").status_code == 200
    secret = two_humans("raigo", player, other_player, campaign=campaign)
    stranger = api_for(UserFactory(username="stranger"))
    assert stranger.get(f"/api/tavern/tables/{secret.pk}/undo/").status_code == 404
