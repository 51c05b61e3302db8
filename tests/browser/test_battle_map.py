"""Issue 14, in headless Chromium: the GM uploads a map and lines the grid up with a live
preview (at 1280 and 390 px, light and dark); a non-image and an oversized image are refused
with a clear error; duplicate NPCs are numbered on the board; and, with two browser contexts,
a fogged enemy is absent from the player's DOM and from every payload her page fetched until
the GM reveals it. Screenshots go to test-artifacts/."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from battles import maps
from battles import services as battles
from battles.models import Battle
from campaign.permissions import access_for
from tests.browser.conftest import watch_console
from tests.browser.live import LIVE_MS
from tests.factories import CharacterFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "test-artifacts" / "battle-map"
CHECKS_JS = (Path(__file__).parent / "visual_checks.js").read_text()


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")


def png(size: tuple[int, int] = (640, 480), offset: int = 0) -> bytes:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", size, (60, 110, 70))
    draw = ImageDraw.Draw(image)
    for x in range(offset, size[0], 80):  # a map with its own squares drawn on it
        draw.line([(x, 0), (x, size[1])], fill=(20, 40, 20), width=2)
    for y in range(offset, size[1], 80):
        draw.line([(0, y), (size[0], y)], fill=(20, 40, 20), width=2)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.fixture
def battle(campaign, gm, player) -> Battle:
    """In setup: the player's Reimu at (1, 1) against two NPCs both called "Fairy Maid"."""
    made = battles.battle_create(
        campaign=campaign,
        by=access_for(gm, campaign),
        created_by=gm,
        name="Lake",
        width=8,
        height=6,
    )
    hero = CharacterFactory(owner=player, campaign=campaign, name="Reimu")
    battles.battle_character_place(battle_id=made.pk, by=gm, character_id=hero.pk, position=[1, 1])
    spec = battles.NpcSpec(
        name="Fairy Maid", stats={"pwr": 3, "cha": 3, "int": 3, "ins": 3}, hp=20, speed=2, range=2
    )
    for square in ([5, 1], [6, 4]):
        battles.battle_npc_place(
            battle_id=made.pk, by=gm, npc=spec, side="enemies", position=square
        )
    made.refresh_from_db()
    return made


def listen(page) -> list[str]:
    errors: list[str] = []
    watch_console(page, errors)
    return errors


def version(page) -> int:
    return int(page.eval_on_selector("#battle", "e => e.dataset.version"))


def wait_version(page, at_least: int) -> None:
    page.wait_for_function(
        f"Number(document.getElementById('battle').dataset.version) >= {at_least}",
        timeout=LIVE_MS,
    )


def shoot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def check_layout(page, where: str, width: int) -> None:
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        found = page.evaluate(CHECKS_JS)
        assert not found["unlabelled"], (where, scheme, found["unlabelled"])
        assert not found["noAlt"], (where, scheme, found["noAlt"])
        if width <= 400:
            assert found["scrollWidth"] <= found["innerWidth"], (where, scheme, found["wide"])
        shoot(page, f"{where}-{width}-{scheme}")


def upload(page, tmp_path: Path, name: str, data: bytes) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    page.set_input_files("#map-file", str(path))
    page.click("#map-upload")


