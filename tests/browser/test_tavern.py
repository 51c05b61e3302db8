"""Two users play a whole game of RAIGO and of Spirit War in headless Chromium, one of them on a
390x844 phone, for a stake in a campaign's tavern (issue 12, "Done when": "two users play a
whole game of each in headless Chromium, one on a phone-sized screen, and a stake moves yen
between their characters").

The guest sits down as her character from the table page, the host starts the game there, and
the opening and the end are taps on the table drawn by the game's own renderer
(static/js/tavern/raigo.js and spirit_war.js): a place holding moves (a token, a space, a tower,
a card, a seat) and a move on the sheet it opens, or a move in the prompt box; the other page
follows by polling. Moves are chosen at random among the offered ones. The middle of each game
is played on the server as the players (tests/browser/fast_forward.py), and both pages must
catch up by themselves. How the stakes are held and paid is the services' to test
(tests/minigames/test_services.py, on games played to a single winner and to none); here the
end reached in the browser settles them on the characters. Spirit War is played with small
decks (house rules) to keep the test quick; RAIGO with its defaults.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from characters.models import Character
from minigames import services
from minigames.engines.registry import get_engine
from minigames.models import TavernTable
from tests.browser.conftest import (
    GAME_POLL_MILLISECONDS,
    goto_holding_first_request,
    no_horizontal_overflow,
)
from tests.browser.fast_forward import play_on_the_server
from tests.browser.live import LIVE_MS
from tests.browser.tavern_version import TABLE_VERSION, wait_for_move
from tests.minigames.conftest import character, one_open_seat, two_humans
from westernroses.protocol import event_visible

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}


def _version(page) -> int:
    return int(page.evaluate(TABLE_VERSION))


#: The CSS prefix of each game's drawn renderer (static/js/tavern/<slug>.js).
PREFIX = {"raigo": "raigo", "spirit_war": "spirit-war"}


#: Moves tapped before the middle of the game is played on the server, and moves left to tap
#: after it (tests/browser/fast_forward.py).
OPENING, ENDING = 12, 6


def _play_whole_game(
    table_id: int,
    pages: dict[int, object],
    players: dict[int, object],
    rng: random.Random,
    game: str,
) -> dict[str, int]:
    """Play the game through the drawn renderer of whichever seat the table waits on until it
    ends: tap a random place on the drawn table that holds moves (a token, a space, a tower, a
    card, a seat) and a random move on the sheet it opens, or a random move of the prompt box.
    After :data:`OPENING` taps the middle is played on the server, as the seats' players, and
    both pages must catch up by themselves before the last moves are tapped. Returns how many
    moves came from the drawing and how many from fallback buttons."""
    p = PREFIX[game]
    entries = (
        f"#tavern-board .{p}-playable:visible, #tavern-board .{p}-move:visible, "
        "#tavern-moves button.tavern-move:visible"
    )
    sheet_moves = f"#tavern-board .{p}-sheet .{p}-move:visible"
    engine = get_engine(TavernTable.objects.get(pk=table_id).game)
    counts = {"drawn": 0, "fallback": 0, "on the server": 0}
    for tapped in range(1500):
        if tapped == OPENING:
            counts["on the server"] = play_on_the_server(
                table_id, players, leave=ENDING, seed=rng.randrange(2**31)
            )
        table = TavernTable.objects.get(pk=table_id)
        state = engine.from_json(table.state)
        if engine.is_terminal(state):
            return counts
        seat = rng.choice(list(engine.waiting_on(state)))
        page = pages[seat]
        page.wait_for_function(
            f"{TABLE_VERSION} >= {table.version}",
            timeout=15_000,
        )
        choice = _pick(page, entries, sheet_moves, p, rng, counts)
        label = choice.inner_text()
        choice.click()
        wait_for_move(page, table, label, 15)
    raise AssertionError("the game did not end")


def _pick(page, entries: str, sheet_moves: str, p: str, rng: random.Random, counts) -> object:
    """A random move button on the drawn table: a move of the prompt box, or a place's sheet
    opened and one of its moves. A place tapped while the page redraws (a poll landing at that
    moment) loses its sheet: then the tap is made again on the new drawing."""
    for _attempt in range(3):
        page.locator(entries).first.wait_for(timeout=15_000)
        options = page.locator(entries)
        entry = options.nth(rng.randrange(options.count()))
        classes = (entry.get_attribute("class") or "").split()
        if "tavern-move" in classes:
            counts["fallback"] += 1
            return entry
        if f"{p}-playable" not in classes:
            counts["drawn"] += 1
            return entry
        entry.click()  # opens the sheet of that place's moves
        try:
            page.locator(sheet_moves).first.wait_for(timeout=15_000)
        except PlaywrightTimeout:  # redrawn under the tap: tap again
            counts["retaps"] = counts.get("retaps", 0) + 1
            continue
        listed = page.locator(sheet_moves)
        counts["drawn"] += 1
        return listed.nth(rng.randrange(listed.count()))
    raise AssertionError("no place of the drawn table opened its moves")


#: Spirit War with small decks (its house rules): a whole war in about 25 moves, with Spell,
#: Fortune and Disaster cards still in play.
SHORT_WAR = {"spirit_cards": 8, "spell_cards": 4, "attack_cards": 6, "fortune_cards": 2,
             "disaster_cards": 2, "hand_size": 3}  # fmt: skip


def _game(game, stake, host, guest, host_char, guest_char, campaign, new_page, live_server):
    table = services.tavern_create(
        by=host,
        game=game,
        campaign=campaign,
        stake=stake,
        options=SHORT_WAR if game == "spirit_war" else {},
        seats=[services.SeatSpec(kind="host", character=host_char.pk), services.SeatSpec()],
    )
    desk = new_page(host)
    phone = new_page(guest)
    phone.set_viewport_size(PHONE)
    phone.goto(f"/tavern/tables/{table.pk}/")
    # The lobby has drawn its first state (a lobby may reload itself on a change; choosing the
    # character before that could be lost).
    phone.wait_for_function(f"{TABLE_VERSION} >= 0")
    phone.select_option("select[name=character]", str(guest_char.pk))
    phone.click("button.tavern-join")
    phone.wait_for_selector(".tavern-seat-you")
    assert guest_char.name in phone.inner_text(".tavern-seat-you .tavern-seat-name")
    desk.goto(f"/tavern/tables/{table.pk}/")
    desk.click("#tavern-start")
    # the game under way: the seats fold into the header, Resign behind its table menu
    desk.wait_for_selector("#tavern-menu")
    phone.wait_for_selector("#tavern-menu")  # the phone page reloads when the game starts
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for page in (desk, phone):  # the game's own renderer draws the table
        page.wait_for_selector(f"#tavern-board .{PREFIX[game]}")
    assert desk.inner_text("#tavern-log-empty") == "No moves yet."  # nobody has moved
    counts = _play_whole_game(
        table.pk, {0: desk, 1: phone}, {0: host, 1: guest}, random.Random(table.pk), game
    )
    # Every move was a tap on the drawn table; none needed a fallback button.
    assert counts["drawn"] > 0 and counts["fallback"] == 0, counts
    for page in (desk, phone):
        page.wait_for_selector("#tavern-result:not([hidden])", timeout=15_000)
        assert "The game is over" in page.inner_text("#tavern-result")
        # the board draws the final scoring; the page's box does not tell it again
        page.wait_for_selector(f"#tavern-board [class^={PREFIX[game]}-final]", timeout=15_000)
        assert (
            page.locator("#tavern-result .tavern-breakdown, #tavern-result .tavern-scores").count()
            == 0
        )
        page.wait_for_selector("#tavern-log li", timeout=15_000)
        assert page.locator("#tavern-log-empty").is_hidden()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.goto(f"/campaigns/{campaign.pk}/tavern/")  # the tavern list and form fit too
    assert phone.locator("#tables-finished li a").count() >= 1
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    return TavernTable.objects.get(pk=table.pk)


def test_raigo_and_spirit_war_for_yen(
    new_page, live_server, settings, campaign, player, other_player
):
    """A whole game of each, for a stake: each seated character's stake is held at the start,
    and the game's end, reached by taps on both pages, settles it on the characters (the pot
    to a single winner, or both stakes back: the arithmetic of both is
    tests/minigames/test_services.py's, on games played to each end)."""
    # Poll often so the test does not wait out each hand-over (the page's default is 1 s).
    settings.TAVERN_POLL_MILLISECONDS = GAME_POLL_MILLISECONDS
    stake = 50
    reimu = character(player, campaign, "Reimu", 300)
    marisa = character(other_player, campaign, "Marisa", 300)
    seated = {0: reimu.pk, 1: marisa.pk}  # the host sits at seat 0, the guest at seat 1
    for game in ("raigo", "spirit_war"):
        before = {s: Character.objects.get(pk=pk).yen for s, pk in seated.items()}
        table = _game(game, stake, player, other_player, reimu, marisa, campaign, new_page,
                      live_server)  # fmt: skip
        after = {s: Character.objects.get(pk=pk).yen for s, pk in seated.items()}
        assert table.stakes["held"] == {"0": stake, "1": stake}
        assert table.stakes.get("settled"), table.stakes
        paid = {int(s): amount for s, amount in table.stakes.get("paid", {}).items()}
        assert paid or table.stakes["returned"]
        assert after == {s: before[s] + paid.get(s, 0) - (stake if paid else 0) for s in seated}


