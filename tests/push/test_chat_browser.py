"""Two browsers at one tavern table, on a real ASGI server with sockets on (issue 39, "Chat at
every table"): a line one player sends shows on the other's page without a reload, through
the table's socket (the chat panel reads its lines on the socket's note and does not poll while
the socket is open), and her reaction reaches the first page the same way."""

from __future__ import annotations

from typing import Any

import pytest

from tests.minigames.conftest import two_humans
from tests.push.test_browser import _signed_in, web  # noqa: F401 - the module's ASGI server

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("celery-worker"),
]


def test_a_chat_line_reaches_the_other_page_by_the_tables_socket(
    web,  # noqa: F811 - the fixture imported above
    browser: Any,
    player: Any,
    other_player: Any,
) -> None:
    table = two_humans("spirit_war", player, other_player)
    url = f"http://127.0.0.1:{web}/tavern/tables/{table.pk}/"
    contexts = [_signed_in(browser, user, web) for user in (player, other_player)]
    errors: list[str] = []
    chat_reads: list[str] = []
    try:
        pages = []
        for context in contexts:
            page = context.new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(url)
            pages.append(page)
        host, guest = pages
        guest.on("request", lambda r: chat_reads.append(r.url) if "/chat/" in r.url else None)
        for page in pages:  # both sockets open: the presence line names both players
            page.wait_for_function(
                "(n) => document.getElementById('tavern-presence').textContent.includes(n)",
                arg=str(other_player if page is host else player),
                timeout=15_000,
            )
        # the panel's one catch-up read after its socket opened is answered (it may start after
        # the presence line shows); after it, the panel only listens
        guest.locator("[data-table-chat][data-listening='socket']").wait_for(
            state="attached", timeout=15_000
        )
        idle = len(chat_reads)
        guest.wait_for_timeout(4000)  # three poll periods: the panel listens, it does not poll
        assert len(chat_reads) == idle, chat_reads[idle:]

        host.get_by_label("Message").fill("<b>Good luck</b>, Marisa!")
        host.get_by_role("button", name="Send").click()
        line = guest.locator("#table-chat-lines li", has_text="Good luck")
        line.wait_for(timeout=15_000)
        assert line.locator(".table-chat__said").inner_text() == "<b>Good luck</b>, Marisa!"
        assert guest.locator("#table-chat-lines b").count() == 0  # text, never markup
        assert guest.locator("#table-chat-lines").get_attribute("aria-live") == "polite"

        line.locator("summary").click()
        line.get_by_role("button", name="well played").click()
        host.locator("#table-chat-lines [aria-pressed='false']", has_text="👏 1").wait_for(
            timeout=15_000
        )
        assert not [e for e in errors if "favicon" not in e], errors
    finally:
        for context in contexts:
            context.close()
