"""Replays (issue 39, "Replays"): every game is rebuilt by its engine from its log to exactly
the stored state, and each step shows a viewer only what her seat saw at that step.

* every table of the demo (``seed_demo``) and a random bot game of each tavern game, and a
  battle with a GM's undo in it, replay to their stored state, byte for byte;
* for each seat and a spectator, before and after the end, every step is ``engine.view`` of
  the position the protocol's own replay reaches at that step for that seat, with only the
  events that seat may see, and names no id hidden from it (``hidden_from``) in its view,
  events or move words (tests/engine/conformance.py's check);
* the API: a step out of range is a 400 in words, another's table a 404, and a second read is
  answered from the cache.
"""

from __future__ import annotations

import io
import random
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.management import call_command

from apibase.engine_words import json_in_language
from battles import services as battles
from battles.models import Battle
from minigames import services as tavern
from minigames.engines.registry import get_engine
from minigames.models import TavernTable
from tables import replay
from tables.registry import game_of
from tests.battles.conftest import build_battle, deck_card
from tests.engine.conformance import assert_no_leak, canonical, written_in
from tests.factories import CharacterFactory
from tests.minigames.conftest import two_humans
from tests.url_walk import walk
from westernroses.protocol import event_visible

pytestmark = pytest.mark.django_db

TAVERN_GAMES = ("raigo", "spirit_war", "rso", "dbs")


def _bot_game(host: Any, slug: str) -> TavernTable:
    """A table of two random bots, played to its end through the services (as the bots'
    tasks would)."""
    table = tavern.tavern_create(
        by=host,
        game=slug,
        campaign=None,
        seats=[
            tavern.SeatSpec(kind="bot", strength="random"),
            tavern.SeatSpec(kind="bot", strength="random"),
        ],
    )
    tavern.tavern_start(table_id=table.pk, by=host)
    for _ in range(5000):
        table.refresh_from_db()
        if table.status != "active":
            return table
        for seat in (0, 1):
            tavern.tavern_bot_play(table.pk, seat)
    raise AssertionError(f"the {slug} bots did not finish")


def _same_final_state(table: Any) -> None:
    game = game_of(table)
    table.refresh_from_db()
    assert table.initial, "a started table has the state its log replays from"
    final = replay.final_state(game, table)
    assert canonical(game.engine.to_json(final)) == canonical(table.state)


def test_every_demo_table_and_a_bot_game_of_each_tavern_game_replay_to_their_state(gm):
    call_command("seed_demo", stdout=io.StringIO())
    started = [t for t in TavernTable.objects.all() if t.initial]
    assert {t.status for t in started} >= {"active", "ended"}  # the demo's finished RAIGO too
    bot_games = [_bot_game(gm, slug) for slug in TAVERN_GAMES]
    assert {t.status for t in bot_games} == {"ended"}
    for table in [*started, *bot_games]:
        _same_final_state(table)
    for battle in [b for b in Battle.objects.all() if b.initial]:
        _same_final_state(battle)


def _protocol_states(game: Any, table: Any) -> list[tuple[Any, list[Any]]]:
    """Each position and the events of the move that led to it, by the protocol's own
    ``apply`` (step 0: the start, no events): what the replay is checked against."""
    engine = game.engine
    state = engine.from_json(table.initial)
    out = [(state, [])]
    rows = replay.log_rows(game, table)
    for row in rows:
        state, events = engine.apply(state, game.hooks.seat_from_text(row.seat), row.action)
        out.append((state, events))
    return out


def _check_steps(game: Any, table: Any, seat: Any, expected: list[tuple[Any, list[Any]]]) -> int:
    """Every step of ``seat``'s replay is what that seat saw then, and nothing hidden; how
    many hidden choices its move list was tried against."""
    engine = game.engine
    steps, _ = replay.build_steps(game, table.initial, replay.log_rows(game, table), seat)
    assert len(steps) == len(expected)
    for k, (step, (state, events)) in enumerate(zip(steps, expected, strict=True)):
        assert canonical(step["view"]) == canonical(engine.view(state, seat)), (seat, k)
        if game.hooks.visible_events is None:
            assert step["events"] == [e for e in events if event_visible(e, seat)]
        hidden = engine.hidden_from(state, seat)
        text = canonical(step)
        shown = written_in(text, hidden)
        assert not shown, f"step {k} of seat {seat!r} shows hidden {shown!r}"
        assert '"seed"' not in text
        assert_no_leak(engine, state, seat)
        assert (step["move"] is None) == (k == 0)
        assert step["result"] == (engine.result(state) if engine.is_terminal(state) else None)
    return _words_keep_hidden_choices(game, table, seat, steps)