@pytest.mark.parametrize("width", [1280, 390])
def test_the_gm_uploads_a_map_and_aligns_its_grid(new_page, gm, battle, tmp_path, width):
    page = new_page(gm)
    page.set_viewport_size({"width": width, "height": 900})
    errors = listen(page)
    page.goto(f"/battles/{battle.pk}/")
    wait_version(page, battle.version)
    # duplicate NPCs are told apart on the board
    titles = page.eval_on_selector_all(".battle-token", "els => els.map((e) => e.title)")
    assert any(t.startswith("Fairy Maid 1 ") for t in titles), titles
    assert any(t.startswith("Fairy Maid 2 ") for t in titles), titles

    upload(page, tmp_path, "notes.png", b"<html>not a picture at all</html>")
    page.wait_for_selector("#map-upload-error:not([hidden])")
    assert "not an image" in page.inner_text("#map-upload-error")
    upload(page, tmp_path, "huge.png", png() + b"\0" * (8 * 1024 * 1024 + 10))
    page.wait_for_function(
        "document.getElementById('map-upload-error').textContent.includes('at most 8 MB')"
    )

    # the two refusals are 400 answers (Chromium logs them); nothing else may fail from here
    assert all("400" in e for e in errors), errors
    errors.clear()
    page.fill("#map-name", "Misty Lake")
    upload(page, tmp_path, "lake.png", png())
    page.wait_for_selector("#map-align-form:not([hidden])")
    assert page.is_hidden("#map-upload-error")
    page.wait_for_function("document.getElementById('map-preview-img').complete")
    # line the grid up: 8 squares of 80 px across, 6 down, no offset: it covers the image
    for field, value in (
        ("cols", 8),
        ("rows", 6),
        ("offset-x", 0),
        ("offset-y", 0),
        ("square", 80),
    ):
        page.fill(f"#map-{field}", str(value))
    image = page.eval_on_selector("#map-preview-img", "e => e.getBoundingClientRect().toJSON()")
    grid = page.eval_on_selector("#map-preview-grid", "e => e.getBoundingClientRect().toJSON()")
    assert (
        abs(grid["width"] - image["width"]) <= 1.5 and abs(grid["height"] - image["height"]) <= 1.5
    )
    # the preview follows the numbers as they are typed
    page.fill("#map-offset-x", "80")
    moved = page.eval_on_selector("#map-preview-grid", "e => e.getBoundingClientRect().toJSON()")
    assert abs(moved["x"] - image["x"] - image["width"] / 8) <= 1.5
    page.fill("#map-offset-x", "0")
    page.click("#map-align-save")
    page.wait_for_function(
        "document.getElementById('battle-status').textContent.includes('Grid saved')"
    )
    before = version(page)
    page.click("#map-use")
    wait_version(page, before + 1)
    battle.refresh_from_db()
    assert battle.map is not None and battle.map.name == "Misty Lake"
    assert (battle.state["arena"]["width"], battle.state["arena"]["height"]) == (8, 6)
    shown = page.evaluate("() => window.BattleScreen.state.view.map")
    assert (
        shown["cols"] == 8
        and shown["square_px"] == 80
        and shown["url"].startswith("/battles/maps/")
    )
    check_layout(page, "gm-map", width)
    assert not errors, errors


def _visible_strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value) | {s for v in value.values() for s in _visible_strings(v)}
    if isinstance(value, list):
        return {s for v in value for s in _visible_strings(v)}
    return set()


SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


def wait_for(page, js: str) -> None:
    """Wait for ``js`` to hold on ``page`` (what the page shows, not how soon: see ``LIVE_MS``);
    on a timeout, say what the page had instead (its version, map, turn label, live status and
    the log's end)."""
    try:
        page.wait_for_function(js, timeout=LIVE_MS)
    except Exception as err:
        state = page.evaluate(
            """() => { const S = window.BattleScreen.state; return {
            version: S.version, map: S.view && S.view.map,
            label: document.getElementById('turn-label').textContent,
            live: document.getElementById('live-status').textContent,
            status: document.getElementById('battle-status').textContent,
            log: document.getElementById('log').textContent.slice(-300)}; }"""
        )
        raise AssertionError(f"{js} never held: {state}") from err


def _turn_to(battle: Battle, gm, combatant: str) -> None:
    """End turns as the GM (who may end anyone's) until it is ``combatant``'s."""
    for _ in range(12):
        battle.refresh_from_db()
        if battle.state["current"] == combatant:
            return
        battles.battle_action_apply(
            battle_id=battle.pk,
            actor=gm,
            action={"type": "end_turn", "combatant": battle.state["current"]},
            expected_version=battle.version,
        )
    raise AssertionError(f"{combatant} never got a turn")


def _no_identifiers(page, where: str) -> None:
    for selector in ("#log", "#turn-label", "#tracker"):
        text = page.inner_text(selector)
        assert not SNAKE.search(text), (where, selector, SNAKE.findall(text))
        assert "fogged" not in text and "gm fog" not in text.lower(), (where, selector, text)


