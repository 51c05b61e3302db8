"""The table chat panel on a tavern table's page (templates/tables/chat/panel.html,
static/js/table_chat.js), with a seat at 1280 px in light and a spectator on a phone in dark.

What a browser adds: a line said on one page reaches the other by itself, and the panel offers a
box to type in only to someone who may speak, saying why not to anyone else, and following the
host's choice live. Who may say what is the services' to test (tests/tables/chat/test_chat.py).
"""

from __future__ import annotations

import pytest

from campaign.models import Membership, Role
from tests.browser.conftest import no_horizontal_overflow, watch_console
from tests.browser.live import LIVE_MS
from tests.factories import UserFactory
from tests.minigames.conftest import two_humans

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LINES = "#table-chat-lines"
BOX = "#table-chat-text"


def test_a_spectator_reads_the_table_and_gets_a_box_only_when_the_host_lets_her_speak(
    new_page, campaign, player, other_player
):
    table = two_humans("spirit_war", player, other_player, campaign=campaign, rated=False)
    aya = UserFactory(username="aya")  # a member of the campaign at no seat: she watches
    Membership.objects.create(campaign=campaign, user=aya, role=Role.PLAYER)
    errors: list[str] = []
    host, watcher = new_page(player), new_page(aya)
    watcher.set_viewport_size({"width": 390, "height": 844})
    watcher.emulate_media(color_scheme="dark")
    for label, page in (("host", host), ("watcher", watcher)):
        watch_console(page, errors, label)
        page.goto(f"/tavern/tables/{table.pk}/")

    # the host speaks; the spectator reads it without reloading, and has no box to type in
    host.wait_for_selector(f"{BOX}:visible")
    host.fill(BOX, "Good luck, Marisa")
    host.click("#table-chat-send")
    watcher.wait_for_selector(f"{LINES} li:has-text('Good luck, Marisa')", timeout=LIVE_MS)
    note = watcher.locator("[data-chat-note]")
    assert note.inner_text() == (
        "Spectators may not chat at this table: the host or a GM has not allowed it."
    )
    assert watcher.locator(BOX).is_hidden() and watcher.locator("#table-chat-send").is_hidden()
    assert watcher.locator("[data-chat-moderate]").is_hidden()

    # the host lets spectators chat: her box appears by itself, and what she says reaches the host
    host.locator("[data-chat-moderate] summary").click()
    host.locator("[data-chat-spectators]").check()
    watcher.wait_for_selector(f"{BOX}:visible", timeout=LIVE_MS)
    assert note.inner_text() == ""
    watcher.fill(BOX, "Nice opening")
    watcher.click("#table-chat-send")
    said = host.wait_for_selector(f"{LINES} li:has-text('Nice opening')", timeout=LIVE_MS)
    assert "aya (watching): Nice opening" in said.inner_text()

    # the host mutes her from her line: the box goes again, and the note says who did it
    host.click(f"{LINES} button:has-text('Mute aya')")
    watcher.wait_for_selector(f"{BOX}", state="hidden", timeout=LIVE_MS)
    assert note.inner_text() == "The host or a GM muted you at this table."
    assert no_horizontal_overflow(watcher)
    assert errors == []
