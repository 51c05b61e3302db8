"""The table core's one browser client (static/js/table_client.js) on a second game: two
players at a Secret Duel table (tests/games/duel_tables) in headless Chromium. Each sees her own
hand only; a move shows on the other page by polling; a stale click is refused (409), said in
words, and the page reloads the table by itself."""

from __future__ import annotations

import pytest

from tables import services
from tables.registry import game_for
from tests.browser.conftest import wait_until
from tests.browser.live import LIVE_MS
from tests.games.duel import ENGINE
from tests.games.duel_tables.models import DuelAction, DuelTable

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.urls("tests.games.duel_tables.urls"),
]


def _seated(new_page, campaign, player, other_player):
    """A new Secret Duel table, both players' pages showing their hands: (table, the two
    hands, the first page, the second page)."""
    state = ENGINE.new_game(seats=2, seed=11)
    table = services.table_create(
        game_for("duel"),
        table=DuelTable(campaign=campaign, seat0=player, seat1=other_player),
        state=state,
    )
    first, second = new_page(player), new_page(other_player)
    for page in (first, second):
        page.goto(f"/duels/{table.pk}/")
    mine, theirs = state["hands"]
    first.wait_for_selector(f"#hand button[data-card='{mine[0]}']")
    second.wait_for_selector(f"#hand button[data-card='{theirs[0]}']")
    return table, (mine, theirs), first, second


def test_two_players_poll_send_and_recover_from_a_stale_click(
    new_page, campaign, player, other_player
):
    _, (mine, theirs), first, second = _seated(new_page, campaign, player, other_player)
    assert first.locator("#hand button").all_inner_texts() == [f"Play the {c}" for c in mine]
    assert second.locator("#hand button").all_inner_texts() == [f"Play the {c}" for c in theirs]

    # The second page stops hearing of changes: its next click is on a stale version.
    second.route("**/state/?since=*", lambda route: route.abort())
    first.click(f"#hand button[data-card='{mine[0]}']")
    first.wait_for_function("document.getElementById('duel').dataset.version === '1'")
    assert first.locator("#hand button").count() == 0  # she has chosen: nothing to play now
    second.click(f"#hand button[data-card='{theirs[0]}']")
    second.wait_for_function(
        "document.getElementById('status').textContent.includes('moved first')"
    )
    second.unroute("**/state/?since=*")
    second.wait_for_function("document.getElementById('duel').dataset.version === '1'")
    second.click(f"#hand button[data-card='{theirs[0]}']")
    first.wait_for_function(
        "document.getElementById('duel').dataset.version === '2'", timeout=LIVE_MS
    )
    assert first.locator("#summary").inner_text() == "Round 2 of 3."


def test_a_poll_answered_before_the_pages_own_move_draws_nothing(
    new_page, campaign, player, other_player
):
    """A poll sent just before a move can answer before the move does (a slow line, a busy
    server). Drawing it would offer moves the page cannot send yet (one move at a time), so a
    quick player's next click was lost without a word; the move's own answer draws instead."""
    table, (mine, theirs), first, second = _seated(new_page, campaign, player, other_player)

    # A real slow line: the first page's next poll is held before it reaches the server, and
    # her move reaches the server (it commits) but its answer is held on the way back.
    polls: list = []
    moves: list = []
    first.route("**/state/?since=*", lambda route: polls.append(route))
    first.route("**/actions/", lambda route: moves.append((route, route.fetch())))
    # the page's timer sends its next poll within half a second
    wait_until(first, lambda: polls, "the first page's next poll")
    first.click(f"#hand button[data-card='{mine[0]}']")
    wait_until(first, lambda: moves, "the first page's move")
    second.wait_for_function("document.getElementById('duel').dataset.version === '1'")
    second.click(f"#hand button[data-card='{theirs[0]}']")
    second.wait_for_function("document.getElementById('duel').dataset.version === '2'")
    first.unroute("**/state/?since=*")
    with first.expect_response(lambda r: "/state/?since=" in r.url) as answer:
        polls[0].continue_()
    assert answer.value.status == 200  # both moves are in it: round 2
    # Not drawn: the page still shows the table as it was when she moved.
    assert first.evaluate("document.getElementById('duel').dataset.version") == "0"

    route, response = moves[0]
    route.fulfill(response=response)
    first.wait_for_function("document.getElementById('duel').dataset.version === '2'")
    assert first.locator("#summary").inner_text() == "Round 2 of 3."
    # Her first click on round 2 is sent and applied.
    first.click("#hand button >> nth=0")
    second.wait_for_function("document.getElementById('duel').dataset.version === '3'")
    assert DuelTable.objects.get(pk=table.pk).version == 3


def test_a_page_ahead_of_the_server_is_drawn_again_from_what_it_has(
    new_page, campaign, player, other_player
):
    """After a crash of PostgreSQL the last moves acknowledged can be gone: the page holds a
    version the server no longer has. The poll answers the table as it is (an older version),
    and the page draws it rather than waiting for a version above its own."""
    table, (mine, _), first, _ = _seated(new_page, campaign, player, other_player)
    initial = DuelTable.objects.get(pk=table.pk).state
    first.click(f"#hand button[data-card='{mine[0]}']")
    first.wait_for_function("document.getElementById('duel').dataset.version === '1'")
    # the crash: the move is lost, the table back at version 0
    DuelAction.objects.filter(table=table).delete()
    DuelTable.objects.filter(pk=table.pk).update(version=0, state=initial)
    first.wait_for_function("document.getElementById('duel').dataset.version === '0'")
    assert first.locator("#hand button").all_inner_texts() == [f"Play the {c}" for c in mine]
