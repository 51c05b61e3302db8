"""The wiki's mentions as you type (issue 43): after "@[[" the GM is offered what she may name
(entries, characters, sessions, handouts), one click completes the mention (by id when the name
finds something else first), and the saved entry links to it; a player's preview never offers
a secret entry or a handout that is not hers."""

from __future__ import annotations

import pytest

from tests.browser.conftest import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_mention_is_offered_as_you_type_and_saved_as_a_link(new_page, campaign, gm, player):
    from django.utils import timezone

    from campaign.permissions import access_for
    from gmtools.handouts import handout_create
    from gmtools.models import GameSession
    from wiki import services

    access = access_for(gm, campaign)
    GameSession.objects.create(
        campaign=campaign, title="Scarlet night", starts_at=timezone.now(), created_by=gm
    )
    # a handout named like the entry, shown to the GM alone
    secret = handout_create(
        campaign=campaign, by=access, author=gm, title="Scarlet Devil Mansion",
        recipient_ids=[gm.pk],
    )  # fmt: skip
    mansion = services.entry_create(
        campaign_id=campaign.pk, by=access, author=gm, title="Scarlet Devil Mansion",
        kind="place", visibility="all",
    )  # fmt: skip
    services.entry_create(
        campaign_id=campaign.pk, by=access, author=gm, title="Scarlet plan", kind="lore"
    )
    page = new_page(gm)
    page.goto(f"/campaigns/{campaign.pk}/wiki/new/")
    page.fill("#id_title", "Misty Lake")
    page.select_option("#id_kind", "place")
    page.click("#id_body")
    page.keyboard.type("By the @[[Scar")
    offered = page.locator(".wiki-mentions button")
    wait_until(page, lambda: offered.count() == 4, "four names offered")
    page.click("text=Scarlet Devil Mansion (Place)")
    assert page.input_value("#id_body") == "By the @[[Scarlet Devil Mansion]]"
    page.keyboard.type(" and @[[Scarlet D")
    wait_until(page, lambda: offered.count() == 2, "the entry and the handout offered")
    page.click("text=Scarlet Devil Mansion (Handout)")
    assert page.input_value("#id_body").endswith(f" and @[[handout:{secret.pk}]]")
    page.click("#wiki-entry-form button[type=submit]")
    page.wait_for_url("**/wiki/*/")
    hrefs = [a.get_attribute("href") for a in page.locator("#wiki-body a").all()]
    assert hrefs == [
        f"/campaigns/{campaign.pk}/wiki/{mansion.pk}/",
        f"/campaigns/{campaign.pk}/handouts/{secret.pk}/",
    ]

    reader = new_page(player)
    reader.goto(f"/api/campaigns/{campaign.pk}/wiki/mentions/?q=Scar")
    offered_to_her = reader.text_content("body")
    assert "Scarlet plan" not in offered_to_her and "Handout" not in offered_to_her
    assert "Scarlet Devil Mansion" in offered_to_her and "Scarlet night" in offered_to_her
