"""Issue 14, in headless Chromium: the GM uploads a map and lines the grid up with a live
preview (at 1280 and 390 px, light and dark); a non-image and an oversized image are refused
with a clear error; duplicate NPCs are numbered on the board; and, with two browser contexts,
a fogged enemy is absent from the player's DOM and from every payload her page fetched until
the GM reveals it. Screenshots go to test-artifacts/."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from battles import services as battles
from battles.models import Battle
from campaign.permissions import access_for
from tests.factories import CharacterFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "test-artifacts" / "battle-map"
CHECKS_JS = (Path(__file__).parent / "visual_checks.js").read_text()
SYNC_MS = 2000


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path / "media")


def png(size: tuple[int, int] = (640, 480)) -> bytes:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", size, (60, 110, 70))
    draw = ImageDraw.Draw(image)
    for x in range(0, size[0], 80):  # a map with its own squares drawn on it
        draw.line([(x, 0), (x, size[1])], fill=(20, 40, 20), width=2)
    for y in range(0, size[1], 80):
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
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def version(page) -> int:
    return int(page.eval_on_selector("#battle", "e => e.dataset.version"))


def wait_version(page, at_least: int) -> None:
    page.wait_for_function(
        f"Number(document.getElementById('battle').dataset.version) >= {at_least}",
        timeout=SYNC_MS * 5,
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


@pytest.mark.parametrize("width", [1280, 390])
def test_a_fogged_enemy_is_absent_for_the_player_until_revealed(
    new_page, gm, player, battle, width
):
    gm_page = new_page(gm)
    gm_page.set_viewport_size({"width": width, "height": 900})
    gm_page.goto(f"/battles/{battle.pk}/")
    player_page = new_page(player)
    player_page.set_viewport_size({"width": width, "height": 900})
    errors = listen(player_page)
    fetched: list[Any] = []
    player_page.on("response", lambda r: "/api/" in r.url and fetched.append(r))
    player_page.goto(f"/battles/{battle.pk}/")
    wait_version(player_page, battle.version)
    hidden_name, hidden_id = "Fairy Maid 1", "npc1"  # at (5, 1)
    assert hidden_name in player_page.content()

    # the GM fogs the area around the first fairy (typed corners)
    for field, value in (("x1", 4), ("y1", 0), ("x2", 5), ("y2", 2)):
        gm_page.fill(f"#fog-{field}", str(value))
    before = version(gm_page)
    gm_page.click("#fog-add")
    wait_version(gm_page, before + 1)
    wait_version(player_page, before + 1)  # the player's page follows within 2 s
    assert "6 squares in fog" in gm_page.inner_text("#fog-count")
    assert hidden_name in gm_page.content()  # the GM sees everyone
    player_page.wait_for_timeout(300)
    html = player_page.content()
    assert hidden_name not in html and f'"{hidden_id}"' not in html
    assert "Fairy Maid 2" in html  # the other one stands in the open
    fetched_before_reveal = list(fetched)
    bodies = []
    for response in fetched_before_reveal:
        try:
            bodies.append(response.text())
        except Exception:  # noqa: S112 - a poll cut short has no body
            continue
    # payloads fetched after the fog landed: none mentions her (earlier ones showed her)
    late = [b for b in bodies if '"fog": [[4, 0]' in b or '"fog":[[4,0]' in b]
    assert late, "the player's page fetched the fogged view"
    for body in late:
        data = json.loads(body)
        assert not {hidden_id, hidden_name} & _visible_strings(data)
    shoot(player_page, f"player-fogged-{width}")
    shoot(gm_page, f"gm-fogged-{width}")

    before = version(gm_page)
    gm_page.click("#fog-none")
    wait_version(player_page, before + 1)
    player_page.wait_for_function(
        "[...document.querySelectorAll('.battle-token')]"
        ".some((e) => e.title.startsWith('Fairy Maid 1 '))",
        timeout=SYNC_MS * 2,
    )
    shoot(player_page, f"player-revealed-{width}")
    assert not errors, errors
