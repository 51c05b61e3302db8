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
from tests.minigames.renderers_cards.states import GAMES, NAMES, payloads, sample

# one worker draws them all: one browser and one set of sampled games
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("card-renderers")]

IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")
JSONISH = re.compile(r"[{}]|\"\w+\":")
SEEDS = range(30)
NAMES_BY_SEAT = dict(enumerate(NAMES))


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
    wanted = {
        "rso": {
            "leader leader",
            "mulligan mulligan",
            "replenish window",
            "battle declare",
            "battle intercept alone",
            "battle window intercepted",
            "battle border alone",
            "preparation act",
            "end discard",
            "over over",
        },
        "dbs": {
            "setup_character",
            "setup_retrieve",
            "change",
            "set",
            "battle",
            "reaction clash open",
            "discard",
            "over knock_out",
            "over smack_down",
            "a face-down Trap",
        },
    }[game]
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
            # every card opens its words (one seat per state is enough: the words are the same)
            texts = []
            if seat == 0:
                texts = harness.page.evaluate("p => window.harness.cardTexts(p)", payload)
            for card in texts:
                face = card["face"]
                if len(card["detail"]) < len(face) + 20:
                    problems.append(f"{where}: the card {face} opens no words: {card['detail']!r}")
                for bad in IDENTIFIER.findall(card["detail"]) + JSONISH.findall(card["detail"]):
                    problems.append(f"{where}: the card {face} shows {bad!r}")
            for person in payload["names"]:
                if person not in text:
                    problems.append(f"{where}: {person} is not named")
    assert not harness.errors, harness.errors
    assert not problems, "\n".join(problems[:40])
    # these drawings have a place for every kind of move the two engines list
    assert totals["placed"] > 20 and totals["fallback"] == 0, totals


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
    opening = states(game)["mulligan mulligan" if game == "rso" else "setup_retrieve"]
    shown = {"opening": opening, "mid-game": mid_game(game), "finished": finished(game)}
    modes = [  # (system scheme, the site's toggle on <html>, dark expected)
        ("light", None, False),
        ("dark", None, True),
        ("dark", "light", False),
        ("light", "dark", True),
    ]
    harness = open_harness(game, width=390)
    page = harness.page
    for scheme, theme, dark in modes:
        page.emulate_media(color_scheme=scheme)
        page.evaluate(
            "t => { if (t) document.documentElement.dataset.theme = t;"
            " else delete document.documentElement.dataset.theme; }",
            theme,
        )
        for width in (390, 1280):
            page.set_viewport_size({"width": width, "height": 800})
            for label, state in shown.items():
                waiting = engine.waiting_on(state)
                payload = payloads(engine, state)[waiting[0] if waiting else 0]
                harness.render(payload)
                # the details of a card she can play, as a tap shows them
                page.evaluate(
                    "() => { const c = document.querySelector('[data-opens]'); if (c) c.click(); }"
                )
                background, ink = colours(harness, game)
                mode = f"{scheme} system, toggle {theme}, {width} px, {label}"
                if dark:
                    assert background < 0.05 < 0.5 < ink, mode
                else:
                    assert ink < 0.05 < 0.8 < background, mode
                size = page.evaluate("() => window.harness.overflow()")
                assert size["scroll"] <= size["client"], mode
                if theme is None:
                    page.screenshot(
                        path=str(ARTIFACTS / f"{game}-{label}-{width}-{scheme}.png"),
                        full_page=True,
                    )
                page.evaluate("() => window.harness.fresh()")
    assert not harness.errors, harness.errors


def first_with_card_moves(game: str) -> dict[str, Any]:
    """A payload whose seat can play a card (not only pass or end the phase)."""
    engine = GAMES[game][0]
    for state in states(game).values():
        for payload in payloads(engine, state):
            if any(
                isinstance(m["action"].get("card") or m["action"].get("spell"), str)
                and m["action"]["type"] not in ("choose_character", "retrieve", "choose_leader")
                for m in payload["moves"]
            ):
                return payload
    raise AssertionError("no seat could play a card in the sampled games")


