"""Two users build decks in the deck builder and play a whole game of Rumbling Spell Orchestra,
and one of Dream Battle of SpellCard, at a tavern table in headless Chromium (issue 13, "Done
when": "two users build decks and play a whole game of each in headless Chromium").

Everything goes through the pages as people use them: each user starts a deck on the deck list,
the host from a preset deck (the form's "Start from"), the guest empty and then filled by pasting
the deck's list into the builder's import box, and each ends with a saved legal deck (pressing +
card by card, every press saved, is tests/browser/test_deck_builder.py's). The host opens a
table on the tavern's new-table form with her deck, the guest (on a 390x844 phone) sits down with
hers from the table page, the host starts.
The opening and the end are clicks in the game's own drawn board (static/js/tavern/rso.js,
dbs.js): a move that concerns a card is played by tapping the card and then the move in its
details, the others from the board's action bar (the page's fallback buttons only if the drawing
had no place for a move). The middle is played on the server as the two players
(tests/browser/fast_forward.py: every move of every state is offered by the drawing in
tests/minigames/renderers_cards/, without a browser), and both pages must catch up by
themselves. Both pages end on the result. No console error on either page, no
horizontal scrolling on the phone; screenshots go to test-artifacts/.

Which move: the engine's heuristic bot chooses for each seat (through the bots' API, so from a
world dealt for that seat), which ends a game in about 80 moves where random moves take about
150; the decks are copies of the two preset decks whose heuristic games are shortest (6 games
of each pairing measured: RSO Scarlet Household against Grand Library 78 moves on average, DBS
Witch and Blade against Scarlet Household 77). The table's seed is the server's own, so the
game's length varies from run to run.
"""

from __future__ import annotations

from collections import Counter

import pytest

from decks.games import GAMES
from decks.models import Deck
from minigames.bots import choose_action
from minigames.engines.registry import get_engine
from minigames.models import TavernTable
from tests.browser.conftest import (
    ARTIFACTS,
    GAME_POLL_MILLISECONDS,
    no_horizontal_overflow,
    watch_console,
)
from tests.browser.fast_forward import play_on_the_server
from tests.browser.tavern_version import TABLE_VERSION, wait_for_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
#: (host's deck, guest's deck): the preset decks the users start from or import
DECKS = {
    "rso": ("scarlet-household", "grand-library"),
    "dbs": ("witch-and-blade", "scarlet-household"),
}


def _preset_counts(game: str, key: str) -> tuple[str, list[tuple[str, int]]]:
    """The preset deck's name and its (number, copies) in number order."""
    module = __import__(f"minigames.engines.{game}", fromlist=["preset_decks"])
    deck = next(d for d in module.preset_decks() if d["key"] == key)
    return str(deck["name"]), sorted(Counter(deck["cards"]).items())


def _shoot(page, name: str, at: str | None = None) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    if at is not None:
        page.locator(at).first.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / name), full_page=False)


def build_deck(page, owner, game: str, name: str, preset: str, how: str) -> Deck:
    """Start deck ``name`` on the deck list from the preset deck ``preset`` (``how="preset"``:
    the new-deck form's "Start from") or empty, then paste the preset's list into the builder's
    import box (``how="import"``); the builder must then call it legal. Pressing + card by card
    is the deck builder's own test (tests/browser/test_deck_builder.py: a whole deck of each
    game, every press saved)."""
    page.goto(f"/decks/?game={game}#new-deck")
    page.wait_for_load_state("load")  # the form's script offers the chosen game's presets
    page.fill("#id_name", name)
    page.select_option("#id_game", game)
    if how == "preset":
        page.select_option("#id_start", f"{game}:{preset}")
    page.click("#new-deck-form button[type=submit]")
    page.wait_for_selector("#deck-builder")
    if how == "import":
        assert page.get_attribute("#deck-total", "data-total") == "0"
        engine = GAMES[game].engine
        cards = next(d for d in engine.preset_decks() if d["key"] == preset)["cards"]
        text = engine.deck_to_text(cards, engine.starter_card_set(), name)
        page.click("summary:has(#import)")
        page.fill("#id_text", text)
        page.click("#import-form button[type=submit]")
        page.wait_for_selector("#deck-builder")
    page.wait_for_selector("#deck-legal")
    assert page.inner_text("#deck-legal").startswith("Legal")
    assert page.locator("#deck-errors").count() == 0
    deck = Deck.objects.get(name=name, owner=owner)
    assert page.get_attribute("#deck-total", "data-total") == str(len(deck.cards))
    return deck