HOOK = """
window.TavernGames = window.TavernGames || {};
window.TavernGames["spirit_war"] = {
  render(root, payload, api) {
    root.textContent = `Drawn by the game's renderer for ${api.seatName(api.you)}.`;
    const [first, ...rest] = payload.moves;
    if (first) {
      const b = document.createElement("button");
      b.id = "placed-move"; b.textContent = first.label;
      b.addEventListener("click", () => api.play(first.action));
      root.appendChild(b);
    }
    api.fallbackButtons(rest);
  },
};
"""


def test_the_renderer_hook(new_page, live_server, player, other_player):
    """TAVERN.md's renderer contract: table.js calls window.TavernGames[slug].render(root,
    payload, api) on every payload; api.play sends a listed move; the moves the drawing has no
    place for come back as labelled buttons through api.fallbackButtons."""
    table = one_open_seat(player, "spirit_war")
    services.tavern_join(table_id=table.pk, by=other_player, index=1)
    services.tavern_start(table_id=table.pk, by=player)
    table = TavernTable.objects.get(pk=table.pk)
    engine = get_engine("spirit_war")
    seat = engine.waiting_on(engine.from_json(table.state))[0]
    page = new_page({0: player, 1: other_player}[seat])
    # the game's own renderer would replace the test's: serve it empty for this page
    page.route(
        "**/static/js/tavern/spirit_war.js",
        lambda route: route.fulfill(body="", content_type="application/javascript"),
    )
    page.add_init_script(HOOK)
    page.goto(f"/tavern/tables/{table.pk}/")
    page.wait_for_selector("#placed-move")
    name = {0: player, 1: other_player}[seat].shown_name
    assert f"Drawn by the game's renderer for {name}." in page.inner_text("#tavern-board")
    moves = engine.legal_actions(engine.from_json(table.state), seat)
    assert page.locator("#tavern-moves button.tavern-move").count() == len(moves) - 1
    page.click("#placed-move")
    page.wait_for_function(f"{TABLE_VERSION} > {table.version}")
    assert TavernTable.objects.get(pk=table.pk).actions.get().action == moves[0]


