"""Fixtures for the tavern's tests (issue 12, "The tavern"): characters with yen in the
campaign, and helpers that set tables up and play them through the real services."""

from __future__ import annotations

import random
from typing import Any

import pytest

from minigames import services
from minigames.engines.registry import get_engine
from minigames.models import TavernTable
from tables.registry import game_for
from tests.factories import CharacterFactory, legal_draft


def character(owner: Any, campaign: Any, name: str, yen: int) -> Any:
    draft = legal_draft()
    draft.yen = yen
    return CharacterFactory(owner=owner, campaign=campaign, name=name, draft=draft)


@pytest.fixture
def reimu(player, campaign):
    return character(player, campaign, "Reimu", 200)


@pytest.fixture
def marisa(other_player, campaign):
    return character(other_player, campaign, "Marisa", 150)


def one_open_seat(host: Any, game: str, campaign: Any = None) -> TavernTable:
    """A table of ``game`` that ``host`` sets up for herself and one open seat (not started)."""
    return services.tavern_create(
        by=host,
        game=game,
        campaign=campaign,
        seats=[services.SeatSpec(kind="host"), services.SeatSpec(kind="open")],
    )


def two_humans(
    game: str,
    host: Any,
    guest: Any,
    *,
    campaign: Any = None,
    stake: int = 0,
    host_character: Any = None,
    guest_character: Any = None,
    start: bool = True,
    **kw: Any,
) -> TavernTable:
    table = services.tavern_create(
        by=host,
        game=game,
        campaign=campaign,
        seats=[
            services.SeatSpec(kind="host", character=host_character and host_character.pk),
            services.SeatSpec(kind="open"),
        ],
        stake=stake,
        **kw,
    )
    services.tavern_join(
        table_id=table.pk, by=guest, index=1, character=guest_character and guest_character.pk
    )
    if start:
        services.tavern_start(table_id=table.pk, by=host)
    table.refresh_from_db()
    return table


def three_humans_at_war(host: Any, second: Any, third: Any) -> TavernTable:
    """A started open Spirit War of three users, seated in that order."""
    table = services.tavern_create(
        by=host, game="spirit_war", campaign=None,
        seats=[services.SeatSpec(kind="host"), services.SeatSpec(), services.SeatSpec()],
    )  # fmt: skip
    services.tavern_join(table_id=table.pk, by=second, index=1)
    services.tavern_join(table_id=table.pk, by=third, index=2)
    services.tavern_start(table_id=table.pk, by=host)
    return table


def to_a_choice(table: TavernTable, users: dict[int, Any], moves: int = 3) -> int:
    """Play each waited-on seat's first move until one seat alone has at least ``moves`` moves
    to choose from; that seat (``table`` is refreshed)."""
    engine = get_engine(table.game)
    for _ in range(40):
        table.refresh_from_db()
        state = engine.from_json(table.state)
        waiting = engine.waiting_on(state)
        legal = engine.legal_actions(state, waiting[0])
        if len(waiting) == 1 and len(legal) >= moves:
            return waiting[0]
        services.tavern_action_apply(
            table_id=table.pk, by=users[waiting[0]], action=legal[0], expected_version=table.version
        )
    raise AssertionError(f"no choice of {moves} moves within 40 moves")


def play_first_move(table: TavernTable, users: dict[int, Any], state: Any) -> None:
    """The first waited-on seat's first legal move in ``state`` (``table``'s), as its user."""
    engine = get_engine(table.game)
    seat = engine.waiting_on(state)[0]
    services.tavern_action_apply(
        table_id=table.pk,
        by=users[seat],
        action=engine.legal_actions(state, seat)[0],
        expected_version=table.version,
    )


def play_out(table: TavernTable, users: dict[int, Any], seed: int = 1, limit: int = 5000) -> Any:
    """Play random legal moves for the human seats through the core's service (as the users)
    until the game ends; returns the final engine state."""
    engine = get_engine(table.game)
    rng = random.Random(seed)
    for _ in range(limit):
        table.refresh_from_db()
        state = engine.from_json(table.state)
        if engine.is_terminal(state):
            return state
        seat = rng.choice(list(engine.waiting_on(state)))
        action = rng.choice(engine.legal_actions(state, seat))
        services.tavern_action_apply(
            table_id=table.pk, by=users[seat], action=action, expected_version=table.version
        )
    raise AssertionError("the game did not end")


def play_to_an_end(
    table: TavernTable, users: dict[int, Any], winners: int, *, seeds: int = 200
) -> Any:
    """Play ``table`` to an end with exactly ``winners`` seats winning (0: won by nobody), with
    random legal moves sent through the core's service as the seats' users: lines of play are
    drawn on a copy of the state (the engine is a pure function of state and move) until one
    ends so, and that line is played. Returns the final engine state."""
    engine = get_engine(table.game)
    start = engine.from_json(table.state)
    for seed in range(seeds):
        rng = random.Random(seed)
        state, line = start, []
        while not engine.is_terminal(state):
            seat = rng.choice(list(engine.waiting_on(state)))
            action = rng.choice(engine.legal_actions(state, seat))
            line.append((seat, action))
            state, _ = engine.apply(state, seat, action)
        if sum(1 for r in engine.returns(state) if r > 0) == winners:
            break
    else:
        raise AssertionError(f"no line of {seeds} ends with {winners} winners")
    version = table.version
    for seat, action in line:
        services.tavern_action_apply(
            table_id=table.pk, by=users[seat], action=action, expected_version=version
        )
        version += 1
    return state


def game(table: TavernTable) -> Any:
    return game_for(table.game)
