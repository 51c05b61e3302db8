"""The table renderers of Rumbling Spell Orchestra and Dream Battle of SpellCard
(static/js/tavern/rso.js, dbs.js; the contract in the tavern wave's brief): for real engine
states (openings, every phase and step met in seeded random games, battles and the defender's
answers, finished games) and for both seats and a spectator, the drawing

* raises no console error,
* offers every legal move of ``payload.moves``, placed on the page (clicking it plays exactly
  that action) or handed to ``api.fallbackButtons``,
* never writes an id the engine hides from that seat (``engine.hidden_from``),
* fits a 390 px phone without sideways scrolling,
* speaks in words (no snake_case keys, no JSON),

and follows the light and dark themes. Screenshots go to test-artifacts/renderers_cards/.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import pytest

from tests.minigames.renderers_cards.conftest import ARTIFACTS
from tests.minigames.renderers_cards.states import GAMES, payloads, sample

pytestmark = pytest.mark.browser

IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")
JSONISH = re.compile(r"[{}]|\"\w+\":")
SEEDS = range(30)


@functools.cache
def states(game: str) -> dict[str, Any]:
    engine, key, sights = GAMES[game]
    return sample(engine, key, SEEDS, sights)


def mid_game(game: str) -> Any:
    return states(game)["battle window intercepted" if game == "rso" else "reaction clash open"]


def finished(game: str) -> Any:
    return states(game)["over over" if game == "rso" else "over smack_down"]


def visible_text(harness: Any) -> str:
    return str(harness.page.evaluate("() => document.getElementById('board').innerText"))


@pytest.mark.parametrize("game", ["rso", "dbs"])
def test_every_state_every_seat_draws_offers_every_move_and_hides_secrets(open_harness, game):
    engine = GAMES[game][0]
    found = states(game)
    wanted = {"rso": {"leader leader", "mulligan mulligan", "replenish window",
                      "battle declare", "battle intercept alone", "battle window intercepted",
                      "battle border alone", "preparation act", "end discard", "over over"},
              "dbs": {"setup_character", "setup_retrieve", "change", "set", "battle",
                      "reaction clash open", "discard", "over knock_out", "over smack_down",
                      "a face-down Trap"}}[game]
    assert wanted <= set(found), sorted(wanted - set(found))
    harness = open_harness(game, width=390)
    problems: list[str] = []
    totals = {"placed": 0, "fallback": 0, "payloads": 0}
    for name, state in found.items():
        hidden = engine.hidden_from(state, None) | engine.hidden_from(state, 0)
        for payload in payloads(engine, state):
            seat = payload["seat"]
            where = f"{name}, seat {seat}"
            harness.render(payload)
            result = harness.page.evaluate("p => window.harness.checkMoves(p)", payload)
            problems += [f"{where}: {p}" for p in result["problems"]]
            totals["placed"] += result["counts"]["placed"]
            totals["fallback"] += result["counts"]["fallback"]
            totals["payloads"] += 1
            html = harness.page.content()
            for secret in engine.hidden_from(state, seat):
                if re.search(re.escape(secret) + r"(?!\d)", html):
                    problems.append(f"{where}: the hidden card {secret} is in the page")
            assert hidden  # every state hides at least the decks, so the check above can fail
            size = harness.page.evaluate("() => window.harness.overflow()")
            if size["scroll"] > size["client"]:
                problems.append(f"{where}: {size['scroll']} px wide in a 390 px window")
            text = visible_text(harness)
            for bad in IDENTIFIER.findall(text) + JSONISH.findall(text):
                problems.append(f"{where}: shows {bad!r}")
            for person in payload["names"]:
                if person not in text:
                    problems.append(f"{where}: {person} is not named")
    assert not harness.errors, harness.errors
    assert not problems, "\n".join(problems[:40])
    # the drawing itself places the moves: the fallback is for the odd one out
    assert totals["placed"] > 10 * max(1, totals["fallback"]), totals


def luminance(css_colour: str) -> float:
    """Relative luminance (0 black, 1 white) of an ``rgb(...)``/``rgba(...)`` colour."""
    r, g, b = (int(x) / 255 for x in re.findall(r"[\d.]+", css_colour)[:3])
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def colours(harness: Any, game: str) -> tuple[float, float]:
    found = harness.page.evaluate(
        """() => { const s = getComputedStyle(document.getElementById('board'));
                   return [s.backgroundColor, s.color]; }"""
    )
    return luminance(found[0]), luminance(found[1])


@pytest.mark.parametrize("game", ["rso", "dbs"])
def test_light_and_dark_at_both_sizes_with_screenshots(open_harness, game):
    engine = GAMES[game][0]
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shown = {"mid-game": mid_game(game), "finished": finished(game)}
    modes = [  # (system scheme, the site's toggle, dark expected)
        ("light", None, False),
        ("dark", None, True),
        ("dark", "light", False),
        ("light", "dark", True),
    ]
    for scheme, theme, dark in modes:
        for width in (390, 1280):
            harness = open_harness(game, width=width, scheme=scheme, theme=theme)
            for label, state in shown.items():
                waiting = engine.waiting_on(state)
                payload = payloads(engine, state)[waiting[0] if waiting else 0]
                harness.render(payload)
                # the details of a card she can play, as a tap shows them
                harness.page.evaluate(
                    "() => { const c = document.querySelector('[data-opens]'); if (c) c.click(); }"
                )
                background, ink = colours(harness, game)
                mode = f"{scheme} system, toggle {theme}, {width} px, {label}"
                if dark:
                    assert background < 0.05 < 0.5 < ink, mode
                else:
                    assert ink < 0.05 < 0.8 < background, mode
                    assert background > 0.8, mode
                size = harness.page.evaluate("() => window.harness.overflow()")
                assert size["scroll"] <= size["client"], mode
                if theme is None:
                    harness.page.screenshot(
                        path=str(ARTIFACTS / f"{game}-{label}-{width}-{scheme}.png"),
                        full_page=True,
                    )
            assert not harness.errors, harness.errors
