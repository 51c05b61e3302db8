"""The Spirit War renderer (static/js/tavern/spirit_war.js) against real engine states, without
Django.

Places drawn (../shared/rules/spirit-war-standard-rules.txt, "Components", "Battle", "Support
card phase", "Spirit Elements chart"): your hand face up and the others' as counts, face-down
summons and Support cards as backs until revealed, the Preparation and Encounter decks as counts,
the Abyss and History face up, the element chart Fire > Earth > Water > Fire, eliminations and the
Spirit King. See harness.py for what each check means.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from minigames.engines.spirit_war.engine import ENGINE
from minigames.payload import table_payload
from tests.minigames.renderers.harness import (
    Cases,
    assert_every_situation_met,
    cases_by_seats,
    check_every_seat,
    open_page,
    play_until,
    render,
    screenshot,
)

pytestmark = pytest.mark.browser

SLUG = "spirit_war"
ALL_NAMES = ["Reimu", "Marisa", "Sakuya", "Youmu", "Sanae", "Cirno"]
NAMES = {n: ALL_NAMES[:n] for n in range(2, 7)}
#: Every phase that waits on someone (engine.py PHASE_ACTIONS), with the battle's face-down
#: moments: nobody / one side summoned, nobody / one side chose a Support card.
SITUATIONS = {
    "turn",
    "attack",
    "summon:0",
    "summon:1",
    "support:0",
    "support:1",
    "discard",
    "rare_outcome",
}
SEEDS = range(10)


def situation(state: dict[str, Any]) -> str:
    phase = str(state["phase"])
    battle = state["battle"]
    if phase == "summon":
        return f"summon:{sum(battle['summoned'])}"
    if phase == "support":
        return f"support:{sum(battle['supported'])}"
    return phase


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


def _payload(state: Any, seat: int | None) -> dict[str, Any]:
    names = NAMES[state["seats"]]
    out: dict[str, Any] = json.loads(
        json.dumps(table_payload(ENGINE, state, seat, version=2, names=names))
    )
    return out


def test_a_real_tap_on_a_hand_card_shows_its_words_and_plays_it(page: Any) -> None:
    state = play_until(
        ENGINE, seats=3, seed=4, names=NAMES[3], until=lambda s: s["phase"] == "summon"
    )
    seat = ENGINE.waiting_on(state)[0]
    payload = _payload(state, seat)
    page.page.set_viewport_size({"width": 390, "height": 844})
    render(page, SLUG, payload)
    index = next(i for i, m in enumerate(payload["moves"]) if m["action"]["type"] == "summon")
    page.page.locator(f'[data-moves~="{index}"]').click()
    sheet = page.page.locator(".spirit-war-sheet")
    assert sheet.is_visible()
    card = next(
        c for c in payload["view"]["hand"] if c["id"] == payload["moves"][index]["action"]["card"]
    )
    assert card["text"] in sheet.inner_text()
    sheet.locator(f'[data-move="{index}"]').click()
    assert page.page.evaluate("window.__plays") == [payload["moves"][index]["action"]]


def test_a_defender_without_a_spirit_is_not_told_to_tap_one(page: Any) -> None:
    """Spirit War rules, "Battle": an attacked player who holds no Spirit shows her hand. Her
    prompt says so instead of asking her to tap a Spirit in a hand that holds none."""

    def spiritless(s: Any) -> bool:
        if s["phase"] != "summon":
            return False
        return any(
            ENGINE.legal_actions(s, seat) == [{"type": "no_spirit"}]
            for seat in ENGINE.waiting_on(s)
        )

    state = next(
        found for seed in range(200) if (found := _played_until(seed, spiritless)) is not None
    )
    seat = next(
        s
        for s in ENGINE.waiting_on(state)
        if ENGINE.legal_actions(state, s) == [{"type": "no_spirit"}]
    )
    render(page, SLUG, _payload(state, seat))
    prompt = page.page.locator(".spirit-war-prompt").inner_text()
    assert "You hold no Spirit to summon: show your hand." in prompt
    assert "tap it in your hand" not in prompt


def _played_until(seed: int, until: Any) -> Any | None:
    try:
        return play_until(ENGINE, seats=2, seed=seed, names=NAMES[2], until=until)
    except AssertionError:
        return None


def test_the_other_sides_summon_stays_face_down_until_revealed(page: Any) -> None:
    state = play_until(
        ENGINE,
        seats=2,
        seed=3,
        names=NAMES[2],
        until=lambda s: s["phase"] == "summon" and sum(s["battle"]["summoned"]) == 1,
    )
    battle = state["battle"]
    chosen = battle["summoned"].index(True)
    other = battle["sides"][1 - chosen]
    render(page, SLUG, _payload(state, other))
    text = page.page.locator(".spirit-war-battle").inner_text()
    assert "Spirit face down" in text
    hidden = state["defs"][state["cards"][battle["summon"][chosen]]]["name"]
    # Her own hand may hold a card of the same name; the battle area must not show it.
    assert hidden not in text


def test_a_support_choice_made_at_the_same_time_shows_only_that_she_chose(page: Any) -> None:
    """RULINGS Spirit War 2 (the default): the other side sees that she has chosen her Support
    card, never whether it was a card or none; the table draws the one as the other."""
    state = play_until(
        ENGINE,
        seats=2,
        seed=3,
        names=NAMES[2],
        until=lambda s: s["phase"] == "support" and sum(s["battle"]["supported"]) == 1,
    )
    battle = state["battle"]
    chosen = battle["supported"].index(True)
    other = battle["sides"][1 - chosen]
    render(page, SLUG, _payload(state, other))
    text = page.page.locator(".spirit-war-battle").inner_text()
    assert "Chosen: a card face down, or none" in text
    assert "No Support card" not in text and "Support face down" not in text


def test_a_refused_move_says_why(page: Any) -> None:
    state = ENGINE.new_game(seats=2, seed=1, config={"names": NAMES[2]})
    payload = _payload(state, ENGINE.waiting_on(state)[0])
    page.page.evaluate(
        """(payload) => {
          const root = document.getElementById("board");
          root.replaceChildren();
          window.TavernGames.spirit_war.render(root, payload, {
            you: payload.seat, seatName: (s) => payload.names[s], fallbackButtons() {},
            play() { return Promise.reject(new Error("It is not your turn to act.")); },
          });
        }""",
        payload,
    )
    page.page.locator('.spirit-war-prompt [data-move="0"]').click()
    error = page.page.locator(".spirit-war-error")
    error.wait_for(state="visible")
    assert "It is not your turn to act." in error.inner_text()


def test_dark_theme_follows_the_system_and_the_site_toggle(page: Any) -> None:
    state = ENGINE.new_game(seats=3, seed=2, config={"names": NAMES[3]})
    render(page, SLUG, _payload(state, 0))
    script = "() => getComputedStyle(document.querySelector('.spirit-war-hand')).backgroundColor"
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


def test_a_finished_war_says_its_result_once(page: Any) -> None:
    """The final result names the Spirit King; the status box above it no longer repeats it
    (the table page's summary line says it once more, outside the drawing)."""
    end = play_until(ENGINE, seats=4, seed=6, names=NAMES[4], until=ENGINE.is_terminal)
    payload = _payload(end, 0)
    payload["finished"] = True
    render(page, SLUG, payload)
    text = page.page.locator("#board").inner_text()
    result = ENGINE.result(end)["text"]
    assert result and text.count(result) == 1, text[:400]


def test_screenshots_mid_game_and_finished(page: Any) -> None:
    """Saved to test-artifacts/ for people to look at (phone and desktop, light and dark)."""
    mid = play_until(
        ENGINE,
        seats=4,
        seed=6,
        names=NAMES[4],
        until=lambda s: s["turn_number"] >= 6 and s["phase"] == "support",
    )
    end = play_until(ENGINE, seats=4, seed=6, names=NAMES[4], until=ENGINE.is_terminal)
    shots = []
    for name, state in (("spirit-war-mid", mid), ("spirit-war-finished", end)):
        waiting = ENGINE.waiting_on(state)
        render(page, SLUG, _payload(state, waiting[0] if waiting else 0))
        for width in (390, 1280):
            for dark in (False, True):
                shots.append(screenshot(page, name, width=width, dark=dark))
    assert all(p.stat().st_size > 0 for p in shots)
    page.page.set_viewport_size({"width": 390, "height": 844})
    page.page.emulate_media(color_scheme="light")