def test_the_new_table_form_offers_the_seats_the_game_has(new_page, player):
    """The form has six seat choices, the most any game seats (Spirit War). A game offers
    only its own: RAIGO four, RSO and DBS two; a choice left on a seat the game lacks is not
    sent (its row is hidden and its choice disabled)."""
    page = new_page(player)
    page.goto("/tavern/")
    rows = page.locator("#new-table-form .tavern-form-row[data-seat]")
    assert rows.count() == 6
    for game in ("spirit_war", "raigo", "rso", "dbs", "spirit_war"):
        page.select_option("#game", game)
        seats = get_engine(game).max_seats
        assert page.locator("#new-table-form .tavern-form-row[data-seat]:visible").count() == seats
        assert page.locator("#new-table-form select[name^=seat-]:enabled").count() == seats
    page.select_option("#seat-4", "bot:random")  # a fifth seat, for Spirit War
    page.select_option("#game", "raigo")
    page.select_option("#seat-1", "bot:heuristic")
    page.click("#create-table")
    page.wait_for_selector("#tavern-table")
    table = TavernTable.objects.latest("pk")
    assert table.game == "raigo"
    assert [(s.user_id, s.bot) for s in table.seats.order_by("index")] == [
        (player.pk, ""),
        (None, "heuristic"),
    ]


