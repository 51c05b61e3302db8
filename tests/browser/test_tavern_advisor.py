"""The advisor at a practice table (issue 12: "beside each legal move, the search bot's estimate
of the chance of winning after it") in headless Chromium on a 390 px phone.

Every move button the game's renderer draws (static/js/tavern/spirit_war.js: the ones in a
sheet opened from a card too) carries the estimate, the same number the API gives for that
move. The estimate comes after the table (a second of search), so it is marked in place: a sheet
the player opened meanwhile stays open. The advice request is held on a real slow line (a
Playwright route) to make that order certain.
"""

from __future__ import annotations

import math

import pytest

from minigames.models import TavernTable
from tests.browser.conftest import ARTIFACTS, no_horizontal_overflow, wait_until, watch_console
from tests.minigames.conftest import to_a_choice, two_humans

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SHEET = "#tavern-board .spirit-war-sheet"


def _shown(page, within: str) -> dict[int, str]:
    """The advice drawn on the move buttons ``within``: move index -> its words."""
    return {
        int(index): text.strip()
        for index, text in page.eval_on_selector_all(
            f"{within} button[data-move]",
            "(bs) => bs.map((b) => [b.dataset.move, b.querySelector('.tavern-advice')?.textContent"
            " ?? ''])",
        )
    }


def test_the_advisor_marks_every_move_and_leaves_an_open_sheet_open(new_page, player, other_player):
    table = two_humans("spirit_war", player, other_player, practice=True, advisor=True)
    users = {0: player, 1: other_player}
    seat = to_a_choice(table, users)
    page = new_page(users[seat])
    page.set_viewport_size(PHONE)
    errors: list[str] = []
    watch_console(page, errors)
    held: list = []
    page.route("**/advice/", lambda route: held.append(route))
    page.goto(f"/tavern/tables/{table.pk}/")

    # She opens a card's sheet before the advice has come: no estimate yet.
    page.locator("#tavern-board .spirit-war-playable").first.click()
    page.locator(f"{SHEET} .spirit-war-move").first.wait_for()
    wait_until(page, lambda: held, "the page's request for advice")
    assert set(_shown(page, SHEET).values()) == {""}

    # The advice arrives: the open sheet stays open, and each of its moves gets its number.
    with page.expect_response("**/advice/") as answer:
        held[0].continue_()
    advice = answer.value.json()
    assert advice["version"] == TavernTable.objects.get(pk=table.pk).version
    expected = {
        i: f"({math.floor(a['win_chance'] * 100 + 0.5)}% to win)"  # Math.round
        for i, a in enumerate(advice["advice"])
    }
    page.locator(f"{SHEET} .tavern-advice").first.wait_for()
    assert page.locator(SHEET).is_visible()
    in_sheet = _shown(page, SHEET)
    assert in_sheet and in_sheet == {i: expected[i] for i in in_sheet}
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "tavern-advisor-390.png"))

    # Every other move the table offers has its number too, and the numbers cover every move.
    page.locator(".spirit-war-sheet-close").click()
    everywhere = _shown(page, "#tavern-board") | _shown(page, "#tavern-moves")
    assert everywhere == {i: expected[i] for i in everywhere}
    opened: set[int] = set(in_sheet)
    for place in page.locator("#tavern-board .spirit-war-playable").all():
        place.click()
        drawn = _shown(page, SHEET)
        assert drawn == {i: expected[i] for i in drawn}
        opened |= set(drawn)
        page.locator(".spirit-war-sheet-close").click()
    assert opened | set(everywhere) == set(expected)
    assert no_horizontal_overflow(page)
    assert errors == []