@pytest.mark.parametrize("game", ["rso", "dbs"])
def test_a_tap_opens_the_card_in_words_and_plays_its_move_and_a_refusal_says_why(
    open_harness, game
):
    payload = first_with_card_moves(game)
    harness = open_harness(game, width=390)
    harness.render(payload)
    page = harness.page
    card = page.locator("[data-opens]").first
    index = int(card.get_attribute("data-opens").split()[0])
    move = payload["moves"][index]
    detail = page.locator(f"#{game}-detail")
    assert detail.is_hidden()  # nothing is open until she taps
    card.click()  # a real tap at phone size: nothing covers the card
    assert detail.is_visible()
    assert card.get_attribute("aria-expanded") == "true"
    # the card in words, as the view describes it
    number = next(
        c["number"]
        for c in iter_view_cards(payload["view"])
        if c.get("id") in (move["action"].get("card"), move["action"].get("spell"))
    )
    words = payload["view"]["cards"][number]
    expected = words["lines"]
    text = detail.inner_text()
    for line in expected:
        assert line in text
    page.locator(f"#{game}-detail [data-move='{index}']").click()
    assert page.evaluate("() => window.harness.plays") == [move["action"]]
    # the open card stays open when the page redraws (a poll brings the same payload)
    harness.render(payload)
    assert detail.is_visible()
    # keyboard: Enter on the focused card closes and opens it; Close puts focus back on it
    page.locator("[data-opens]").first.focus()
    page.keyboard.press("Enter")
    assert detail.is_hidden()
    page.keyboard.press("Enter")
    assert detail.is_visible()
    page.locator(f"#{game}-detail button", has_text="Close").click()
    assert detail.is_hidden()
    assert page.evaluate("() => document.activeElement.hasAttribute('data-opens')")
    # a refused move: the server's sentence shows beside the buttons
    page.evaluate("() => { window.harness.refuse = 'It is not your turn to act.'; }")
    harness.render(payload)
    page.locator("[data-opens]").first.click()
    page.locator(f"#{game}-detail [data-move='{index}']").click()
    page.get_by_text("It is not your turn to act.").wait_for()
    assert not harness.errors, harness.errors


def iter_view_cards(value: Any) -> Any:
    """Every card object (with an id and a number) anywhere in a view."""
    if isinstance(value, dict):
        if "id" in value and "number" in value:
            yield value
        for item in value.values():
            yield from iter_view_cards(item)
    elif isinstance(value, list):
        for item in value:
            yield from iter_view_cards(item)


def test_rso_result_names_the_winner_the_reason_and_each_leaders_hp(open_harness):
    engine = GAMES["rso"][0]
    state = states("rso")["over over"]
    harness = open_harness("rso", width=390)
    for payload in payloads(engine, state):
        harness.render(payload)
        text = visible_text(harness)
        result = payload["result"]
        assert result["reason"] in text  # e.g. "Marisa's leader has no HP left."
        winner = NAMES_BY_SEAT[result["winners"][0]]
        assert f"{winner} (winner)" in text
        for score in result["scores"]:
            assert f"{NAMES_BY_SEAT[score['seat']]}" in text and str(score["hp"]) in text
        assert "You win!" in text if payload["seat"] in result["winners"] else "wins." in text
        assert not payload["moves"] and "Your move" not in text


@pytest.mark.parametrize("ending", ["over knock_out", "over smack_down"])
def test_dbs_result_gives_the_victory_and_the_spell_chain_levels(open_harness, ending):
    engine = GAMES["dbs"][0]
    state = states("dbs")[ending]
    harness = open_harness("dbs", width=390)
    payload = payloads(engine, state)[2]  # a spectator
    harness.render(payload)
    text = visible_text(harness)
    assert payload["result"]["text"] in text
    assert ("Knock Out" if ending.endswith("knock_out") else "Smack Down") in text
    for score in payload["result"]["scores"]:
        # (zone titles are drawn in capitals)
        assert f"spell chain (total level {score['chain_level']})" in text.lower()
    if ending.endswith("smack_down"):
        levels = {s["seat"]: s["chain_level"] for s in payload["result"]["scores"]}
        named = ", ".join(f"{NAMES_BY_SEAT[seat]} {levels[seat]}" for seat in (0, 1))
        assert f"Spell Chain Levels: {named}" in text


def test_each_stylesheet_styles_only_its_own_game():
    from tests.minigames.renderers_cards.conftest import ROOT

    for game in ("rso", "dbs"):
        css = re.sub(
            r"/\*.*?\*/", "", (ROOT / f"static/css/tavern/{game}.css").read_text(), flags=re.S
        )
        heads = [h.strip() for h in re.findall(r"([^{}]+)\{", css) if not h.strip().startswith("@")]
        selectors = [s.strip() for h in heads for s in h.split(",") if s.strip()]
        assert selectors
        outside = [s for s in selectors if not s.startswith(f".{game}-")]
        assert not outside, outside


@pytest.mark.parametrize("game", ["rso", "dbs"])
def test_a_cards_move_count_is_worded_by_the_catalog(open_harness, game):
    """A card's count of moves ("1 move", "3 moves") is the catalog's plural (``ngettext``),
    for one move and for many: RSO's said "2 moves" in English on a Japanese page. A catalog
    that marks what it words shows whether each label came from it."""
    engine = GAMES[game][0]
    harness = open_harness(game, width=390)
    marked = "(one, many, n) => `⟦${n === 1 ? one : many}`"
    harness.page.evaluate(f"() => {{ window.ngettext = {marked}; }}")
    labels: set[str] = set()
    for state in states(game).values():
        for payload in payloads(engine, state):
            if payload["seat"] != 0:
                continue
            harness.render(payload)
            labels |= set(
                harness.page.eval_on_selector_all(
                    f".{game}-card__moves", "found => found.map(l => l.textContent)"
                )
            )
    assert labels and all(label.startswith("⟦") for label in labels), sorted(labels)
    assert "⟦1 move" in labels, sorted(labels)