def _war_between(player, other_player, game: str = "spirit_war") -> tuple[TavernTable, object]:
    """A started two-player game between two users; returns the table and its engine."""
    table = one_open_seat(player, game)
    services.tavern_join(table_id=table.pk, by=other_player, index=1)
    services.tavern_start(table_id=table.pk, by=player)
    return TavernTable.objects.get(pk=table.pk), get_engine(game)


def _move(table_id: int, users: dict[int, object], rng: random.Random) -> int:
    """One random legal move of a seat the table waits on, sent as that seat's user (as from
    another tab); returns the table's new version."""
    table = TavernTable.objects.get(pk=table_id)
    engine = get_engine(table.game)
    state = engine.from_json(table.state)
    seat = rng.choice(list(engine.waiting_on(state)))
    services.tavern_action_apply(
        table_id=table_id,
        by=users[seat],
        action=rng.choice(engine.legal_actions(state, seat)),
        expected_version=table.version,
    )
    return table.version + 1


def _logged_move(table_id: int, users: dict[int, object], rng: random.Random, reader: int) -> int:
    """Random moves until one writes a line that seat ``reader`` reads in her log (some moves,
    "stop fetching" say, write none); returns the table's version after it."""
    for _ in range(20):
        version = _move(table_id, users, rng)
        events = TavernTable.objects.get(pk=table_id).actions.get(seq=version).events
        if any(ev.get("text") and event_visible(ev, reader) for ev in events):
            return version
    raise AssertionError("twenty moves and not one line in her log")


def test_a_refused_stale_move_says_why_after_the_table_is_redrawn(new_page, player, other_player):
    """The seat to move taps a move while her page has not heard of a move she made from
    another tab (its polls are held back): the server refuses it (409), the page reloads the
    table at once, and "someone else moved first" stays on the redrawn table. It was written
    and then wiped by that redraw, so the tap seemed to do nothing."""
    table, engine = _war_between(player, other_player)
    users = {0: player, 1: other_player}
    seat = engine.waiting_on(engine.from_json(table.state))[0]
    page = new_page(users[seat])
    page.goto(f"/tavern/tables/{table.pk}/")
    page.wait_for_selector("#tavern-board .spirit-war")
    held = {"on": True}

    def hold(route) -> None:
        if held["on"]:
            route.abort()
        else:
            route.continue_()

    def release(request) -> None:
        if request.method == "POST" and "/actions/" in request.url:
            held["on"] = False

    page.route("**/state/?since=*", hold)
    page.on("request", release)
    state = engine.from_json(table.state)
    # the same seat's own move, from "another tab"
    services.tavern_action_apply(
        table_id=table.pk,
        by=users[seat],
        action=engine.legal_actions(state, seat)[0],
        expected_version=table.version,
    )
    assert _version(page) == table.version  # not heard of it
    page.locator(
        "#tavern-board .spirit-war-move:visible, #tavern-moves button.tavern-move:visible"
    ).first.click()
    page.wait_for_function(f"{TABLE_VERSION} > {table.version}", timeout=15_000)  # reloaded
    assert page.inner_text("#tavern-status") == (
        "Someone else moved first: the table has been refreshed."
    )


def test_the_move_log_follows_the_newest_move_unless_scrolled_up(new_page, player, other_player):
    """ "Moves so far" scrolls inside its box; new moves come in at the bottom. The box follows
    them (it stayed on the first moves, so after every bot turn the player had to scroll), but
    leaves a player who scrolled up to read an earlier move where she is."""
    # RAIGO: a random two-player game lasts 51 moves or more (300 seeds), so it is still on
    # after the 22 here (a random Spirit War can end within 12)
    table, _ = _war_between(player, other_player, "raigo")
    users = {0: player, 1: other_player}
    rng = random.Random(7)
    for _ in range(20):  # a log longer than its box
        _move(table.pk, users, rng)
    page = new_page(player)
    page.set_viewport_size(PHONE)
    page.goto(f"/tavern/tables/{table.pk}/")
    page.wait_for_selector("#tavern-log li")
    at_bottom = (
        "(() => { const b = document.getElementById('tavern-log');"
        " return b.scrollHeight > b.clientHeight + 50"
        " && b.scrollTop + b.clientHeight >= b.scrollHeight - 8; })()"
    )
    page.wait_for_function(at_bottom, timeout=15_000)
    count = page.locator("#tavern-log li").count()
    version = _logged_move(table.pk, users, rng, 0)
    page.wait_for_function(f"{TABLE_VERSION} >= {version}")
    page.wait_for_function(f"document.querySelectorAll('#tavern-log li').length > {count}")
    assert page.evaluate(at_bottom)  # followed the new move
    page.evaluate("document.getElementById('tavern-log').scrollTop = 0")
    count = page.locator("#tavern-log li").count()
    version = _logged_move(table.pk, users, rng, 0)
    page.wait_for_function(f"document.querySelectorAll('#tavern-log li').length > {count}")
    assert page.evaluate("document.getElementById('tavern-log').scrollTop") == 0  # left alone


