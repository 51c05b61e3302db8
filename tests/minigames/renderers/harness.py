"""A Django-free harness for the tavern renderers (static/js/tavern/<slug>.js).

Why no server: the renderer contract (docs in the tavern wave notes, W1 calls ``render``) only
needs a root element, a payload and an ``api`` object, so the tests write a small HTML page into
tmp_path that loads the site's stylesheet and the renderer by file:// URL, with a stub ``api``
that records every ``play`` and every ``fallbackButtons`` call. The payloads are
``minigames.payload.table_payload`` of real engine states, reached by seeded random legal play.

One in-page function (``window.__check``) renders a payload and verifies, for every move in
``payload.moves``: it is passed to fallbackButtons, or a click on its button (after a click on
the place that holds it, or after choosing it in a chooser) calls ``api.play`` with exactly its
action. It also looks for hidden ids in the DOM, for identifiers or JSON in the visible text, and
for horizontal overflow.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from minigames.payload import table_payload

ROOT = Path(__file__).resolve().parents[3]
STATIC = ROOT / "static"
ARTIFACTS = ROOT / "test-artifacts"

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Renderer harness</title>
<link rel="stylesheet" href="{site_css}">
<link rel="stylesheet" href="{game_css}">
</head><body><main>
<div class="tavern-board" id="board"></div>
<div id="fallback"></div>
</main>
<script src="{kit_js}"></script>
<script src="{game_js}"></script>
<script src="{harness_js}"></script>
</body></html>
"""

HARNESS_JS = Path(__file__).with_name("harness.js")


def write_page(tmp_path: Path, slug: str) -> str:
    """The harness page for ``slug`` in tmp_path; returns its file:// URL."""
    page = tmp_path / f"{slug}.html"
    page.write_text(
        PAGE.format(
            site_css=(STATIC / "css" / "site.css").as_uri(),
            game_css=(STATIC / "css" / "tavern" / f"{slug}.css").as_uri(),
            game_js=(STATIC / "js" / "tavern" / f"{slug}.js").as_uri(),
            kit_js=(STATIC / "js" / "tavern" / "kit.js").as_uri(),
            harness_js=HARNESS_JS.as_uri(),
        ),
        encoding="utf-8",
    )
    return page.as_uri()


def play_sample(
    engine: Any,
    *,
    seats: int,
    seed: int,
    key: Callable[[Any], str],
    names: list[str],
    max_moves: int = 4000,
) -> Iterator[tuple[str, Any]]:
    """Seeded random legal play from a new game: yields ("new", state), then the first state of
    each situation ``key`` names, then ("finished", state)."""
    state = engine.new_game(seats=seats, seed=seed, config={"names": names})
    yield "new", state
    seen: set[str] = set()
    rnd = random.Random(seed)
    for _ in range(max_moves):
        if engine.is_terminal(state):
            yield "finished", state
            return
        waiting = list(engine.waiting_on(state))
        seat = rnd.choice(waiting)
        state, _events = engine.apply(state, seat, rnd.choice(engine.legal_actions(state, seat)))
        k = key(state)
        if k not in seen and not engine.is_terminal(state):
            seen.add(k)
            yield k, state
    raise AssertionError(f"seed {seed}: the game did not end in {max_moves} moves")


def payloads(engine: Any, state: Any, names: list[str]) -> list[dict[str, Any]]:
    """The payload of every seat and of a spectator (None), round-tripped through JSON."""
    seats: list[int | None] = [*range(len(names)), None]
    return [
        json.loads(json.dumps(table_payload(engine, state, s, version=7, names=names)))
        for s in seats
    ]


def hidden_ids(engine: Any, state: Any, seat: int | None) -> list[str]:
    return sorted(engine.hidden_from(state, seat))


def check_payload(
    page: Any, slug: str, engine: Any, state: Any, payload: dict[str, Any]
) -> dict[str, Any]:
    """Run the in-page checks for one payload; returns the move counts, failing on a problem."""
    hidden = hidden_ids(engine, state, payload["seat"])
    before = len(page.errors)
    out: dict[str, Any] = page.page.evaluate(
        "([slug, payload, hidden]) => window.__check(slug, payload, hidden)",
        [slug, payload, hidden],
    )
    where = f"seat {payload['seat']} at {payload['summary']!r}"
    assert out["problems"] == [], f"{where}: {out['problems']}"
    assert page.errors[before:] == [], f"{where}: console errors {page.errors[before:]}"
    assert out["counts"]["placed"] + out["counts"]["fallback"] == len(payload["moves"])
    return dict(out["counts"])


