"""The geometry that matters, measured in Chromium (issue 10: the exact-odds chart drew its bars
as horizontal lines because a battle rule for ``.bar`` reached them).

The odds chart: one bar per possible total, each narrower than the chart's width divided by the
number of totals, and each as tall as its probability demands (heights proportional to the exact
probabilities the engine computes). On the three pages that show it: the dice roller, a
campaign's dice page, and the spellcard builder. The battle board: every square is square, on a
desktop and on a phone.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from battles import services as battles
from notifications.models import EventType, NotificationChannel
from tests.browser.conftest import ARTIFACTS, no_horizontal_overflow
from tests.factories import CharacterFactory
from westernroses.probability import total_distribution

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BARS_JS = """(sel) => {
  const chart = document.querySelector(sel);
  const svg = chart.querySelector("svg");
  const box = svg.getBoundingClientRect();
  return {
    width: box.width,
    height: box.height,
    bars: [...svg.querySelectorAll("rect[data-total]")].map((r) => {
      const b = r.getBoundingClientRect();
      return { total: Number(r.dataset.total), width: b.width, height: b.height, left: b.left };
    }),
  };
}"""


def assert_chart_geometry(page, selector: str, notation: str) -> None:
    exact = total_distribution(notation)
    found = page.evaluate(BARS_JS, selector)
    bars = found["bars"]
    totals = sorted(exact)
    # one bar per total, in order
    assert [b["total"] for b in bars] == totals
    slot = found["width"] / len(totals)
    peak = max(exact.values())
    tallest = max(b["height"] for b in bars)
    assert tallest > found["height"] / 2  # a chart, not a row of 4 px lines
    for bar in bars:
        assert 0 < bar["width"] < slot, (bar, slot)
        expected = float(exact[bar["total"]] / peak) * tallest
        assert abs(bar["height"] - expected) <= 1.0, (bar, expected)
    # side by side, left to right
    lefts = [b["left"] for b in bars]
    assert lefts == sorted(lefts) and len(set(lefts)) == len(lefts)


@pytest.mark.parametrize("width", [1280, 390])
def test_odds_chart_on_the_dice_pages(new_page, campaign, player, width):
    page = new_page(player)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto("/dice/?notation=4d%2B2&target=12")
    assert_chart_geometry(page, "#odds-panel .odds-chart", "4d+2")
    page.goto(f"/campaigns/{campaign.pk}/dice/?notation=3d&target=10")
    assert_chart_geometry(page, "#odds-panel .odds-chart", "3d")
    # still a chart after a live refresh as you type
    page.fill("#id_notation", "5d")
    page.wait_for_function("document.querySelector('#odds-panel h2')?.textContent.includes('5d')")
    assert_chart_geometry(page, "#odds-panel .odds-chart", "5d")


LABELS_JS = """(selector) => {
  const svg = document.querySelector(selector + " svg");
  const chart = svg.getBoundingClientRect();
  return [...svg.querySelectorAll(".odds-chart__label")]
    .filter((t) => getComputedStyle(t).display !== "none")
    .map((t) => {
      const m = t.getScreenCTM();
      const r = t.getBoundingClientRect();
      return { font: parseFloat(getComputedStyle(t).fontSize) * m.d, left: r.left, right: r.right,
               inside: r.left >= chart.left - 0.5 && r.right <= chart.right + 0.5 };
    });
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_odds_chart_axis_numbers_are_readable(new_page, width):
    """The tester measured the axis numbers at about 5 px on a 390 px phone: they stay at least
    ~11 px tall on screen, inside the chart, and never touch (a narrow chart keeps fewer)."""
    page = new_page()
    page.set_viewport_size({"width": width, "height": 900})
    for notation in ("1d", "4d", "8d", "20d"):
        page.goto(f"/dice/?notation={notation}&target=12")
        labels = page.evaluate(LABELS_JS, "#odds-panel .odds-chart")
        assert len(labels) >= 4, (notation, labels)
        for label in labels:
            assert label["font"] >= 11, (notation, width, label)
            assert label["inside"], (notation, width, label)
        for before, after in itertools.pairwise(labels):
            assert after["left"] > before["right"], (notation, width, before, after)


def test_odds_chart_in_the_spellcard_builder(new_page, campaign, player):
    reimu = CharacterFactory(owner=player, campaign=campaign, name="Reimu")
    page = new_page(player)
    page.goto(f"/characters/{reimu.pk}/spellcards/new/")
    page.select_option("#id_attack_dice", "5")
    page.wait_for_function("document.querySelector('#damage-chart svg')?.dataset.bars === '26'")
    assert_chart_geometry(page, "#damage-chart", "5d")


def test_chart_bar_probabilities_are_the_engines(new_page):
    """The bars carry the exact probability they draw (Basic rolls: 2d has 11 totals, 7 most
    likely at 6/36)."""
    page = new_page()
    page.goto("/dice/?notation=2d")
    probs = page.eval_on_selector_all(
        ".odds-chart rect[data-total]",
        "rs => rs.map(r => [r.dataset.total, r.dataset.probability])",
    )
    assert len(probs) == 11
    assert Fraction(dict(probs)["7"]).limit_denominator(1000) == Fraction(6, 36)


@pytest.mark.parametrize("width", [1280, 390])
def test_battle_squares_are_square(new_page, campaign, gm, player, width):
    from campaign.permissions import access_for

    battle = battles.battle_create(
        campaign=campaign,
        by=access_for(gm, campaign),
        created_by=gm,
        name="Squares",
        width=10,
        height=7,
    )
    hero = CharacterFactory(owner=player, campaign=campaign, name="Reimu")
    battles.battle_character_place(
        battle_id=battle.pk, by=gm, character_id=hero.pk, position=[1, 1]
    )
    page = new_page(player)
    page.set_viewport_size({"width": width, "height": 844})
    page.goto(f"/battles/{battle.pk}/")
    page.wait_for_selector(".battle-square .battle-token")
    squares = page.eval_on_selector_all(
        ".battle-square",
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })",
    )
    assert len(squares) == 70
    for w, h in squares:
        assert abs(w - h) <= 0.5 and w >= 20, (w, h)
    # the token sits inside its square, with its HP meter inside the token
    token = page.eval_on_selector(".battle-token", "e => e.getBoundingClientRect().toJSON()")
    square = page.eval_on_selector(
        ".battle-square:has(.battle-token)", "e => e.getBoundingClientRect().toJSON()"
    )
    hp = page.eval_on_selector(".battle-token__hp", "e => e.getBoundingClientRect().toJSON()")
    assert token["width"] <= square["width"] and token["height"] <= square["height"]
    assert token["left"] <= hp["left"] and hp["right"] <= token["right"]
    if width == 390:
        # a phone shows the board whole (no sideways page scroll) and the actions below it
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        board = page.eval_on_selector("#board", "e => e.getBoundingClientRect().toJSON()")
        assert board["right"] <= 390