def test_a_seat_taken_before_the_lobby_first_polls_still_reloads_it(new_page, player, other_player):
    """The lobby's seats and Start button are drawn by the server; the page reloads itself when
    a poll brings a newer version. A seat taken after the page was drawn but before its first
    poll answered is such a change too: that answer is compared with the version the page was
    drawn at. (It once became the baseline, and the host waited for Start forever.)"""
    table = one_open_seat(player, "spirit_war")
    page = new_page(player)
    poll = goto_holding_first_request(page, f"/tavern/tables/{table.pk}/", "**/state/**")
    assert page.locator("#tavern-start").count() == 0  # drawn with the seat still open
    services.tavern_join(table_id=table.pk, by=other_player, index=1)
    poll.continue_()
    page.wait_for_selector("#tavern-start", timeout=LIVE_MS)
    assert other_player.shown_name in page.inner_text("#tavern-seats")


def test_the_page_after_a_resignation_and_an_abandon(new_page, player, other_player):
    """A table that ended before its game did: each player is still her seat (her own hand
    shown, never "You are watching"), the result names who resigned, the status strip no longer
    tells the turn it stopped at; an abandoned table says so and by whom, and nobody "won"."""
    table = two_humans("spirit_war", player, other_player)
    services.tavern_resign(table_id=table.pk, by=other_player)
    winner, resigner = new_page(player), new_page(other_player)
    resigner.set_viewport_size(PHONE)
    for page in (winner, resigner):
        page.goto(f"/tavern/tables/{table.pk}/")
        page.wait_for_selector("#tavern-board .spirit-war-final")
        board = page.inner_text("#tavern-board")
        assert "You are watching" not in board and "Your hand is empty" not in board
        assert "Your hand (5 cards)" in board
        assert "Turn 1" not in page.inner_text(".spirit-war-status")
        rows = page.locator(".spirit-war-final-table tbody tr")
        assert rows.nth(0).inner_text().split("\t")[-1] == "♛ Spirit King"
        assert rows.nth(1).inner_text().split("\t")[-1] == "resigned"
        assert "in the war to the end" not in board
    assert no_horizontal_overflow(resigner)
    assert "(you)" in resigner.inner_text(".spirit-war-final-table tbody tr:nth-child(2)")

    table = two_humans("spirit_war", player, other_player)
    services.tavern_abandon(table_id=table.pk, by=player)
    page = new_page(other_player)
    page.goto(f"/tavern/tables/{table.pk}/")
    page.wait_for_selector("#tavern-board .spirit-war-final")
    final = page.inner_text(".spirit-war-final")
    assert "The table was abandoned" in final
    assert f"{player.shown_name} abandoned the table." in final
    assert "The war is over" not in final and "in the war to the end" not in final
    assert "Your hand (5 cards)" in page.inner_text("#tavern-board")
    result = page.inner_text("#tavern-result")
    assert "The table was abandoned" in result and "Nobody won" not in result
    # the other games' boards say so too, and none calls it a draw or a score
    for game, final_box in (("raigo", ".raigo-final"), ("rso", ".rso-result"),
                            ("dbs", ".dbs-result")):  # fmt: skip
        table = two_humans(game, player, other_player)
        services.tavern_abandon(table_id=table.pk, by=player)
        page.goto(f"/tavern/tables/{table.pk}/")
        page.wait_for_selector(f"#tavern-board {final_box}")
        final = page.inner_text(f"#tavern-board {final_box}")
        assert "The table was abandoned" in final, game
        assert "draw" not in final and "Final scoring" not in final, game