def _version(page) -> int:
    return int(page.evaluate(TABLE_VERSION))


def _click_move(page, game: str, index: int, label: str) -> str:
    """Play move ``index`` of the page's payload the way a person would; how it was found."""
    board = "#tavern-board"
    direct = page.locator(f"{board} button.{game}-move[data-move='{index}']")
    if direct.count() and direct.first.is_visible():
        direct.first.click()
        return "bar"
    card = page.locator(f"{board} button.{game}-card[data-opens~='{index}']")
    if card.count():
        card.first.click()
        move = page.locator(f"{board} button.{game}-move[data-move='{index}']")
        move.first.wait_for(state="visible")
        move.first.click()
        return "card"
    fallback = page.locator("#tavern-moves button.tavern-move", has_text=label)
    fallback.first.click()
    return "fallback"


#: The contrast of a button's words with its background, as its page draws it now.
CONTRAST_JS = """(b) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, bl]) => [r, g, bl].map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
  const s = getComputedStyle(b);
  const [x, y] = [lum(rgb(s.color)), lum(rgb(s.backgroundColor))];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}"""


def _readable_under_the_pointer(page, game: str, hovered: set[str]) -> None:
    """The walkthrough found RSO's and DBS's secondary moves ("Pass", "Go to the Battle
    phase") blank under the pointer: the site's button hover painted their background in
    their own text colour, and after each click the next move appears under the pointer.
    Each kind of move, once per game and scheme: at least 3:1 with the pointer on it."""
    for kind in (f"{game}-move--secondary", f"{game}-move"):
        for scheme in ("light", "dark"):
            if (kind, scheme) in hovered:
                continue
            button = page.locator(f"#tavern-board button.{kind}:visible:not([disabled])")
            if not button.count():
                continue
            page.emulate_media(color_scheme=scheme)
            button.first.hover()
            ratio = button.first.evaluate(CONTRAST_JS)
            assert ratio >= 3, (kind, scheme, ratio, button.first.inner_text())
            hovered.add((kind, scheme))
            page.emulate_media(color_scheme="light")
            page.mouse.move(0, 0)


#: Moves clicked before the middle of the game is played on the server, and moves left to
#: click after it (tests/browser/fast_forward.py); the opening must have met both kinds of
#: move in both schemes for the readability check.
OPENING, ENDING = 24, 8


def play_whole_game(
    game: str, table_id: int, pages: dict[int, object], players: dict[int, object]
) -> Counter[str]:
    """Until the game ends: the heuristic bot picks the move of the seat waited on, and that
    seat's page plays it by clicks (checking, the first times, that a move under the pointer
    stays readable). After :data:`OPENING` clicks the middle is played on the server as the
    seats' players, and both pages must catch up by themselves before the end is clicked.
    Returns how the moves were found on the boards."""
    engine = get_engine(game)
    found: Counter[str] = Counter()
    hovered: set[tuple[str, str]] = set()
    for step in range(600):
        if step == OPENING and len(hovered) == 4:
            found["on the server"] = play_on_the_server(
                table_id, players, leave=ENDING, seed=table_id
            )
        table = TavernTable.objects.get(pk=table_id)
        state = engine.from_json(table.state)
        if engine.is_terminal(state):
            assert len(hovered) == 4, hovered  # both kinds of move, light and dark
            return found
        seat = engine.waiting_on(state)[0]
        action = choose_action(engine, state, seat, "heuristic", seed=table_id * 1000 + step)
        legal = engine.legal_actions(state, seat)
        index = legal.index(action)
        label = str(engine.describe_action(state, seat, action))
        page = pages[seat]
        page.wait_for_function(
            f"{TABLE_VERSION} >= {table.version}"
            f" && document.querySelectorAll('#tavern-board .{game}-move, #tavern-board "
            f".{game}-card[data-opens], #tavern-moves .tavern-move').length > 0",
            timeout=20_000,
        )
        if len(hovered) < 4:
            _readable_under_the_pointer(page, game, hovered)
        found[_click_move(page, game, index, label)] += 1
        wait_for_move(page, table, label, 20)
    raise AssertionError("the game did not end within 600 moves")


