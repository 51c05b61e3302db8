"""The table store's speed-ups change no answer (``tables/store.py``): the same games are
played through the API with ``TABLE_FAST_PATHS`` on and off, every move's answer is compared
with a read of the table right after it, and every read (the full view, the poll at the
version before and at the current one, the log) is asked both ways and must be the same."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings

from battles import services as battle_services
from battles.models import Battle
from minigames.models import TavernTable
from tables import store
from tests.battles.conftest import build_battle, character, other_character  # noqa: F401
from tests.engine.battle.random_play import random_action
from tests.minigames.conftest import two_humans

pytestmark = pytest.mark.django_db


def _both(ask: Any) -> tuple[Any, Any]:
    """``ask()`` with the fast paths on, then off."""
    answers = []
    for on in (True, False):
        with override_settings(TABLE_FAST_PATHS=on):
            answers.append(ask())
    return answers[0], answers[1]


def _answer(response: Any) -> tuple[int, Any]:
    body = response.json() if response.status_code not in (204,) and response.content else None
    return response.status_code, body


def _reads_agree(api: Any, base: str, state: str, seen: int, version: int) -> None:
    for url in (
        f"{base}{state}/",
        f"{base}{state}/?since={seen}",
        f"{base}{state}/?since={version}",
        f"{base}log/",
        f"{base}log/?after={max(version - 3, 0)}&limit=2",
    ):
        on, off = _both(lambda url=url: _answer(api.get(url)))
        assert on == off, url
    assert api.get(f"{base}{state}/?since={version}").status_code == 204


def test_a_battle_played_with_the_fast_paths_on_and_off_answers_alike(
    campaign,
    gm,
    player,
    other_player,
    character,  # noqa: F811
    other_character,  # noqa: F811
    api_for,
    django_capture_on_commit_callbacks,
):
    battle = build_battle(campaign, gm, [character, other_character], npcs=2)
    users = {str(u.pk): u for u in (player, other_player)}
    apis = {u.pk: api_for(u) for u in (gm, player, other_player)}
    base = f"/api/battles/{battle.pk}/"
    rng = random.Random(7)
    seen = battle.version
    store.forget_all()
    moves = 0
    for step in range(20):
        battle = Battle.objects.get(pk=battle.pk)
        action = random_action(battle_services.load_state(battle, initial=False), rng)
        if action is None:
            break
        who = action.pop("player")
        actor = users.get(who, gm)
        clean = {k: v for k, v in action.items() if k not in battle_services.SERVER_FIELDS}
        fast = step % 3 != 1  # moves made both ways, kept rows and not
        with (
            override_settings(TABLE_FAST_PATHS=fast),
            django_capture_on_commit_callbacks(execute=True),
        ):
            moved = apis[actor.pk].post(
                f"{base}actions/",
                {"action": clean, "expected_version": battle.version},
                format="json",
            )
        assert moved.status_code == 201, moved.content
        moves += 1
        answer = moved.json()
        # the answer built from memory is what a read of the table gives afterwards
        since = f"{base}state/?since={battle.version}"
        on, off = _both(lambda api=apis[actor.pk], url=since: api.get(url).json())
        assert on == off == answer, step
        viewer = list(apis.values())[step % len(apis)]
        _reads_agree(viewer, base, "state", seen, answer["version"])
        seen = answer["version"]
    assert moves >= 10


@pytest.mark.parametrize("game", ["raigo", "spirit_war", "rso", "dbs"])
def test_a_tavern_game_played_with_the_fast_paths_on_and_off_answers_alike(
    game, player, other_player, outsider, api_for, django_capture_on_commit_callbacks
):
    table = two_humans(game, player, other_player)
    apis = {player.pk: api_for(player), other_player.pk: api_for(other_player)}
    watcher = api_for(outsider)
    base = f"/api/tavern/tables/{table.pk}/"
    rng = random.Random(11)
    seen = TavernTable.objects.get(pk=table.pk).version
    users = get_user_model().objects.in_bulk(list(apis))
    moves = 0
    for step in range(8):
        mover = None
        for user_id, api in apis.items():
            payload = api.get(f"{base}state/").json()
            if payload["moves"]:
                mover = (user_id, payload)
                break
        if mover is None:
            break
        user_id, payload = mover
        action = rng.choice(payload["moves"])["action"]
        with (
            override_settings(TABLE_FAST_PATHS=step % 2 == 0),
            django_capture_on_commit_callbacks(execute=True),
        ):
            moved = apis[user_id].post(
                f"{base}actions/",
                {"action": action, "expected_version": payload["version"]},
                format="json",
            )
        assert moved.status_code == 201, (users[user_id], moved.content)
        moves += 1
        answer = moved.json()
        on, off = _both(lambda api=apis[user_id]: api.get(f"{base}state/").json())
        assert on == off == answer, step
        viewer = [*apis.values(), watcher][step % 3]
        _reads_agree(viewer, base, "state", seen, answer["version"])
        seen = answer["version"]
    assert moves >= 4