def _words_keep_hidden_choices(game: Any, table: Any, seat: Any, steps: list[Any]) -> int:
    """Another seat's move reads the same in ``seat``'s move list whichever of her legal moves
    with the same public face she made (the protocol's hidden choices: a card put face down
    is "a card" whichever card it was). Each such move is tried against up to three others;
    how many were tried."""
    engine = game.engine
    tried = 0
    for k, step in enumerate(replay.replayed(game, table.initial, replay.log_rows(game, table))):
        if step.row is None or step.seat == seat:
            continue
        face = engine.public_action(step.before, step.seat, step.row.action)
        if canonical(face) == canonical(step.row.action):
            continue  # made in the open: its words may name it
        same = [
            a
            for a in engine.legal_actions(step.before, step.seat)
            if canonical(engine.public_action(step.before, step.seat, a)) == canonical(face)
        ]
        for other in same[:3]:
            after, events = engine.apply(step.before, step.seat, other)
            shown = replay.shown_events(game, after, seat, events)
            alike = replay.Replayed(
                row=SimpleNamespace(action=other), seat=step.seat, before=step.before,
                state=after, events=events,
            )  # fmt: skip
            words = replay.default_move_words(game, alike, seat, shown)
            read = replay.move_in_language({"n": k, "words": words})
            assert read == replay.move_in_language(steps[k]["move"]), (seat, k, other)
            tried += 1
    return tried


@pytest.mark.parametrize("slug", TAVERN_GAMES)
def test_each_seat_and_a_spectator_replay_only_what_they_saw(slug, player, other_player, gm):
    table = two_humans(slug, player, other_player)
    users = {0: player, 1: other_player}
    engine = get_engine(slug)
    rng = random.Random(39)
    checked_before_end = False
    for moves in range(5000):
        table.refresh_from_db()
        state = engine.from_json(table.state)
        if engine.is_terminal(state):
            break
        if moves == 12:  # before the end: a seat replays its own view, a spectator the public
            game = game_of(table)
            expected = _protocol_states(game, table)
            for seat in (0, 1, None):
                _check_steps(game, table, seat, expected)
            checked_before_end = True
        seat = rng.choice(list(engine.waiting_on(state)))
        tavern.tavern_action_apply(
            table_id=table.pk,
            by=users[seat],
            action=rng.choice(engine.legal_actions(state, seat)),
            expected_version=table.version,
        )
    table.refresh_from_db()
    assert checked_before_end and table.status == "ended"
    game = game_of(table)
    expected = _protocol_states(game, table)
    assert canonical(engine.to_json(expected[-1][0])) == canonical(table.state)
    # after the end: the same rule, the end's result at the last step; every game here has
    # hidden choices (a face-down card, a secret Leader, a token fetched), so some were tried
    assert sum(_check_steps(game, table, seat, expected) for seat in (0, 1, None)) > 0
    # the API gives each user her own seat's steps (the spectator: the public view)
    for user, seat in ((player, 0), (other_player, 1), (gm, None)):
        last = replay.table_replay_step(game, table_id=table.pk, user=user)
        assert last["seat"] == seat and last["finished"] is True
        assert last["step"] == last["steps"] == len(expected) - 1
        # the API reads the engine's words in the reader's language (English here)
        shown_last = json_in_language(engine.view(expected[-1][0], seat))
        assert canonical(last["view"]) == canonical(shown_last)
        first = replay.table_replay_step(game, table_id=table.pk, user=user, step=0)
        assert canonical(first["view"]) == canonical(
            json_in_language(engine.view(expected[0][0], seat))
        )


def _battle_moves(users: dict[str, Any], battle: Battle, rng: random.Random, n: int) -> None:
    """``n`` moves: the current combatant's controller ends her turn, or the GM takes a hit
    point from someone (a random choice)."""
    engine = battles.engine.ENGINE
    for _ in range(n):
        battle.refresh_from_db()
        state = engine.from_json(battle.state)
        current = state.combatants[state.current]
        if rng.random() < 0.3:
            actor, action = users["gm"], {"type": "gm_adjust", "combatant": current.id, "hp": -1}
        else:
            actor = users.get(current.controller, users["gm"])
            action = {"type": "end_turn", "combatant": current.id}
        battles.battle_action_apply(
            battle_id=battle.pk, actor=actor, action=action, expected_version=battle.version
        )


