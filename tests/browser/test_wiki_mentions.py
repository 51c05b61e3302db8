"""The wiki's mentions as you type (issue 43): after "@[[" the GM is offered what she may name,
one click completes the mention, and the saved entry links to it; a player's preview never
offers a secret entry."""

from __future__ import annotations

import pytest

from tests.browser.conftest import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_mention_is_offered_as_you_type_and_saved_as_a_link(new_page, campaign, gm, player):
    from campaign.permissions import access_for
    from wiki import services

    access = access_for(gm, campaign)
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
    wait_until(page, lambda: offered.count() == 2, "two names offered")
    page.click("text=Scarlet Devil Mansion (Place)")
    assert page.input_value("#id_body") == "By the @[[Scarlet Devil Mansion]]"
    page.click("#wiki-entry-form button[type=submit]")
    page.wait_for_url("**/wiki/*/")
    href = page.get_attribute("#wiki-body a", "href")
    assert href == f"/campaigns/{campaign.pk}/wiki/{mansion.pk}/"

    reader = new_page(player)
    reader.goto(f"/api/campaigns/{campaign.pk}/wiki/mentions/?q=Scar")
    assert "Scarlet plan" not in reader.text_content("body")
    assert "Scarlet Devil Mansion" in reader.text_content("body")