@pytest.mark.parametrize("game", ["rso", "dbs"])
def test_two_users_build_decks_and_play_a_whole_game(
    game, new_page, live_server, settings, player, other_player
):
    settings.TAVERN_POLL_MILLISECONDS = GAME_POLL_MILLISECONDS
    errors: list[str] = []
    desk, phone = new_page(player), new_page(other_player)
    phone.set_viewport_size(PHONE)
    for page in (desk, phone):
        watch_console(page, errors)
    host_key, guest_key = DECKS[game]
    host_name, host_recipe = _preset_counts(game, host_key)
    guest_name, guest_recipe = _preset_counts(game, guest_key)
    host_deck = build_deck(desk, player, game, f"My {host_name}", host_key, "preset")
    guest_deck = build_deck(phone, other_player, game, f"My {guest_name}", guest_key, "import")
    for deck, recipe in ((host_deck, host_recipe), (guest_deck, guest_recipe)):
        assert sorted(Counter(deck.cards).items()) == recipe
    assert no_horizontal_overflow(phone)
    _shoot(phone, f"tavern-{game}-deck-390.png")

    # The host opens a table with her saved deck on the tavern's new-table form.
    desk.goto("/tavern/")
    desk.select_option("#game", game)
    desk.select_option(f"#deck-{game}", label=host_deck.name)
    desk.click("#create-table")
    desk.wait_for_selector("#tavern-table")
    table = TavernTable.objects.filter(game=game).latest("pk")
    assert table.seats.get(index=0).deck.endswith(f"deck:{host_deck.pk}")
    # The guest sits at the open seat with hers, from the table page on her phone.
    phone.goto(f"/tavern/tables/{table.pk}/")
    # her saved deck is offered once, after the presets (minigames.services.deck_choices)
    offered = phone.locator("form.tavern-inline select[name=deck] option").all_inner_texts()
    assert offered.count(guest_deck.name) == 1 and len(offered) == len(set(offered)), offered
    phone.select_option("form.tavern-inline select[name=deck]", label=guest_deck.name)
    phone.click("button.tavern-join")
    phone.wait_for_selector(".tavern-seat-you")
    assert table.seats.get(index=1).deck.endswith(f"deck:{guest_deck.pk}")
    # the host's lobby reloads by itself when the seat is taken (a newer version)
    desk.wait_for_selector("#tavern-start", timeout=20_000)
    desk.click("#tavern-start")
    # the game under way: the seats fold into the header, Resign behind its table menu
    desk.wait_for_selector("#tavern-menu")
    phone.wait_for_selector("#tavern-menu")  # the phone page reloads when the game starts
    for page in (desk, phone):
        page.wait_for_selector(f"#tavern-board .{game}-board, #tavern-board [class^={game}-]")
    _shoot(desk, f"tavern-{game}-start-1280.png", "#tavern-board")
    _shoot(phone, f"tavern-{game}-start-390.png", "#tavern-board")
    assert no_horizontal_overflow(phone)

    found = play_whole_game(game, table.pk, {0: desk, 1: phone}, {0: player, 1: other_player})

    # Both pages end on the result, drawn by the game's renderer and stated by the page.
    table = TavernTable.objects.get(pk=table.pk)
    engine = get_engine(game)
    assert engine.is_terminal(engine.from_json(table.state))
    for page in (desk, phone):
        page.wait_for_selector("#tavern-result:not([hidden])", timeout=10_000)
        assert "The game is over" in page.inner_text("#tavern-result")
        page.wait_for_selector(f"#tavern-board .{game}-result", timeout=10_000)
        # told once: on the board, not again in the page's box
        told = "#tavern-result .tavern-breakdown, #tavern-result .tavern-scores"
        assert page.locator(told).count() == 0
    heads = [p.inner_text(f"#tavern-board .{game}-result").splitlines()[0] for p in (desk, phone)]
    winners = engine.returns(engine.from_json(table.state))
    if winners[0] > 0:
        assert heads[0] == "You win!" and "wins" in heads[1]
    elif winners[1] > 0:
        assert heads[1] == "You win!" and "wins" in heads[0]
    assert no_horizontal_overflow(phone)
    # the result's table is three short columns: it fits the phone, no sideways scrolling
    fits = phone.evaluate(
        f"[...document.querySelectorAll('#tavern-board .{game}-result table')]"
        ".map((t) => t.scrollWidth <= t.parentElement.clientWidth)"
    )
    assert fits == [True], fits
    _shoot(desk, f"tavern-{game}-result-1280.png", f"#tavern-board .{game}-result")
    _shoot(phone, f"tavern-{game}-result-390.png", f"#tavern-board .{game}-result")
    # The boards carried the game: most moves were found on a card or in the action bar.
    assert found["card"] > 0 and found["bar"] > 0, found
    assert found["fallback"] <= sum(found.values()) // 4, found
    assert not errors, errors
