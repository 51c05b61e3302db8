"""Destructive buttons ask first, in place (static/css/ask-first.css, site.js): removing a member,
leaving a campaign and deleting a spellcard took one click and could not be taken back (a walk
through the app found them beside the battle's "End the battle"). The button opens the question;
"Keep" and Escape close it and change nothing; "Yes" does it."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaign.models import Membership
from spellcards.models import Spellcard
from tests.factories import CharacterFactory, SpellcardFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def test_removing_a_member_asks_first_and_keep_changes_nothing(new_page, campaign, gm, player):
    page = new_page(gm)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/campaigns/{campaign.pk}/members/")
    box = page.locator(f"#remove-{player.pk}")
    question = box.locator(".ask-first__question")
    # every member's buttons are in sight on a phone: the table fits, nothing to scroll to
    buttons = page.locator("#member-table .row-actions :is(form.inline button, summary)")
    assert buttons.count() >= 3  # the GM's "Make player"; a player's "Make GM" and "Remove"
    for found in (buttons.nth(i).bounding_box() for i in range(buttons.count())):
        assert found is not None and found["x"] >= 0 and found["x"] + found["width"] <= 390, found
    assert not question.is_visible()
    box.locator("summary").click()
    assert question.is_visible()
    assert "Remove player-one from the campaign?" in question.inner_text()
    # on a phone the question and its buttons are in sight, not in a column scrolled away
    for part in (
        question,
        box.locator("[data-action=remove-yes]"),
        box.locator(".ask-first__keep"),
    ):
        found = part.bounding_box()
        assert found is not None and found["x"] >= 0 and found["x"] + found["width"] <= 390, found
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "ask-first-member-390.png"))
    box.locator(".ask-first__keep").click()
    assert not question.is_visible()
    box.locator("summary").click()
    page.keyboard.press("Escape")
    assert not question.is_visible()
    assert Membership.objects.filter(campaign=campaign, user=player).exists()
    box.locator("summary").click()
    box.locator("[data-action=remove-yes]").click()
    page.wait_for_load_state("networkidle")
    assert not Membership.objects.filter(campaign=campaign, user=player).exists()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_leaving_a_campaign_and_deleting_a_card_ask_first(new_page, campaign, player):
    reimu = CharacterFactory(owner=player, campaign=campaign, name="Reimu")
    page = new_page(player)
    page.goto(f"/campaigns/{campaign.pk}/members/")
    page.click("#leave-button")
    assert page.locator("#leave-question").is_visible()
    page.click("#leave-keep")
    assert not page.locator("#leave-question").is_visible()
    assert Membership.objects.filter(campaign=campaign, user=player).exists()
    card = SpellcardFactory(character=reimu)
    page.goto(f"/spellcards/{card.pk}/edit/")
    page.click("#delete-card")
    assert page.locator("#delete-card-question").is_visible()
    page.keyboard.press("Escape")
    assert not page.locator("#delete-card-question").is_visible()
    assert Spellcard.objects.filter(pk=card.pk).exists()
    page.click("#delete-card")
    page.click("#delete-card-yes")
    page.wait_for_load_state("networkidle")
    assert not Spellcard.objects.filter(pk=card.pk).exists()