@pytest.mark.parametrize("width", [1280, 390])
def test_a_fogged_enemy_is_absent_for_the_player_until_revealed(
    new_page, gm, player, battle, width
):
    """On a laid map (its grid offset 20 px, squares of 80 px), in a running battle: the map
    lies under the board's squares; the GM fogs a fairy and she is gone from the player's DOM
    and from every payload the page fetches afterwards (the view with its odds, portraits,
    table feed); the log says in words what the fog did and what happened unseen; while the
    hidden fairy has the turn the player reads "The GM is acting"; a grid re-aligned under the
    running battle (no new version) reaches the board at the next poll."""
    lake = maps.battle_map_create(
        campaign_id=battle.campaign_id,
        by=gm,
        name="Misty Lake",
        image=SimpleUploadedFile("lake.png", png((680, 520), offset=20), content_type="image/png"),
        alignment={"cols": 8, "rows": 6, "offset_x": 20, "offset_y": 20, "square_px": 80},
    )
    maps.battle_map_set(battle_id=battle.pk, by=gm, map_id=lake.pk)
    battle.refresh_from_db()
    battles.battle_action_apply(
        battle_id=battle.pk, actor=gm, action={"type": "start"}, expected_version=battle.version
    )
    pc = next(c for c in battles.full_state(battle).combatants if c.startswith("pc"))
    _turn_to(battle, gm, pc)
    gm_page = new_page(gm)
    gm_page.set_viewport_size({"width": width, "height": 900})
    gm_page.goto(f"/battles/{battle.pk}/")
    player_page = new_page(player)
    player_page.set_viewport_size({"width": width, "height": 900})
    errors = listen(player_page)
    # what the player's page fetched from the fog's click on (and whether it landed yet)
    fetched: list[tuple[bool, Any]] = []
    watching = {"on": False, "landed": False}
    player_page.on(
        "response",
        lambda r: watching["on"] and "/api/" in r.url and fetched.append((watching["landed"], r)),
    )
    player_page.goto(f"/battles/{battle.pk}/")
    wait_version(player_page, battle.version)
    hidden_name, hidden_id = "Fairy Maid 1", "npc1"  # at (5, 1)
    assert hidden_name in player_page.content()

    # the map under the squares: its grid's first square on the board's, 80 px to a square
    # the image loads from the test server's media beside its polls: give it the page's own
    # timeout, not the 4 s of a sync check (nothing here times the product)
    player_page.wait_for_function("document.getElementById('board-map').complete", timeout=10_000)
    box = player_page.evaluate(
        """() => { const img = document.getElementById('board-map').getBoundingClientRect();
            const board = document.getElementById('board').getBoundingClientRect();
            return {img: img.toJSON(), board: board.toJSON()}; }"""
    )
    cell = box["board"]["width"] / 8  # a square on screen (8 columns)
    assert abs(box["img"]["width"] - 680 / 80 * cell) <= 1.5, box
    assert abs(box["board"]["x"] - box["img"]["x"] - 20 / 80 * cell) <= 1.5, box
    assert abs(box["board"]["y"] - box["img"]["y"] - 20 / 80 * cell) <= 1.5, box

    # the GM fogs the area around the first fairy (typed corners), in play: a logged action
    for field, value in (("x1", 4), ("y1", 0), ("x2", 5), ("y2", 2)):
        gm_page.fill(f"#fog-{field}", str(value))
    before = version(gm_page)
    watching["on"] = True
    gm_page.click("#fog-add")
    wait_version(gm_page, before + 1)
    wait_version(player_page, before + 1)  # the player's page follows by itself
    watching["landed"] = True
    assert "6 squares in fog" in gm_page.inner_text("#fog-count")
    assert hidden_name in gm_page.content()  # the GM sees everyone
    player_page.wait_for_timeout(1500)  # a few polls of the view and the table feed
    html = player_page.content()
    # nor in the log she had already read (the screen reloads it when someone leaves its view)
    assert hidden_name not in html and hidden_id not in html
    assert "Fairy Maid 2" in html  # the other one stands in the open
    # the fog layer: six squares, opaque for her, see-through (hatched) with the piece for the GM
    for page, pieces in ((player_page, 0), (gm_page, 1)):
        assert page.locator(".battle-square.fogged").count() == 6
        assert page.locator(".battle-square.fogged .battle-token").count() == pieces
    opacity = [
        page.eval_on_selector(
            ".battle-square.fogged",
            "e => getComputedStyle(e).backgroundColor + getComputedStyle(e).backgroundImage",
        )
        for page in (player_page, gm_page)
    ]
    assert "0.92" in opacity[0] and "repeating-linear-gradient" in opacity[1], opacity
    for page in (player_page, gm_page):
        log = page.inner_text("#log")
        assert "GM hides part of the board in fog" in log and "Fog covers 6 squares" in log, log
    bodies: dict[str, list[Any]] = {}
    for landed, response in list(fetched):
        try:
            text = response.text()
        except Exception:  # noqa: S112 - a poll cut short has no body
            continue
        path = response.url.split("?")[0].rstrip("/").rsplit("/", 1)[-1]
        data = json.loads(text) if text else None
        # the view that brought the fog (later polls: 204), what was asked after it landed
        fog = path == "state" and (data or {}).get("view", {}).get("fog")
        if data is not None and (landed or fog):
            bodies.setdefault(path, []).append(data)
    # the state (the view with her legal actions and their odds), portraits and the table feed
    assert {"state", "portraits", "table"} <= set(bodies), sorted(bodies)
    for path, datas in bodies.items():
        for data in datas:
            assert not {hidden_id, hidden_name} & _visible_strings(data), path
    check_layout(player_page, "player-fogged", width)
    check_layout(gm_page, "gm-fogged", width)

    # the grid re-aligned under the running battle (no new version): the board follows
    maps.battle_map_update(map_id=lake.pk, by=gm, alignment={"offset_x": 40})
    wait_for(player_page, "window.BattleScreen.state.view.map.offset_x === 40")

    # the hidden fairy's turn: the player is told only that the GM is acting
    _turn_to(battle, gm, hidden_id)
    wait_for(
        player_page, "document.getElementById('turn-label').textContent === 'The GM is acting.'"
    )
    assert "The GM is acting" in player_page.inner_text("#tracker")
    battles.battle_action_apply(
        battle_id=battle.pk,
        actor=gm,
        action={"type": "end_turn", "combatant": hidden_id},
        expected_version=Battle.objects.get(pk=battle.pk).version,
    )
    wait_for(
        player_page, "document.getElementById('log').textContent.includes('acts unseen in the fog')"
    )
    assert hidden_name not in player_page.content()

    # the GM clears the fog from a page that has caught up with the moves made above (from
    # an older version her click is refused as stale, 409, and nothing is cleared)
    current = Battle.objects.get(pk=battle.pk).version
    wait_version(gm_page, current)
    gm_page.click("#fog-none")
    wait_version(gm_page, current + 1)
    wait_version(player_page, current + 1)
    wait_for(
        player_page,
        "[...document.querySelectorAll('.battle-token')]"
        ".some((e) => e.title.startsWith('Fairy Maid 1 '))",
    )
    assert "clears fog from part of the board" in player_page.inner_text("#log")
    _no_identifiers(player_page, "player")
    _no_identifiers(gm_page, "gm")
    shoot(player_page, f"player-revealed-{width}")
    assert not errors, errors


