"""The turn clock and undo panel of a tavern table page (templates/tables/clock_undo_panel.html,
static/js/tables/clock_undo.js), on a phone: what a browser adds is the countdown in the page
and the buttons following the table's version. The rules are the services' to test
(tests/minigames/test_clocks.py, test_undo.py)."""

from __future__ import annotations

import pytest

from minigames import services
from minigames.engines.registry import get_engine
from minigames.models import TavernTable
from tables.clocks.controls import TimeControl
from tests.browser.tavern_version import TABLE_VERSION
from tests.minigames.conftest import two_humans
from tests.minigames.test_undo import _ready

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
RUNNING = "#table-clock-seats .table-extras__seat--running"


def test_the_clock_counts_down_and_an_undo_is_asked_and_allowed(new_page, player, other_player):
    table = two_humans(
        "raigo", player, other_player, clock=TimeControl("move", 600, "skip"), rated=False
    )
    users = {0: player, 1: other_player}
    seat, action = _ready(table, users)
    pages = {s: new_page(u) for s, u in users.items()}
    for page in pages.values():
        page.set_viewport_size(PHONE)
        page.goto(f"/tavern/tables/{table.pk}/")
    mine, theirs = pages[seat], pages[1 - seat]
    mine.wait_for_selector(RUNNING)
    first = mine.locator(RUNNING).inner_text()
    assert (
        "to move" in first
        and "Turn clock: 10 minutes per move" in mine.locator("#table-clock-words").inner_text()
    )
    mine.wait_for_function(
        f"document.querySelector({RUNNING!r}).textContent !== {first!r}", timeout=15_000
    )  # counting down in the page, from the server's deadline
    table.refresh_from_db()
    services.tavern_action_apply(
        table_id=table.pk, by=users[seat], action=action, expected_version=table.version
    )
    before_ask = TavernTable.objects.get(pk=table.pk).version
    mine.wait_for_function(f"{TABLE_VERSION} >= {before_ask}")
    mine.locator("#table-undo-ask").click()
    theirs.wait_for_selector("#table-undo-approve:visible")
    assert "asks to take back their last move" in theirs.locator("#table-undo-note").inner_text()
    theirs.locator("#table-undo-approve").click()
    mine.wait_for_function(
        "document.getElementById('table-undo-note').textContent.includes('Approved')"
    )
    engine = get_engine("raigo")
    state = engine.from_json(TavernTable.objects.get(pk=table.pk).state)
    assert list(engine.waiting_on(state)) == [seat]
    assert not mine.evaluate("document.documentElement.scrollWidth > window.innerWidth")
