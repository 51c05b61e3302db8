"""How long a browser test waits for a page to follow a change by itself (a poll).

The pages poll every 1.5 s (``static/js/site.js``, the battle and table pages), so on an idle
machine a change shows within 2 s; how long a poll takes is measured in ``make bench``, not
here, since a wall-clock bound in a test is a timing. A test waits up to 10 s before calling
the page broken, so a loaded machine (CI runs three workers on two cores) fails no page that
works: there, a wait of 3 s for the notifications list once ran out.
"""

#: Milliseconds a test waits for a live update before it fails.
LIVE_MS = 10_000