def render(page: Any, slug: str, payload: dict[str, Any]) -> None:
    page.page.evaluate("([slug, payload]) => { window.__render(slug, payload); }", [slug, payload])


def screenshot(page: Any, name: str, *, width: int, dark: bool) -> Path:
    """A full-page screenshot in test-artifacts/ (git-ignored) at ``width``, light or dark."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.page.set_viewport_size({"width": width, "height": 844 if width < 600 else 900})
    page.page.emulate_media(color_scheme="dark" if dark else "light")
    wide = page.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 1, f"{name}: the page is {wide} px wider than the {width} px screen"
    path = ARTIFACTS / f"{name}-{width}-{'dark' if dark else 'light'}.png"
    page.page.screenshot(path=str(path), full_page=True)
    return path


def play_until(
    engine: Any, *, seats: int, seed: int, names: list[str], until: Callable[[Any], bool]
) -> Any:
    """Seeded random legal play from a new game up to the first state where ``until`` holds."""
    state = engine.new_game(seats=seats, seed=seed, config={"names": names})
    rnd = random.Random(seed)
    for _ in range(4000):
        if until(state):
            return state
        if engine.is_terminal(state):
            break
        seat = rnd.choice(list(engine.waiting_on(state)))
        state, _events = engine.apply(state, seat, rnd.choice(engine.legal_actions(state, seat)))
    raise AssertionError(f"seed {seed}: no such state")


Cases = dict[int, list[tuple[str, Any]]]


def sample_cases(
    engine: Any,
    *,
    seats: int,
    names: list[str],
    situations: set[str],
    key: Callable[[Any], str],
    seeds: range,
) -> Iterator[tuple[str, Any]]:
    """New games, the first state of every situation and the end, over a few seeds (the first
    two seeds give the new game and the end; later seeds only add situations not yet met, and
    stop once every one of ``situations`` has been met)."""
    met: set[str] = set()
    for seed in seeds:
        if seed >= 2 and met >= situations:
            return
        for label, state in play_sample(engine, seats=seats, seed=seed, key=key, names=names):
            if label in ("new", "finished"):
                if seed < 2:
                    yield f"{label} (seed {seed})", state
            elif label not in met:
                met.add(label)
                yield label, state


def cases_by_seats(
    engine: Any,
    *,
    names: dict[int, list[str]],
    situations: set[str],
    key: Callable[[Any], str],
    seeds: range,
) -> Cases:
    """:func:`sample_cases` for every seat count ``names`` has names for."""
    return {
        seats: list(
            sample_cases(
                engine,
                seats=seats,
                names=seat_names,
                situations=situations,
                key=key,
                seeds=seeds,
            )
        )
        for seats, seat_names in names.items()
    }


def open_page(harness_page: Any, tmp_path_factory: Any, slug: str) -> Any:
    """The harness page (one browser page for the module) showing ``slug``'s renderer."""
    harness_page.page.goto(write_page(tmp_path_factory.mktemp(slug), slug))
    return harness_page


def assert_every_situation_met(cases: Cases, situations: set[str]) -> None:
    """The sampled states reach every situation and a finished game."""
    met = {label for rows in cases.values() for label, _ in rows}
    assert met >= situations, f"never reached: {situations - met}"
    assert any(label.startswith("finished") for label in met)


def check_every_seat(
    page: Any, slug: str, engine: Any, rows: list[tuple[str, Any]], names: list[str]
) -> int:
    """:func:`check_payload` for every seat and a spectator of every sampled state, on a light
    390 px phone; a spectator and a finished game offer no move. Returns how many moves the
    drawings placed (the rest went to fallback buttons)."""
    page.page.set_viewport_size({"width": 390, "height": 844})
    page.page.emulate_media(color_scheme="light")
    placed = 0
    for _label, state in rows:
        for payload in payloads(engine, state, names):
            placed += check_payload(page, slug, engine, state, payload)["placed"]
            if payload["seat"] is None or engine.is_terminal(state):
                assert payload["moves"] == []
    return placed