def _started_with_a_wide_map(gm: Any, battle: Battle) -> Any:
    """The 8×6 battle started, and a 10×7 map in its campaign's library."""
    battles.battle_action_apply(
        battle_id=battle.pk, actor=gm, action={"type": "start"}, expected_version=battle.version
    )
    wide = maps.battle_map_create(
        campaign_id=battle.campaign_id,
        by=gm,
        name="Wide field",
        image=SimpleUploadedFile("wide.png", png((800, 560)), content_type="image/png"),
        alignment={"cols": 10, "rows": 7, "square_px": 80},
    )
    return wide


def test_a_map_of_the_wrong_size_is_refused_in_words(new_page, gm, battle):
    """The GM tried a 10×7 map under a running 8×6 battle and read "map: The battle has
    started on 8×6 squares; this map has 10×7.": the field's key before the sentence. The
    message is shown as the sentence it is (docs/battles.md, "Maps, fog and numbered NPCs")."""
    wide = _started_with_a_wide_map(gm, battle)
    page = new_page(gm)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/battles/{battle.pk}/")
    page.wait_for_selector(f"#map-choice option[value='{wide.pk}']", state="attached")
    page.select_option("#map-choice", str(wide.pk))
    page.click("#map-use")
    page.wait_for_function(
        "document.getElementById('battle-status').textContent.includes('has started')"
    )
    assert (
        page.inner_text("#battle-status")
        == "The battle has started on 8×6 squares; this map has 10×7."
    )
    page.locator("#battle-status").scroll_into_view_if_needed()
    shoot(page, "battle-map-wrong-size-390")


def test_a_map_used_before_the_board_has_loaded_acts_on_the_battle_as_drawn(new_page, gm, battle):
    """A slow first view (held here by the browser's own network layer): the GM picks a map
    and clicks "Use it" before the board arrives. The page sent ``expected_version: -1`` and
    read "Ensure this value is greater than or equal to 0."; it now sends the version it was
    drawn at, so the rules answer as they would a moment later."""
    wide = _started_with_a_wide_map(gm, battle)
    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append(route)

    page = new_page(gm)
    page.route(re.compile(r"/api/battles/\d+/state/"), hold)
    page.goto(f"/battles/{battle.pk}/")
    page.wait_for_selector(f"#map-choice option[value='{wide.pk}']", state="attached")
    assert held, "the board's first view is held (every view request is, until the end)"
    page.select_option("#map-choice", str(wide.pk))
    page.click("#map-use")
    page.wait_for_function("document.getElementById('battle-status').textContent !== ''")
    assert (
        page.inner_text("#battle-status")
        == "The battle has started on 8×6 squares; this map has 10×7."
    )
    page.unroute(re.compile(r"/api/battles/\d+/state/"), hold)  # lets the held views through