def test_the_wizards_still_to_fix_panel_shows_every_line(new_page, player):
    """Issue 10: the wizard's "Still to fix" panel cut off its last line (a height cap hid it
    behind the panel's own scrollbar). On a short screen with many problems, every line is
    inside the panel's box and reachable by scrolling the page."""
    page = new_page(player)
    page.set_viewport_size({"width": 1280, "height": 600})
    page.goto("/characters/new/")
    page.evaluate(
        """() => { for (const i of document.querySelectorAll('input[type=number]')) {
             i.value = 9; i.dispatchEvent(new Event('input', {bubbles: true})); } }"""
    )
    page.wait_for_function(
        "document.querySelectorAll('#live-panel .problems li').length >= 6", timeout=15_000
    )
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    found = page.evaluate(
        """() => { const p = document.getElementById('live-panel');
             const last = [...p.querySelectorAll('.problems li')].pop().getBoundingClientRect();
             const box = p.getBoundingClientRect();
             return {scroll: p.scrollHeight, client: p.clientHeight, last: last.bottom,
                     box: box.bottom, vh: innerHeight}; }"""
    )
    assert found["scroll"] <= found["client"]  # nothing hidden inside the panel
    assert found["last"] <= found["box"] <= found["vh"]


@pytest.mark.parametrize("width", [1280, 390])
def test_notification_channels_are_big_targets_and_fit_a_phone(new_page, player, width):
    """The tester found 20x19 px checkboxes with no larger label, and the Email and Webhook
    columns reachable only by scrolling the table sideways at 390 px."""
    page = new_page(player)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto("/notifications/preferences/")
    found = page.evaluate(
        """() => {
          const grid = document.querySelector(".channel-grid");
          const box = grid.parentElement;
          const targets = [...grid.querySelectorAll("input[type=checkbox]")].map((c) => {
            const r = c.closest("label").getBoundingClientRect();
            return { w: r.width, h: r.height, right: r.right };
          });
          return { targets, scroll: box.scrollWidth - box.clientWidth,
                   edge: box.getBoundingClientRect().right };
        }"""
    )
    # a box for every event and every channel (in the app, email, webhook, push)
    assert len(found["targets"]) == len(EventType) * len(NotificationChannel)
    for target in found["targets"]:
        assert target["w"] >= 40 and target["h"] >= 40, target
        assert target["right"] <= found["edge"] + 0.5, target  # visible without scrolling
    assert found["scroll"] <= 1
    assert no_horizontal_overflow(page)
    # the whole label is the tap target: a click on its words toggles the box
    first = page.locator(".channel-grid input[type=checkbox]").first
    before = first.is_checked()
    first.locator("xpath=..").click(position={"x": 30, "y": 10})
    assert first.is_checked() != before


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize(
    ("path", "rows", "expected"),
    [
        ("/notifications/preferences/", ".field.checkbox", {"turn-sound", "turn-desktop"}),
        ("/tavern/", ".tavern-form-check", {"practice", "advisor"}),
    ],
    ids=["preferences", "tavern"],
)
def test_a_checkbox_on_its_own_line_has_a_finger_sized_label(
    new_page, player, width, path, rows, expected
):
    """The walkthrough found the preferences' Quiet mode and the two "Your turn on this device"
    switches, and the new table's Practice and Advisor, as 13 px boxes whose labels were one
    line of text: every such row (the form fields' shared ``.field.checkbox``, the tavern
    form's own) has a box of at least 20 px beside a label at least 40 px tall that toggles
    it."""
    page = new_page(player)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(path)
    found = page.evaluate(
        """(rows) => [...document.querySelectorAll(rows)].map((row) => {
          const box = row.querySelector("input[type=checkbox]").getBoundingClientRect();
          const label = row.querySelector("label").getBoundingClientRect();
          return { id: row.querySelector("input").id, box: [box.width, box.height],
                   label: label.height, beside: label.top < box.bottom && box.top < label.bottom };
        })""",
        rows,
    )
    assert {f["id"] for f in found} >= expected, found
    for row in found:
        assert min(row["box"]) >= 20 and row["label"] >= 40, row
        assert row["beside"], row  # the words beside the box, not wrapped under it
    first = sorted(expected)[-1]
    box = page.locator(f"#{first}")
    before = box.is_checked()
    box.locator("xpath=ancestor-or-self::*[self::div][1]").locator("label").click(
        position={"x": 200, "y": 3}  # on its words' line, near the top edge
    )
    assert box.is_checked() != before
    assert no_horizontal_overflow(page)
    (ARTIFACTS / "components").mkdir(parents=True, exist_ok=True)
    page.screenshot(
        path=str(
            ARTIFACTS / "components" / f"checkboxes-{path.strip('/').replace('/', '-')}-{width}.png"
        ),
        full_page=True,
    )


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("game", ["raigo", "rso", "dbs"])
def test_a_new_tables_house_rules_each_sit_on_lines_of_their_own(new_page, player, width, game):
    """The walkthrough found the new-table form's house rules running on as one paragraph at
    1280 px: one rule's help text straight into the next rule's label, "Your deck" glued to a
    help line. Each label, choice and help line of the chosen game starts below the one
    before it."""
    page = new_page(player)
    page.set_viewport_size({"width": width, "height": 900})
    page.goto("/tavern/")
    page.select_option("#game", game)
    rows = page.evaluate(
        """(game) => [...document.querySelector(`fieldset.tavern-rules[data-game=${game}]`)
            .querySelectorAll(":scope > label, :scope > select, :scope > input, :scope > small")]
            .map((e) => { const r = e.getBoundingClientRect();
              return { what: e.tagName + " " + e.textContent.trim().slice(0, 30),
                       top: r.top, bottom: r.bottom }; })""",
        game,
    )
    assert len(rows) >= 3, rows
    for before, after in itertools.pairwise(rows):
        assert after["top"] >= before["bottom"] - 1, (before, after)
    assert no_horizontal_overflow(page)
    (ARTIFACTS / "components").mkdir(parents=True, exist_ok=True)
    page.locator(f"fieldset.tavern-rules[data-game={game}]").screenshot(
        path=str(ARTIFACTS / "components" / f"new-table-rules-{game}-{width}.png")
    )
