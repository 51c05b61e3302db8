"""Server-rendered SVG charts: the dice distribution with success and critical bands coloured.

Rendered on the server so the page works without JavaScript and without any chart library.
Every class name carries the component's prefix (``odds-chart__bar``, styled only by
``static/css/odds-chart.css``) so no other page's rule can reach these bars: a battle rule for
``.bar`` once drew them as thin lines to the right edge.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from django.utils.html import escape

from westernroses.checks import Critical, judge

if TYPE_CHECKING:
    from westernroses.dice import DiceExpression
    from westernroses.house_rules import HouseRules

WIDTH = 600
HEIGHT = 220
PAD_BOTTOM = 30
PAD_TOP = 8
#: Room each side for the first and last axis numbers, centred under their bars.
SIDE_PAD = 20
#: Axis labels a narrow chart keeps (the rest are ``odds-chart__label--minor``, hidden by
#: odds-chart.css when the chart is narrow, where the labels are drawn larger to stay readable).
NARROW_LABELS = 8


def _bar_class(
    expr: DiceExpression, total: int, target: int | None, rules: HouseRules, criticals: bool
) -> str:
    """Colour a total by how the engine judges it (criticals are on the dice alone, ruling 2).

    Multiplied rolls (3dX2) are damage, not checks: no critical bands, a plain comparison.
    """
    if expr.multiplier != 1 or not criticals:
        return "odds-chart__bar--success" if target is not None and total > target else ""
    judgement = judge(total - expr.modifier, expr.dice, expr.modifier, target, rules)
    if judgement.critical is Critical.FAILURE:
        return "odds-chart__bar--crit-failure"
    if judgement.critical is Critical.SUCCESS and judgement.success is not False:
        return "odds-chart__bar--crit-success"
    return "odds-chart__bar--success" if judgement.success else ""


def distribution_svg(
    expr: DiceExpression,
    distribution: dict[int, Fraction],
    target: int | None,
    rules: HouseRules,
    *,
    criticals: bool = True,
) -> str:
    """A bar per possible total; successes green, critical bands gold/red, a target line.

    ``criticals=False`` for rolls that are not checks (damage): no critical bands."""
    if not distribution:
        return ""
    totals = sorted(distribution)
    peak = max(distribution.values())
    bar_w = WIDTH / len(totals)
    plot_h = HEIGHT - PAD_BOTTOM - PAD_TOP
    label_every = max(1, len(totals) // 15)
    labels = -(-len(totals) // label_every)
    narrow_step = -(-labels // NARROW_LABELS)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="{-SIDE_PAD} 0 {WIDTH + 2 * SIDE_PAD} {HEIGHT}" '
        f'class="odds-chart__svg" aria-hidden="true" data-bars="{len(totals)}">'
    ]
    for i, total in enumerate(totals):
        p = distribution[total]
        h = float(p / peak) * plot_h if peak else 0
        x = i * bar_w
        y = PAD_TOP + plot_h - h
        classes = ["odds-chart__bar"]
        band = _bar_class(expr, total, target, rules, criticals)
        if band:
            classes.append(band)
        title = escape(f"{total}: {float(p) * 100:.3f}% ({p.numerator}/{p.denominator})")
        parts.append(
            f'<rect class="{" ".join(classes)}" x="{x:.2f}" y="{y:.2f}" '
            f'width="{max(bar_w - 1, 0.5):.2f}" height="{h:.2f}" data-total="{total}" '
            f'data-probability="{float(p):.9f}">'
            f"<title>{title}</title></rect>"
        )
        if i % label_every == 0:
            minor = (i // label_every) % narrow_step != 0
            label_class = (
                "odds-chart__label odds-chart__label--minor" if minor else ("odds-chart__label")
            )
            parts.append(
                f'<text class="{label_class}" x="{x + bar_w / 2:.2f}" y="{HEIGHT - 6}" '
                f'text-anchor="middle">{total}</text>'
            )
    if target is not None and totals[0] <= target <= totals[-1]:
        x = (totals.index(target) + 1) * bar_w
        parts.append(
            f'<line class="odds-chart__target" x1="{x:.2f}" y1="{PAD_TOP}" '
            f'x2="{x:.2f}" y2="{PAD_TOP + plot_h}" '
            'stroke-dasharray="4 3"/>'
        )
    parts.append("</svg>")
    return "".join(parts)