def _fighter(campaign: Any, owner: Any, name: str) -> Any:
    """A player's character with an attack card in her deck (two copies)."""
    character = CharacterFactory(owner=owner, campaign=campaign, name=name)
    deck_card(character, f"{name}'s Spell", aoe=1)
    return character


def test_a_battle_with_an_undo_replays_to_its_state_and_shows_each_member_her_own_view(
    campaign, gm, player, other_player
):
    fighters = [_fighter(campaign, player, "Cirno"), _fighter(campaign, other_player, "Daiyousei")]
    battle = build_battle(campaign, gm, fighters)
    users = {"gm": gm, str(player.pk): player, str(other_player.pk): other_player}
    battles.battle_action_apply(
        battle_id=battle.pk, actor=gm, action={"type": "start"}, expected_version=battle.version
    )
    rng = random.Random(39)
    _battle_moves(users, battle, rng, 12)
    battle.refresh_from_db()
    battles.battle_action_apply(
        battle_id=battle.pk, actor=gm, action={"type": "gm_undo"}, expected_version=battle.version
    )
    _battle_moves(users, battle, rng, 6)
    battle.refresh_from_db()
    battles.battle_action_apply(
        battle_id=battle.pk,
        actor=gm,
        action={"type": "gm_end_battle"},
        expected_version=battle.version,
    )
    battle.refresh_from_db()
    assert battle.status == "ended"
    game = game_of(battle)
    _same_final_state(battle)
    engine = game.engine
    actions = [row.action for row in replay.log_rows(game, battle)]
    for user, seat in ((gm, "gm"), (player, str(player.pk)), (other_player, str(other_player.pk))):
        answer = replay.table_replay_step(game, table_id=battle.pk, user=user, step=1)
        assert answer["seat"] == seat and answer["steps"] >= 20
        steps, final = replay.build_steps(game, battle.initial, replay.log_rows(game, battle), seat)
        assert canonical(engine.to_json(final)) == canonical(battle.state)
        for k, step in enumerate(steps):
            # never the seed, before the end or after it (westernroses/battle/player_view.py)
            assert '"seed"' not in canonical(step["view"]), (seat, k)
            # the engine's own replay of the moves standing after k moves (undos applied)
            then = engine.from_json(battles.engine.replay_actions(battle.initial, actions[:k]))
            # (its version counts the moves standing, the table's every move and the undo)
            shown = {k: v for k, v in step["view"].items() if k not in ("log", "version")}
            seen = {k: v for k, v in engine.view(then, seat).items() if k not in ("log", "version")}
            assert canonical(shown) == canonical(seen), (seat, k)
        assert all(m["words"] and "_" not in m["words"] for m in answer["moves"])
    undo = [m for m in answer["moves"] if m["words"] == "GM: undo."]
    assert len(undo) == 1


def test_the_api_answers_a_step_a_page_of_moves_and_refuses_what_it_may_not(
    player, other_player, outsider, api_for, campaign
):
    table = two_humans("rso", player, other_player, campaign=campaign)
    api = api_for(player)
    url = f"/api/tavern/tables/{table.pk}/replay/"
    for _ in range(6):  # a few moves of whoever is waited on
        table.refresh_from_db()
        engine = get_engine("rso")
        state = engine.from_json(table.state)
        seat = engine.waiting_on(state)[0]
        tavern.tavern_action_apply(
            table_id=table.pk,
            by={0: player, 1: other_player}[seat],
            action=engine.legal_actions(state, seat)[0],
            expected_version=table.version,
        )
    answer = api.get(url, {"step": 2, "limit": 2})
    assert answer.status_code == 200, answer.content
    data = answer.json()
    assert data["step"] == 2 and data["steps"] == 6 and data["seat"] == 0
    assert data["finished"] is False
    assert [m["n"] for m in data["moves"]] == [1, 2] and data["next_after"] == 2
    assert data["move"]["n"] == 2 and data["move"]["words"]
    rest = api.get(url, {"moves_after": 2, "limit": 500}).json()
    assert [m["n"] for m in rest["moves"]] == [3, 4, 5, 6] and rest["next_after"] is None
    assert rest["step"] == 6  # no step asked: the last
    again = api.get(url, {"step": 2, "limit": 2})  # from the cache: the same answer
    assert again.json() == data
    late = api.get(url, {"step": 7})
    assert late.status_code == 400
    assert late.json()["errors"]["step"] == ["There is no step 7: this replay has steps 0 to 6."]
    assert api.get(url, {"step": "-1"}).status_code == 400
    assert api.get(url, {"step": "two"}).status_code == 400
    assert api_for(outsider).get(url).status_code == 404
    assert api.get("/api/tavern/tables/999999/replay/").status_code == 404
    lobby = tavern.tavern_create(
        by=player,
        game="rso",
        campaign=None,
        seats=[tavern.SeatSpec(kind="host"), tavern.SeatSpec(kind="open")],
    )
    waiting = api.get(f"/api/tavern/tables/{lobby.pk}/replay/")
    assert waiting.status_code == 400
    assert "not started" in waiting.json()["errors"]["step"][0]


