"""The version a tavern table page has drawn, as a JavaScript expression for Playwright waits.

Why null-safe: the page reloads itself when the table's status changes (the game starts, or the
last move ends it: static/js/tavern/table.js). A wait that is polling at that moment runs in the
half-loaded new document, where ``#tavern-table`` does not exist yet; an expression that reads
``.dataset`` of null throws, and Playwright ends the wait with that error instead of polling on.
-1 reads as "nothing drawn yet", so the wait simply goes on until the new page is there.
"""

TABLE_VERSION = "Number(document.getElementById('tavern-table')?.dataset.version ?? -1)"

#: What the page says about itself when a move did not show: the version drawn, the live line,
#: the page's and the board's status lines (for a failing wait's message, read in CI's output).
PAGE_STATE = (
    "[" + TABLE_VERSION + ", document.getElementById('tavern-live')?.textContent,"
    " document.getElementById('tavern-status')?.textContent,"
    " Array.from(document.querySelectorAll('#tavern-board [role=status]'),"
    " (n) => n.textContent).filter(Boolean).join(' | ')]"
)
