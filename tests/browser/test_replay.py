"""The replay page in Chromium (issue 39, "Replays"): a finished Rumbling Spell Orchestra game
watched again by one of its players on a 390 px phone, step by step with the arrow keys, Home
and End, and by a tap in the move list; the address follows the step shown (the link to share);
nothing scrolls sideways. A battle's replay draws each step on the battle board, with no move
offered. What each step may show is tests/tables/test_replay.py's."""

from __future__ import annotations

import random

import pytest

from battles import services as battles
from minigames.models import TavernAction
from tests.battles.conftest import build_battle
from tests.browser.conftest import no_horizontal_overflow, wait_until, watch_console
from tests.minigames.conftest import play_out, two_humans
from tests.tables.test_replay import _battle_moves, _fighter

pytestmark = pytest.mark.django_db(transaction=True)


def _step(page) -> int:
    return int(page.evaluate("document.getElementById('replay').dataset.step"))


def _at(page, step: int) -> None:
    wait_until(
        page,
        lambda: _step(page) == step,
        f"the replay at step {step}",
    )


def test_a_player_steps_through_a_finished_game_with_the_keys_on_a_phone(
    new_page, player, other_player
):
    table = two_humans("rso", player, other_player)
    play_out(table, {0: player, 1: other_player}, seed=39)
    table.refresh_from_db()
    assert table.status == "ended"
    moves = TavernAction.objects.filter(table=table).count()
    page = new_page(player)
    errors: list[str] = []
    watch_console(page, errors)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/tables/rso/{table.pk}/replay/")
    _at(page, moves)  # opens at the end, with the result
    assert page.locator("#replay-result").is_visible()
    assert page.locator("#replay-position").inner_text() == f"Move {moves} of {moves}"
    wait_until(
        page,
        lambda: page.locator("#replay-moves button").count() == moves,
        "the whole move list",
    )
    page.keyboard.press("Home")
    _at(page, 0)
    assert page.locator("#replay-position").inner_text().startswith("The start")
    assert page.locator("#replay-prev").is_disabled()
    page.keyboard.press("ArrowRight")
    _at(page, 1)
    page.keyboard.press("ArrowRight")
    _at(page, 2)
    page.keyboard.press("ArrowLeft")
    _at(page, 1)
    assert page.locator("#replay-board").inner_text().strip()  # drawn by the game's renderer
    assert not page.locator("#replay-result").is_visible()  # the result only at the end
    assert page.url.endswith("?step=1")
    assert page.locator("#replay-link").input_value().endswith("/replay/?step=1")
    page.locator("#replay-moves button").nth(4).click()
    _at(page, 5)
    assert page.locator("#replay-moves button[aria-current='step']").inner_text().startswith("5.")
    page.keyboard.press("End")
    _at(page, moves)
    assert no_horizontal_overflow(page)
    # the shared link opens at its step
    other = new_page(other_player)
    other.set_viewport_size({"width": 390, "height": 844})
    other.goto(f"/tables/rso/{table.pk}/replay/?step=3")
    _at(other, 3)
    assert no_horizontal_overflow(other)
    assert not errors, errors


def test_a_battle_replay_draws_each_step_on_the_battle_board(new_page, campaign, gm, player):
    """The battle screen in its replay mode: the board of each step, nothing to do on it."""
    battle = build_battle(campaign, gm, [_fighter(campaign, player, "Cirno")])
    battles.battle_action_apply(
        battle_id=battle.pk, actor=gm, action={"type": "start"}, expected_version=battle.version
    )
    _battle_moves({"gm": gm, str(player.pk): player}, battle, random.Random(39), 4)
    page = new_page(player)
    errors: list[str] = []
    watch_console(page, errors)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/tables/battle/{battle.pk}/replay/?step=0")
    _at(page, 0)
    wait_until(page, lambda: page.locator("#board .battle-square").count() > 0, "the board")
    assert page.locator("#actions button").count() == 0  # a replay offers no move
    page.keyboard.press("End")
    _at(page, 5)
    assert page.locator("#replay-move").inner_text().endswith(".")
    page.keyboard.press("ArrowLeft")
    _at(page, 4)
    assert page.locator("#board .battle-square").count() == 8 * 6
    assert no_horizontal_overflow(page)
    assert not errors, errors
