"""Two users play a whole game of RAIGO and of Spirit War in headless Chromium, one of them on a
390x844 phone, for a stake in a campaign's tavern (issue 12, "Done when": "two users play a
whole game of each in headless Chromium, one on a phone-sized screen, and a stake moves yen
between their characters").

The guest sits down as her character from the table page, the host starts the game there,
and every move is a click on one of the move buttons the page offers (the generic renderer's,
or a renderer's fallback buttons); the other page follows by polling. Moves are chosen at
random among the offered ones. Spirit War is played with small decks (house rules) to keep
the test quick; RAIGO with its defaults.
"""

from __future__ import annotations

import random

import pytest

from characters.models import Character
from minigames import services
from minigames.engines.registry import get_engine
from minigames.models import TavernTable
from tests.minigames.conftest import character

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}


def _version(page) -> int:
    return int(page.evaluate("document.getElementById('tavern-table').dataset.version || '-1'"))


def _play_whole_game(table_id: int, pages: dict[int, object], rng: random.Random) -> None:
    """Click moves on the page of whichever seat the table waits on until the game ends."""
    engine = get_engine(TavernTable.objects.get(pk=table_id).game)
    for _ in range(1500):
        table = TavernTable.objects.get(pk=table_id)
        state = engine.from_json(table.state)
        if engine.is_terminal(state):
            return
        seat = rng.choice(list(engine.waiting_on(state)))
        page = pages[seat]
        page.wait_for_function(
            f"Number(document.getElementById('tavern-table').dataset.version) >= {table.version}"
            " && document.querySelectorAll('#tavern-moves button.tavern-move').length > 0",
            timeout=15_000,
        )
        buttons = page.locator("#tavern-moves button.tavern-move")
        label = buttons.nth(rng.randrange(buttons.count())).inner_text()
        page.locator("#tavern-moves button.tavern-move", has_text=label).first.click()
        try:
            page.wait_for_function(
                "Number(document.getElementById('tavern-table').dataset.version) > "
                f"{table.version}",
                timeout=15_000,
            )
        except Exception as exc:
            status = page.inner_text("#tavern-status")
            raise AssertionError(f"{label!r} at v{table.version} did not apply: {status}") from exc
    raise AssertionError("the game did not end")


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
    for page in (desk, phone):
        # Played through the table page's own move buttons (the generic renderer): each game's
        # drawn board is tested on its own with every state and seat (tests/minigames/).
        page.route(
            f"**/static/js/tavern/{game}.js",
            lambda route: route.fulfill(body="", content_type="application/javascript"),
        )
    phone.set_viewport_size(PHONE)
    phone.goto(f"/tavern/tables/{table.pk}/")
    phone.select_option("select[name=character]", str(guest_char.pk))
    phone.click("button.tavern-join")
    phone.wait_for_selector(".tavern-seat-you")
    desk.goto(f"/tavern/tables/{table.pk}/")
    desk.click("#tavern-start")
    desk.wait_for_selector("#tavern-resign")
    phone.wait_for_selector("#tavern-resign")  # the phone page reloads when the game starts
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    _play_whole_game(table.pk, {0: desk, 1: phone}, random.Random(table.pk))
    for page in (desk, phone):
        page.wait_for_selector("#tavern-result:not([hidden])", timeout=5_000)
        assert "The game is over" in page.inner_text("#tavern-result")
        page.wait_for_selector("#tavern-log li", timeout=5_000)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.goto(f"/campaigns/{campaign.pk}/tavern/")  # the tavern list and form fit too
    assert phone.locator("#tables-finished li a").count() >= 1
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    return TavernTable.objects.get(pk=table.pk)


def test_raigo_and_spirit_war_for_yen(
    new_page, live_server, settings, campaign, player, other_player
):
    # Poll often so the test does not wait out each hand-over (the page's default is 1 s).
    settings.TAVERN_POLL_MILLISECONDS = 150
    reimu = character(player, campaign, "Reimu", 300)
    marisa = character(other_player, campaign, "Marisa", 300)
    moved = []
    for game in ("raigo", "spirit_war"):
        before = (Character.objects.get(pk=reimu.pk).yen, Character.objects.get(pk=marisa.pk).yen)
        table = _game(game, 50, player, other_player, reimu, marisa, campaign, new_page,
                      live_server)  # fmt: skip
        after = (Character.objects.get(pk=reimu.pk).yen, Character.objects.get(pk=marisa.pk).yen)
        assert sum(after) == sum(before)  # the pot moved; nothing made or lost
        paid = table.stakes.get("paid") or {}
        if len(paid) == 1:
            winner = int(next(iter(paid)))
            assert (
                after[winner] == before[winner] + 50
                and after[1 - winner] == before[1 - winner] - 50
            )
            moved.append(game)
    assert moved, "neither game had a single winner to take the pot"


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
    table = services.tavern_create(
        by=player,
        game="spirit_war",
        campaign=None,
        seats=[services.SeatSpec(kind="host"), services.SeatSpec(kind="open")],
    )
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
    page.wait_for_function(
        f"Number(document.getElementById('tavern-table').dataset.version) > {table.version}"
    )
    assert TavernTable.objects.get(pk=table.pk).actions.get().action == moves[0]