def test_resign_and_abandon_ask_first(new_page, campaign, player, other_player):
    """One tap never ends a game: Resign opens a question naming what happens to the stakes,
    "Keep playing" (or Escape) closes it with the game going on; only "Yes, resign" resigns.
    Abandon asks the same way. The question works from the keyboard, on a phone."""
    reimu = character(player, campaign, "Reimu", 300)
    marisa = character(other_player, campaign, "Marisa", 300)
    table = two_humans("spirit_war", player, other_player, campaign=campaign, stake=50,
                       host_character=reimu, guest_character=marisa)  # fmt: skip
    phone = new_page(other_player)
    phone.set_viewport_size(PHONE)
    # The page comes with whose turn it is marked: table.js's first drawing moves nothing (it
    # did move the menu 38 px down on a phone, under a tap). The state is held back until the
    # page as served is measured.
    held: list[Any] = []
    phone.route("**/state/**", lambda route: held.append(route))
    phone.goto(f"/tavern/tables/{table.pk}/")
    served = phone.locator("#tavern-menu-open").bounding_box()
    for _ in range(100):  # the page asks for its state once loaded
        if held:
            break
        phone.wait_for_timeout(50)
    assert held, "the page asked for no state"
    for route in held:
        route.continue_()
    phone.unroute("**/state/**")  # and lets through any asked since
    phone.wait_for_function(f"{TABLE_VERSION} >= {table.version}")
    assert phone.locator("#tavern-menu-open").bounding_box() == served
    phone.click("#tavern-menu-open")  # Resign sits behind the table menu, not above the game
    phone.click("#tavern-resign")
    question = phone.locator("#tavern-resign-question")
    assert question.is_visible()
    assert (
        question.inner_text()
        == "Resign this game? Reimu wins, and the pot of 100 yen goes to Reimu."
    )
    assert no_horizontal_overflow(phone)
    phone.click("#tavern-resign-keep")
    assert not question.is_visible()
    phone.wait_for_timeout(300)
    assert TavernTable.objects.get(pk=table.pk).status == "active"
    # from the keyboard: Enter on the button opens it, Escape closes it
    phone.focus("#tavern-resign")
    phone.keyboard.press("Enter")
    assert question.is_visible()
    phone.keyboard.press("Escape")
    assert not question.is_visible()
    assert TavernTable.objects.get(pk=table.pk).status == "active"

    desk = new_page(player)
    desk.goto(f"/tavern/tables/{table.pk}/")
    desk.wait_for_function(f"{TABLE_VERSION} >= {table.version}")
    desk.click("#tavern-menu-open")
    desk.click("#tavern-abandon")
    assert desk.inner_text("#tavern-abandon-question") == (
        "Abandon this table? The game ends without a winner, and the stakes (100 yen) are returned."
    )
    desk.click("#tavern-abandon-keep")
    assert TavernTable.objects.get(pk=table.pk).status == "active"

    assert phone.locator("#tavern-resign").is_visible()  # Escape closed the question only
    phone.click("#tavern-resign")
    phone.click("#tavern-resign-yes")
    phone.wait_for_selector("#tavern-rematch")
    table.refresh_from_db()
    assert table.status == "ended" and table.outcome["resigned"] == 1


def test_a_refused_new_table_shows_its_errors_on_a_phone(new_page, player):
    """The walkthrough sent the new-table form with one seat on a 390 px screen: the page came
    back with its error a screen and a half down, out of sight, and looked as if nothing had
    happened. The refused form's errors are scrolled into view and focused (a screen reader
    reads them too: the list is an alert)."""
    page = new_page(player)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/tavern/")
    page.select_option("#game", "raigo")
    page.select_option("#seat-1", label="No seat")  # RAIGO needs two players at least
    page.click("#create-table")
    errors = page.locator("#new-table-errors")
    errors.wait_for()
    page.wait_for_load_state("load")  # new_table.js, after the form, scrolls to and focuses them
    assert "player" in errors.inner_text().lower(), errors.inner_text()
    box = errors.bounding_box()
    # in sight, a little below the top edge (the list's scroll margin: 1rem)
    assert box is not None and box["y"] >= 8 and box["y"] + box["height"] <= 844, box
    assert page.evaluate("document.activeElement.id") == "new-table-errors"
