"""Two players on one thread, on a real ASGI server with sockets on (issue 43, play-by-post:
"two players post in character with an inline roll and see each other's posts live"): a post
one sends shows on the other's open page without a reload, in character and with its roll, and
the answer the other way arrives the same way."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.permissions import access_for
from tests.factories import CharacterFactory
from tests.push.test_browser import _signed_in, web  # noqa: F401 - the module's ASGI server
from threads import services

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.xdist_group("celery-worker"),
]


def test_two_players_see_each_others_posts_live(
    web,  # noqa: F811 - the fixture imported above
    browser: Any,
    campaign: Any,
    gm: Any,
    player: Any,
    other_player: Any,
) -> None:
    cirno = CharacterFactory(owner=player, campaign=campaign, name="Cirno")
    CharacterFactory(owner=other_player, campaign=campaign, name="Daiyousei")
    thread = services.thread_create(
        campaign=campaign, by=access_for(gm, campaign), user=gm, title="Frozen frogs"
    )
    url = f"http://127.0.0.1:{web}/campaigns/{campaign.pk}/threads/{thread.pk}/"
    contexts = [_signed_in(browser, user, web) for user in (player, other_player)]
    errors: list[str] = []
    try:
        pages = []
        for context in contexts:
            page = context.new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(url)
            pages.append(page)
        first, second = pages
        for page in pages:  # the socket is open (its first note made the page fetch once)
            page.wait_for_function(
                "() => window.WRPush && window.WRPush.isOpen("
                f"'/ws/campaigns/{campaign.pk}/threads/{thread.pk}/')",
                timeout=15_000,
            )
        first.get_by_label("Post as").select_option(str(cirno.pk))
        first.get_by_label("Your post").fill("I freeze the frog!\n/roll 4d > 12 Ice")
        first.get_by_role("button", name="Post").click()
        seen = second.locator(".thread-post", has_text="I freeze the frog!")
        seen.wait_for(timeout=15_000)
        assert seen.locator(".thread-speaker").inner_text() == "Cirno"
        assert "Ice: 4d vs 12" in seen.locator(".thread-roll").inner_text()
        assert "66.44%" in seen.locator(".thread-roll").inner_text()

        second.get_by_label("Post as").select_option(label="Daiyousei")
        second.get_by_label("Your post").fill("Cirno, no!")
        second.get_by_role("button", name="Post").click()
        first.locator(".thread-post", has_text="Cirno, no!").wait_for(timeout=15_000)
        assert not [e for e in errors if "favicon" not in e], errors
    finally:
        for context in contexts:
            context.close()
