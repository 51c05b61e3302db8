"""The RAIGO renderer (static/js/tavern/raigo.js) against real engine states, without Django.

Rulebook places drawn (../shared/rules/raigo-rulebook-en.md, "Setup" and "How to play"): every
seat's towers with their heights, face down except to their owner; Hands and Body ("Inner
Tokens", seen only by their owner); Raizan's piles; Yang balls; the Dong token; the Bonus Token;
the Canyon; the four steps and the reaction windows (Shield, Roar). See harness.py for what each
check means.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from minigames.engines.raigo.engine import ENGINE
from minigames.engines.raigo.tokens import ids_for
from minigames.payload import table_payload
from tests.minigames.renderers.harness import (
    ARTIFACTS,
    Cases,
    assert_every_situation_met,
    cases_by_seats,
    check_every_seat,
    open_page,
    payloads,
    play_until,
    render,
    screenshot,
)

pytestmark = pytest.mark.browser

SLUG = "raigo"
NAMES = {
    2: ["Reimu", "Marisa"],
    3: ["Reimu", "Marisa", "Sakuya"],
    4: ["Reimu", "Marisa", "Sakuya", "Youmu"],
}
#: Every decision the engine can ask for (minigames/engines/raigo/player_view.py PROMPT_WORDS), and
#: Purify's two stages.
SITUATIONS = {
    "fetch",
    "select",
    "discard",
    "place",
    "act",
    "react",
    "switch",
    "purify:discard",
    "purify:arrange",
    "destroy",
}
SEEDS = range(12)


def situation(state: dict[str, Any]) -> str:
    prompt = state["prompt"]
    if prompt is None:
        return "none"
    if prompt["kind"] == "purify":
        return f"purify:{prompt['stage']}"
    return str(prompt["kind"])


@pytest.fixture(scope="module")
def page(harness_page: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    return open_page(harness_page, tmp_path_factory, SLUG)


@pytest.fixture(scope="module")
def all_cases() -> Cases:
    return cases_by_seats(ENGINE, names=NAMES, situations=SITUATIONS, key=situation, seeds=SEEDS)


def test_the_sampled_states_cover_every_situation(all_cases: Cases) -> None:
    assert_every_situation_met(all_cases, SITUATIONS)


@pytest.mark.parametrize("seats", sorted(NAMES))
def test_every_seat_and_a_spectator_get_a_full_table_with_their_moves(
    page: Any, all_cases: Cases, seats: int
) -> None:
    # The drawing holds the moves itself.
    assert check_every_seat(page, SLUG, ENGINE, all_cases[seats], NAMES[seats]) > 0


def _state(seats: int, label: str, by_seats: Cases) -> Any:
    return next(state for lab, state in by_seats[seats] if lab.startswith(label))


def test_a_real_tap_on_a_hand_token_opens_its_moves_and_plays_one(
    page: Any, all_cases: dict[int, list[tuple[str, Any]]]
) -> None:
    state = _state(3, "act", all_cases)
    seat = ENGINE.waiting_on(state)[0]
    payload = json.loads(json.dumps(table_payload(ENGINE, state, seat, version=3, names=NAMES[3])))
    page.page.set_viewport_size({"width": 390, "height": 844})
    render(page, SLUG, payload)
    index = next(i for i, m in enumerate(payload["moves"]) if m["action"]["type"] == "pile")
    # The move is found from the token in the hand and from the tower it goes to.
    assert page.page.locator(f'.raigo-tower [data-moves~="{index}"]').count() == 1
    anchor = page.page.locator(f'.raigo-hand [data-moves~="{index}"]')
    assert anchor.count() == 1
    anchor.click()
    sheet = page.page.locator(".raigo-sheet")
    assert sheet.is_visible()
    # The sheet lists the moves of that token in words, and nothing else.
    shown = sheet.locator("[data-move]").all_inner_texts()
    assert payload["moves"][index]["label"] in shown
    # Escape closes the sheet without playing; the same tap opens it again.
    page.page.keyboard.press("Escape")
    assert not sheet.is_visible()
    assert page.page.evaluate("window.__plays") == []
    anchor.click()
    sheet.locator(f'[data-move="{index}"]').click()
    plays = page.page.evaluate("window.__plays")
    assert plays == [payload["moves"][index]["action"]]
    assert not sheet.is_visible()


def test_a_refused_move_says_why(page: Any, all_cases: dict[int, list[tuple[str, Any]]]) -> None:
    state = _state(2, "select", all_cases)
    seat = ENGINE.waiting_on(state)[0]
    payload = json.loads(json.dumps(table_payload(ENGINE, state, seat, version=3, names=NAMES[2])))
    page.page.evaluate(
        """(payload) => {
          const root = document.getElementById("board");
          root.replaceChildren();
          window.TavernGames.raigo.render(root, payload, {
            you: payload.seat, seatName: (s) => payload.names[s], fallbackButtons() {},
            play() { return Promise.reject(new Error("Someone moved first.")); },
          });
        }""",
        payload,
    )
    page.page.locator('.raigo-prompt [data-move="0"]').click()
    error = page.page.locator(".raigo-error")
    error.wait_for(state="visible")
    assert "Someone moved first." in error.inner_text()


def test_dark_theme_follows_the_system_and_the_site_toggle(
    page: Any, all_cases: dict[int, list[tuple[str, Any]]]
) -> None:
    state = _state(4, "act", all_cases)
    payload = payloads(ENGINE, state, NAMES[4])[0]
    render(page, SLUG, payload)
    script = "() => getComputedStyle(document.querySelector('.raigo-board')).backgroundColor"
    page.page.emulate_media(color_scheme="light")
    light = page.page.evaluate(script)
    page.page.emulate_media(color_scheme="dark")
    dark = page.page.evaluate(script)
    page.page.evaluate("document.documentElement.dataset.theme = 'light'")
    forced_light = page.page.evaluate(script)
    page.page.emulate_media(color_scheme="light")
    page.page.evaluate("document.documentElement.dataset.theme = 'dark'")
    forced_dark = page.page.evaluate(script)
    page.page.evaluate("delete document.documentElement.dataset.theme")
    assert light == forced_light != dark == forced_dark


def test_screenshots_mid_game_and_finished(
    page: Any, all_cases: dict[int, list[tuple[str, Any]]]
) -> None:
    """Saved to test-artifacts/ for people to look at (phone and desktop, light and dark)."""
    mid = play_until(
        ENGINE,
        seats=4,
        seed=5,
        names=NAMES[4],
        until=lambda s: s["turn"]["number"] >= 14 and situation(s) == "act",
    )
    end = _state(3, "finished", all_cases)
    shots = []
    for name, state in (("raigo-mid", mid), ("raigo-finished", end)):
        seat = ENGINE.waiting_on(state)[0] if ENGINE.waiting_on(state) else 0
        payload = json.loads(
            json.dumps(
                table_payload(ENGINE, state, seat, version=1, names=NAMES[len(state["players"])])
            )
        )
        render(page, SLUG, payload)
        for width in (390, 1280):
            for dark in (False, True):
                shots.append(screenshot(page, name, width=width, dark=dark))
    # A reaction window for an asked seat, and the move sheet open on a phone.
    react = _state(4, "react", all_cases)
    render(page, SLUG, payloads(ENGINE, react, NAMES[4])[ENGINE.waiting_on(react)[0]])
    shots.append(screenshot(page, "raigo-react", width=390, dark=False))
    render(page, SLUG, payloads(ENGINE, mid, NAMES[4])[ENGINE.waiting_on(mid)[0]])
    page.page.locator("[data-moves]").first.click()
    page.page.set_viewport_size({"width": 390, "height": 844})
    page.page.screenshot(path=str(ARTIFACTS / "raigo-sheet-390-light.png"))
    assert all(p.stat().st_size > 0 for p in shots)
    page.page.set_viewport_size({"width": 390, "height": 844})
    page.page.emulate_media(color_scheme="light")


def test_the_hidden_id_check_finds_a_leak(page: Any, all_cases: dict[int, list[Any]]) -> None:
    """The checker itself: an id planted in the page is found, a longer id is not mistaken for
    a shorter one (raigo-token-1 is not raigo-token-17)."""
    state = _state(3, "act", all_cases)
    render(page, SLUG, payloads(ENGINE, state, NAMES[3])[0])
    page.page.evaluate(
        "document.getElementById('board').insertAdjacentHTML('beforeend', "
        "'<span data-x=\"raigo-token-17\"></span>')"
    )
    found = page.page.evaluate(
        "window.__hiddenIn(['raigo-token-17', 'raigo-token-1', 'raigo-token-7'])"
    )
    assert found == ["raigo-token-17"]


def _swapped(state: Any, pairs: list[tuple[str, str]]) -> Any:
    """``state`` with each pair of token ids trading places everywhere (towers, hands, piles,
    what each seat knows), so every token is still in exactly one place."""
    text = json.dumps(state)
    for a, b in pairs:
        text = text.replace(f'"{a}"', '"\0"').replace(f'"{b}"', f'"{a}"').replace('"\0"', f'"{b}"')
    return json.loads(text)


def test_every_token_name_fits_its_tower_token_on_a_phone(page: Any) -> None:
    """A token piled on a tower shows its weight and its whole name (a phone once read "Thu…"
    for Thunder), and a player's three towers still stand in one row at 390 px."""
    state = play_until(
        ENGINE,
        seats=2,
        seed=5,
        names=NAMES[2],
        until=lambda s: all(len(t) >= 2 for t in s["players"][0]["towers"]),
    )
    longest = ids_for("thunder", "destroy", "katana", "switch", "seven", "shield")
    piled = [t for tower in state["players"][0]["towers"] for t in tower[:2]]
    state = _swapped(state, list(zip(piled, longest, strict=True)))
    payload = json.loads(json.dumps(table_payload(ENGINE, state, 0, version=3, names=NAMES[2])))
    render(page, SLUG, payload)
    page.page.set_viewport_size({"width": 390, "height": 844})
    mine = page.page.locator(".raigo-board-mine")
    names = mine.locator(".raigo-tower-token .raigo-token-name")
    assert sorted(names.all_inner_texts()) == sorted(
        ["Thunder", "Destroy", "Katana", "Switch", "Seven", "Shield"]
    )
    cut = page.page.evaluate(
        """() => [...document.querySelectorAll(
                 '.raigo-board-mine .raigo-tower-token .raigo-token-name')]
             .filter(n => n.scrollWidth > n.clientWidth).map(n => n.textContent)"""
    )
    assert cut == []
    tops = {
        round(box["y"])
        for box in (t.bounding_box() for t in mine.locator(".raigo-tower").all())
        if box
    }
    assert len(tops) == 1, tops
