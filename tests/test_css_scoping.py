"""CSS is scoped to components (issue 10: the battle screen's ``.bar`` rule drew the exact-odds
chart's bars as 4 px lines to the right edge on every page that shows the chart).

A component's stylesheet holds only selectors that start with its prefix, and no other
stylesheet names a class the chart draws with or styles the SVG elements it is made of.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from campaign.charts import distribution_svg
from westernroses.dice import parse
from westernroses.house_rules import DEFAULT_HOUSE_RULES
from westernroses.probability import total_distribution

CSS = Path(__file__).resolve().parent.parent / "static" / "css"
COMPONENTS = {
    "odds-chart.css": ".odds-chart",
    "battle.css": ".battle",
    "battle-gm-map.css": ".gm-map",
    "game-rules.css": ".game-rules",
    "ask-first.css": ".ask-first",
    "table-extras.css": ".table-extras",
    "table-chat.css": ".table-chat",
    "replay.css": ".replay",
    "threads.css": ".threads",
}


def selectors(path: Path) -> list[str]:
    """Every selector of every rule in a stylesheet (inside @media too; at-rules skipped)."""
    text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
    found = []
    for head in re.findall(r"([^{}]+)\{", text):
        head = head.strip()
        if not head or head.startswith("@"):
            continue
        found += [s.strip() for s in head.split(",") if s.strip()]
    return found


@pytest.mark.parametrize(("name", "prefix"), sorted(COMPONENTS.items()))
def test_a_component_stylesheet_only_styles_its_component(name, prefix):
    found = selectors(CSS / name)
    assert found, f"{name} has no rules"
    outside = [s for s in found if not s.startswith(prefix)]
    assert not outside, f"{name}: selectors outside {prefix}: {outside}"


def test_the_odds_chart_draws_only_with_its_own_classes():
    expr = parse("4d+2")
    svg = distribution_svg(expr, total_distribution(expr), 12, DEFAULT_HOUSE_RULES)
    classes = {c for attr in re.findall(r'class="([^"]*)"', svg) for c in attr.split()}
    assert classes and all(c.startswith("odds-chart__") for c in classes), classes
    assert {"odds-chart__bar", "odds-chart__bar--success"} <= classes


def test_no_other_stylesheet_reaches_the_odds_chart():
    chart_elements = {"svg", "rect", "text", "line", "title"}
    for path in sorted(CSS.glob("*.css")):
        if path.name == "odds-chart.css":
            continue
        for selector in selectors(path):
            assert ".odds-chart" not in selector, f"{path.name}: {selector}"
            subject = re.split(r"[\s>+~]+", selector)[-1]
            element = re.match(r"[a-z]+", subject)
            assert not (element and element.group() in chart_elements), f"{path.name}: {selector}"
            # a bare class rule (".bar") may only be a class nothing else in the site uses
            # under that name: the chart's names all carry its prefix, so it cannot match
            assert not re.search(r"\.(bar|success|crit-success|crit-failure)\b", selector), (
                f"{path.name}: {selector} is a generic name the chart once used"
            )


#: What a dark palette may set: colours, as custom properties or as the colour of text, and the
#: browser's own colour scheme (form controls, scroll bars).
PALETTE_PROPERTIES = {"color", "color-scheme"}
#: A palette's value: a colour, or a shadow made of lengths and a colour.
COLOUR = r"(#[0-9a-f]{3,8}|rgba?\([0-9., ]+\)|light|dark)"
PALETTE_VALUE = re.compile(rf"{COLOUR}|((-?[0-9.]+(px)?|0) ){{2,4}}{COLOUR}", re.I)


def dark_declarations(path: Path) -> list[tuple[str, str, str]]:
    """(selector, property, value) of every declaration that applies in the dark scheme only:
    inside ``@media (prefers-color-scheme: dark)``, or under a ``[data-theme="dark"]``
    selector (the header's toggle)."""
    text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
    found: list[tuple[str, str, str]] = []
    heads: list[str] = []
    start = 0
    for match in re.finditer(r"[{}]", text):
        chunk = text[start : match.start()]
        start = match.end()
        if match.group() == "{":
            heads.append(chunk.strip())
            continue
        if heads:
            head = heads.pop()
            media = any("prefers-color-scheme: dark" in h for h in heads)
            if (media or 'data-theme="dark"' in head) and not head.startswith("@"):
                for declaration in chunk.split(";"):
                    if ":" in declaration:
                        prop, value = (part.strip() for part in declaration.split(":", 1))
                        found.append((head, prop, value))
    return found


def test_the_dark_palettes_change_colours_alone():
    """Dark mode changes colours and nothing else, so the page's elements, names and layout
    are the same in both schemes: the visual sweep (tests/browser/test_visual.py) runs axe's
    rules that read colours in both and the others once, in light. No script answers the
    scheme either (site.css follows prefers-color-scheme alone)."""
    sheets = sorted(CSS.rglob("*.css"))
    seen = 0
    for sheet in sheets:
        for selector, prop, value in dark_declarations(sheet):
            seen += 1
            where = f"{sheet.name}: {selector} {{ {prop}: {value} }}"
            assert prop.startswith("--") or prop in PALETTE_PROPERTIES, where
            assert PALETTE_VALUE.fullmatch(value), where
    assert seen > 100  # the site's palette and the four games'
    scripts = Path(__file__).resolve().parent.parent / "static" / "js"
    for script in scripts.rglob("*.js"):
        code = re.sub(r"//[^\n]*|/\*.*?\*/", "", script.read_text(), flags=re.S)
        assert "prefers-color-scheme" not in code, script
