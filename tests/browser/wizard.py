"""Choosing in the character wizard as a player does: after the live panel has settled.

Every change posts the form for a preview, and the answer redraws the panel 150 ms or more
later; a redraw that lands during a click can move the input away from the pointer, and the
click then changes nothing. The panel is ``aria-busy`` from a change until the answer to the
last change is drawn (``static/js/character_wizard.js``), so a test waits for that first.
"""

from __future__ import annotations

from playwright.sync_api import Page

#: The live panel with no preview pending.
SETTLED = "#live-panel:not([aria-busy])"


def choose(page: Page, selector: str) -> None:
    """Check the radio or box at ``selector`` once the panel shows the last change."""
    page.wait_for_selector(SETTLED, state="attached")
    page.check(selector)
