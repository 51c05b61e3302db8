"""The version a tavern table page has drawn, as a JavaScript expression for Playwright waits.

Why null-safe: the page reloads itself when the table's status changes (the game starts, or the
last move ends it: static/js/tavern/table.js). A wait that is polling at that moment runs in the
half-loaded new document, where ``#tavern-table`` does not exist yet; an expression that reads
``.dataset`` of null throws, and Playwright ends the wait with that error instead of polling on.
-1 reads as "nothing drawn yet", so the wait simply goes on until the new page is there.
"""

TABLE_VERSION = "Number(document.getElementById('tavern-table')?.dataset.version ?? -1)"
