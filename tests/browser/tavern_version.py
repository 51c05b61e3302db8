"""The version a tavern table page has drawn, as a JavaScript expression for Playwright waits,
and the wait for a move to show.

Why null-safe: the page reloads itself when the table's status changes (the game starts, or the
last move ends it: static/js/tavern/table.js). A wait that is polling at that moment runs in the
half-loaded new document, where ``#tavern-table`` does not exist yet; an expression that reads
``.dataset`` of null throws, and Playwright ends the wait with that error instead of polling on.
-1 reads as "nothing drawn yet", so the wait simply goes on until the new page is there.
"""

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from minigames.models import TavernTable

TABLE_VERSION = "Number(document.getElementById('tavern-table')?.dataset.version ?? -1)"

#: What the page says about itself when a move did not show: the version drawn, the live line,
#: the page's and the board's status lines (for a failing wait's message, read in CI's output).
PAGE_STATE = (
    "[" + TABLE_VERSION + ", document.getElementById('tavern-live')?.textContent,"
    " document.getElementById('tavern-status')?.textContent,"
    " Array.from(document.querySelectorAll('#tavern-board [role=status]'),"
    " (n) => n.textContent).filter(Boolean).join(' | ')]"
)


def wait_for_move(page, table: TavernTable, label: str, seconds: int) -> None:
    """Wait until ``page`` draws a version after ``table``'s (the move ``label`` was sent).

    If it does not within ``seconds``, fail with what the page says and where the table is: the
    message, not Playwright's stack (``from None``), is what CI's output shows first."""
    try:
        page.wait_for_function(f"{TABLE_VERSION} > {table.version}", timeout=seconds * 1000)
    except PlaywrightTimeout:
        shown, live, status, board = page.evaluate(PAGE_STATE)
        now = TavernTable.objects.get(pk=table.pk).version
        raise AssertionError(
            f"{label!r} at v{table.version} did not show within {seconds} s: the page shows "
            f"v{shown}, live {live!r}, status {status!r}, board {board!r}; the table is at v{now}"
        ) from None
