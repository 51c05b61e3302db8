"""The spellcard builder in headless Chromium: build a card, watch the cost change live, see
an error appear beside the field that causes it, save it to the deck and find it there."""

from __future__ import annotations

from fractions import Fraction

import pytest

from characters.models import Character
from spellcards.models import DeckEntry, Spellcard
from westernroses.probability import check_odds

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def reimu(campaign, player):
    """A Shrine Maiden (spirit, goddess of light): INT 9, PWR 5, so dodge difficulty 9."""
    return Character.objects.create(
        owner=player,
        campaign=campaign,
        name="Reimu",
        shot_type="homing_amulets",
        race="pony",
        profession="shrine_maiden",
        element="spirit",
        draft={"goddess_element": "light"},
    )


def total(page) -> int:
    return int(page.get_attribute("#cost-total", "data-total"))


def wait_total(page, value: int) -> None:
    page.wait_for_function(f"document.querySelector('#cost-total')?.dataset.total === '{value}'")


def test_build_watch_cost_see_error_save_and_find_in_deck(new_page, reimu, player):
    page = new_page(player)
    page.goto(f"/characters/{reimu.pk}/spellcards/new/")
    # Default: Single 10 + 2d 10 = 20.
    assert total(page) == 20
    page.fill("#id_name", "Fantasy Seal")
    # Attack power 5d: Single 10 + 5d 40 = 50.
    page.select_option("#id_attack_dice", "5")
    wait_total(page, 50)
    # AOE 2: AOE 2 60 (includes the single target) + 5d 40 = 100.
    page.select_option("#id_aoe", "2")
    wait_total(page, 100)
    assert (
        page.locator("#cost-panel tr[data-code='aoe']").text_content().strip().startswith("AOE 2")
    )
    # The damage chart is the exact 5d distribution, with the chance to hit a typical target.
    assert page.get_attribute("#damage-chart svg", "data-bars") == "26"
    p_hit = Fraction(page.get_attribute("#p-hit", "data-exact"))
    assert p_hit == 1 - check_odds(4, 0, 9).any_success

    # An illegal combination: a Self attack card. The error appears beside Targets.
    page.select_option("#id_targets", "self")
    error = page.locator(".field[data-field='targets'] .error")
    error.wait_for()
    assert "cannot target only its caster" in error.text_content()
    assert page.locator(".field[data-field='aoe'] .error").count() == 1  # Self + AOE too
    # Fix it: the errors go away.
    page.select_option("#id_targets", "single")
    page.wait_for_selector("#card-legal")
    assert page.locator(".field .error").count() == 0
    assert total(page) == 100

    # Save to deck in one click, and see the card in the deck.
    page.click("#save-button")
    page.wait_for_url(f"**/characters/{reimu.pk}/deck/")
    card = Spellcard.objects.get(character=reimu)
    assert (card.name, card.cost) == ("Fantasy Seal", 100)
    assert DeckEntry.objects.get(spellcard=card).copies == 1
    row = page.locator(f"#deck tr[data-spellcard='{card.pk}']")
    assert "Fantasy Seal" in row.text_content()
    assert row.locator(".card-cost").text_content().strip() == "100"
    assert page.text_content("#deck-cards") == "1"


def test_builder_works_without_javascript(browser, live_server, reimu, player):
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto("/accounts/login/")
        page.fill("#id_username", player.username)
        page.fill("#id_password", "correct-horse-battery-staple")
        page.click("form button[type=submit]")
        page.goto(f"/characters/{reimu.pk}/spellcards/new/")
        page.select_option("#id_type", "defensive")
        page.click("#save-button")  # no name, and a defensive card with attack power
        assert "Defensive-type cards cannot have attack power." in page.text_content(
            ".field[data-field='attack_dice']"
        )
        assert "Give the spellcard a name." in page.text_content(".field[data-field='name']")
        page.fill("#id_name", "Barrier")
        page.select_option("#id_attack_dice", "")
        page.click("#show-cost")
        assert page.get_attribute("#cost-total", "data-total") == "20"
        page.click("#save-button")
        page.wait_for_url(f"**/characters/{reimu.pk}/deck/")
        assert "Barrier" in page.text_content("#deck")
    finally:
        context.close()


def test_on_a_phone_the_live_total_stays_on_screen(new_page, reimu, player):
    """At 390 px the cost panel is under the whole form: a bar at the bottom of the screen
    keeps the total and the problems in sight while she scrolls, and links to the breakdown.
    At 1280 px the panel sits beside the form and the bar is not shown."""
    page = new_page(player)
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(f"/characters/{reimu.pk}/spellcards/new/")
    bar = page.locator("#cost-bar")
    page.locator("#id_attack_modifier").scroll_into_view_if_needed()
    box = bar.bounding_box()
    assert box and box["y"] + box["height"] <= 800 + 0.5 and box["y"] >= 800 - 120
    page.fill("#id_attack_modifier", "3")
    page.wait_for_function(
        "document.querySelector('#cost-bar [data-total]')?.dataset.total === '50'"
    )
    assert bar.bounding_box()["y"] >= 800 - 120  # still on screen after the refresh
    page.fill("#id_attack_modifier", "-99999")
    page.wait_for_function("document.querySelector('#cost-bar')?.innerText.includes('to fix')")
    assert "Cost: not yet known" in bar.inner_text()
    assert page.locator("#cost-unknown").count() == 1
    page.locator("#cost-bar a").first.click()
    page.wait_for_function("location.hash === '#cost-panel'")
    page.set_viewport_size({"width": 1280, "height": 900})
    assert not bar.is_visible()
    assert page.locator("#cost-panel").is_visible()


def test_the_menus_read_as_sentences_and_name_no_internal_reference(new_page, reimu, player):
    """Issue 40: no "RULINGS 5" in what a player reads, and each menu line says what it costs
    in words ("Two Targets: +20 spell power, or +40 with an AOE"; ruleset, Spellcards: Targets
    20, with an AOE twice that by the ruling on an AOE with targets)."""
    page = new_page(player)
    page.goto(f"/characters/{reimu.pk}/spellcards/new/")
    page.select_option("#id_aoe", "2")
    page.select_option("#id_targets", "two")
    page.wait_for_selector("#spellcard-preview tr[data-code='targets']")
    text = page.inner_text("main")
    assert "RULINGS" not in text and "—" not in text, text
    lines = page.eval_on_selector_all(
        "#spellcard-form select option", "os => os.map((o) => o.textContent)"
    )
    assert "Two Targets: +20 spell power, or +40 with an AOE" in lines
    assert "No to-hit skill: free" in lines
    assert "No element: non-elemental, free" in lines
    skills = page.locator(
        "#spellcard-form input[name=skills] + label, label:has(input[name=skills])"
    )
    assert all("—" not in s for s in skills.all_text_contents())
    assert "(Divine Skills, Healing spellcards): costs " in page.inner_text("#spellcard-form")
    help_text = page.inner_text(".field:has(#id_attack_modifier) .help")
    assert help_text.startswith("Each point costs spell power: +1 to +5, 10 each;")
