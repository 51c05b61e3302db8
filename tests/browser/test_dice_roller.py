"""The dice roller in headless Chromium: live exact odds, rolling, and the campaign roll log."""

from __future__ import annotations

from fractions import Fraction

import pytest

from campaign.models import Roll
from tests.browser.conftest import ARTIFACTS
from tests.factories import CharacterFactory
from westernroses.probability import check_odds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_odds_update_as_you_type_and_match_the_engine(new_page):
    page = new_page()
    page.goto("/dice/")
    page.fill("#id_notation", "4d")
    page.fill("#id_target", "25")
    page.wait_for_selector("#p-success")
    # Basic rolls: 4d cannot beat 25 except by a critical (22-24 within 10 of 25): 22+ on 4d.
    odds = check_odds(4, 0, 25)
    exact = page.get_attribute("#p-success", "data-exact")
    assert Fraction(exact) == odds.any_success == Fraction(15, 1296)
    page.fill("#id_notation", "4d+4")
    page.wait_for_function("document.querySelector('#odds-panel h2')?.textContent.includes('4d+4')")
    assert (
        Fraction(page.get_attribute("#p-success", "data-exact")) == check_odds(4, 4, 25).any_success
    )
    # the chart has one bar per total: 4d+4 runs 8..28
    assert page.get_attribute(".odds-chart svg", "data-bars") == "21"


def test_bad_notation_shows_an_error_with_its_position(new_page):
    page = new_page()
    page.goto("/dice/?notation=4d%2Bq&target=12")
    error = page.locator(".field.has-error .error").first.text_content()
    assert "position" in error.lower() or "at " in error.lower()


def test_roll_in_a_campaign_shows_each_die_and_reaches_the_members_log(
    new_page, campaign, player, other_player
):
    page = new_page(player)
    page.goto(f"/campaigns/{campaign.pk}/dice/")
    page.fill("#id_notation", "4d+2")
    page.fill("#id_target", "12")
    page.fill("#id_label", "Climb the wall")
    page.click("#roll-button")
    page.wait_for_selector("#roll-result")
    roll = Roll.objects.get(campaign=campaign, label="Climb the wall")
    dice_shown = [int(t) for t in page.locator("#roll-result .die").all_text_contents()]
    assert dice_shown == roll.dice and len(dice_shown) == 4
    assert int(page.text_content("#roll-total")) == sum(roll.dice) + 2 == roll.total
    # another member sees it in the campaign's roll log
    other = new_page(other_player)
    other.goto(f"/campaigns/{campaign.pk}/")
    row = other.locator(f"tr[data-roll='{roll.pk}']")
    assert "Climb the wall" in row.text_content()
    assert str(roll.total) in row.text_content()


def test_a_roll_lands_on_its_result_on_a_phone(new_page, campaign, player):
    """Issue 40: "the result appears where the user is looking (no reload to the top on a
    phone)": after the roll the page opens at its result, which is on the screen."""
    page = new_page(player)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/campaigns/{campaign.pk}/dice/")
    page.fill("#id_notation", "3d")
    page.click("#roll-button")
    page.wait_for_selector("#roll-result")
    assert page.evaluate("location.hash") == "#roll-result"
    box = page.locator("#roll-result h2").bounding_box()
    assert box is not None and 0 <= box["y"] < 844
    assert page.evaluate("window.scrollY") > 0  # it lies below the form: the page moved to it
    page.screenshot(path=str(ARTIFACTS / "dice-result-390.png"))


def test_a_typo_highlights_the_field_it_names_as_you_type(new_page):
    """The live odds' error names the field and the field is highlighted (it said "Fix the
    highlighted field" with nothing highlighted until the form was sent)."""
    page = new_page()
    page.goto("/dice/")
    page.fill("#id_notation", "4d+q")
    page.wait_for_selector("#odds-errors")
    assert "Notation:" in page.inner_text("#odds-errors")
    field = page.locator(".field:has(#id_notation)")
    assert "has-error" in field.get_attribute("class")
    assert page.get_attribute("#id_notation", "aria-invalid") == "true"
    assert "has-error" not in page.locator(".field:has(#id_target)").get_attribute("class")
    page.fill("#id_notation", "4d+2")
    page.wait_for_selector("#odds-panel")
    assert "has-error" not in field.get_attribute("class")


def test_a_mental_check_says_it_is_secret_before_it_is_rolled(new_page, campaign, player):
    """House rule "Mental rolls are secret" (on by default; ruleset, Skills: "Mental rolls are
    made by the DM"): picking Intuition tells the player, before she rolls, that only the GM
    will see the result; a stat check says nothing."""
    hero = CharacterFactory(owner=player, campaign=campaign, name="Cirno")
    page = new_page(player)
    page.goto(f"/campaigns/{campaign.pk}/dice/")
    assert page.locator("#mental-note").is_hidden()
    page.select_option("#id_check", f"{hero.pk}:skill:intuition")
    assert page.inner_text("#mental-note") == (
        "Intuition is a mental roll: only the GM sees the result "
        "(house rule “Mental rolls are secret”)."
    )
    page.select_option("#id_check", f"{hero.pk}:stat:pwr")
    assert page.locator("#mental-note").is_hidden()
