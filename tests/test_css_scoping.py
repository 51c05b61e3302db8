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