def test_a_battle_replay_is_served_and_hidden_from_outsiders(
    campaign, gm, player, outsider, api_for
):
    battle = build_battle(campaign, gm, [_fighter(campaign, player, "Cirno")])
    battles.battle_action_apply(
        battle_id=battle.pk, actor=gm, action={"type": "start"}, expected_version=battle.version
    )
    url = f"/api/battles/{battle.pk}/replay/"
    answer = api_for(player).get(url, {"step": 0})
    assert answer.status_code == 200, answer.content
    assert answer.json()["steps"] == 1 and answer.json()["seat"] == str(player.pk)
    assert api_for(outsider).get(url).status_code == 404


def test_the_replay_page_opens_for_those_who_may_see_the_table(
    player, other_player, outsider, client_for, campaign, gm
):
    table = two_humans("raigo", player, other_player, campaign=campaign)
    url = f"/tables/raigo/{table.pk}/replay/"
    page = client_for(player).get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert f"/api/tavern/tables/{table.pk}/replay/" in html and "js/tavern/raigo.js" in html
    assert "You are watching your own view" in html
    assert "public view" in client_for(gm).get(url).content.decode()  # not seated: public
    assert client_for(outsider).get(url).status_code == 404
    assert client_for(player).get(f"/tables/rso/{table.pk}/replay/").status_code == 404
    assert client_for(player).get(f"/tables/chess/{table.pk}/replay/").status_code == 404
    assert client_for(None).get(url).status_code == 302  # to the login page
    table_page = client_for(player).get(f"/tavern/tables/{table.pk}/").content.decode()
    assert f'href="{url}"' in table_page
    lobby = tavern.tavern_create(
        by=player,
        game="raigo",
        campaign=None,
        seats=[tavern.SeatSpec(kind="host"), tavern.SeatSpec(kind="open")],
    )
    assert "/replay/" not in client_for(player).get(f"/tavern/tables/{lobby.pk}/").content.decode()
    battle = build_battle(campaign, gm, [_fighter(campaign, player, "Cirno")])
    battles.battle_action_apply(
        battle_id=battle.pk, actor=gm, action={"type": "start"}, expected_version=battle.version
    )
    battle_url = f"/tables/battle/{battle.pk}/replay/"
    assert client_for(player).get(battle_url).status_code == 200
    assert client_for(outsider).get(battle_url).status_code == 404
    assert f'href="{battle_url}"' in client_for(gm).get(f"/battles/{battle.pk}/").content.decode()


@pytest.mark.urls("tests.games.duel_tables.urls")
def test_every_registered_game_serves_its_replay_and_has_a_replay_page():
    """The registry is walked: a game without the core's replay endpoint fails, and a game
    with pages (all but Secret Duel, the test-only game, which has none) without a replay
    page."""
    from tables.api import TableReplayView
    from tables.registry import registered

    served = [s.view_class for s in walk() if isinstance(s.view_class, type)]
    served = [v for v in served if issubclass(v, TableReplayView)]
    for slug, game in registered().items():
        assert any(v.game_slug == slug or v.table_model is game.table_model for v in served), slug
        assert game.hooks.replay_page is not None or slug == "duel", slug
