"""The character wizard and sheet in headless Chromium: live derived numbers while choosing,
saving through the wizard, the sheet's numbers, and another player's view of it."""

from __future__ import annotations

import pytest

from characters.models import Character
from characters.services import character_to_draft
from tests.browser.conftest import ARTIFACTS
from tests.browser.wizard import choose
from westernroses.characters import CharacterDraft, derive_sheet, with_starting_kit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _hp(profession: str, **extra) -> int:
    """Max HP the engine derives for the wizard's oni at this point of the test."""
    draft = CharacterDraft(
        name="x",
        shot_type="fourth_strike",
        race="oni",
        profession=profession,
        element="metal",
        guardian_charge="the shrine" if profession == "guardian" else None,
        **extra,
    )
    return derive_sheet(with_starting_kit(draft)).hp.maximum.total


def _wait_text(page, selector: str, text: str) -> None:
    page.wait_for_function(
        "([sel, text]) => { const el = document.querySelector(sel); "
        "return el && el.textContent.trim() === text; }",
        arg=[selector, text],
    )


def test_player_builds_a_character_in_the_wizard_and_sees_its_sheet(
    new_page, campaign, player, other_player
):
    page = new_page(player)
    page.goto(f"/campaigns/{campaign.pk}/")
    page.click("#campaign-characters-link")
    page.click("#new-character")
    page.wait_for_selector("#step-next")

    # 1-4: shot-type, race, profession, element (one step at a time)
    assert page.is_visible("#step-shot_type") and not page.is_visible("#step-race")
    choose(page, "input[name=shot_type][value=fourth_strike]")
    page.click("#step-next")
    choose(page, "input[name=race][value=oni]")
    page.click("#step-next")
    assert page.is_disabled("input[name=profession][value=witch]")
    assert "not yet implemented" in page.text_content("#step-profession")
    choose(page, "input[name=profession][value=carefree_soul]")
    page.click("#step-next")
    choose(page, "input[name=element][value=metal]")
    carefree_hp = _hp("carefree_soul")
    _wait_text(page, "#live-hp", str(carefree_hp))

    # Back to the profession: a Guardian's extra HP shows at once, without a reload
    page.click("a[data-step=profession]")
    assert not page.is_visible("#id_guardian_charge")
    choose(page, "input[name=profession][value=guardian]")
    page.fill("#id_guardian_charge", "the shrine")
    guardian_hp = _hp("guardian")
    assert guardian_hp != carefree_hp
    _wait_text(page, "#live-hp", str(guardian_hp))
    page.click("a[data-step=bonus_points]")

    # 5: bonus points move the stat live; an overspend is flagged beside the inputs
    pwr_before = int(page.text_content("#live-stat-pwr"))
    page.fill("#id_bonus_pwr", "8")
    _wait_text(page, "#live-stat-pwr", str(pwr_before + 8))
    page.fill("#id_bonus_cha", "16")
    page.wait_for_function(
        "document.querySelector('[data-error-for=bonus_points]')?.textContent.includes('24 spent')"
    )
    page.fill("#id_bonus_cha", "6")
    page.fill("#id_bonus_int", "3")
    page.fill("#id_bonus_ins", "3")
    page.wait_for_function("!document.querySelector('[data-error-for=bonus_points] .error')")
    page.click("#step-next")

    # 6: skills
    page.fill("#id_skill_dexterity", "4")
    page.fill("#id_skill_will", "6")
    page.click("#step-next")

    # 7: abilities (Skill Focus asks which skill)
    assert not page.is_visible("#id_choice_skill_focus")
    choose(page, "input[name=abilities][value=skill_focus]")
    page.select_option("#id_choice_skill_focus", "will")
    page.click("#step-next")

    # 8: equipment and name
    page.select_option("#id_kit_guardian_1", "spear")
    page.fill("#id_name", "Suika")
    page.fill("#id_public_notes", "Gourd of endless sake.")
    page.fill("#id_private_notes", "Misses the old days.")
    page.wait_for_selector("#live-ok")
    page.click("#save-button")
    page.wait_for_selector("#sheet")
    page.wait_for_load_state("load")  # the sheet's deferred script shows the Print button

    character = Character.objects.get(name="Suika")
    assert character.owner == player and character.campaign == campaign
    sheet = derive_sheet(character_to_draft(character))
    assert page.text_content("#hp-max") == str(sheet.hp.maximum.total) == str(guardian_hp)
    for key, line in sheet.stats.items():
        assert page.text_content(f"[data-stat={key}]").strip() == str(line.total)
    assert sheet.stats["pwr"].total == pwr_before + 8
    assert "Spear" in page.text_content("section[aria-labelledby=attacks-h] table")
    assert "Misses the old days." in page.text_content("#private-notes")
    assert page.is_visible("#print-button")

    # another player sees the public sheet, never the private notes
    other = new_page(other_player)
    other.goto(f"/characters/{character.pk}/")
    assert other.text_content("#hp-max") == str(guardian_hp)
    assert "Gourd of endless sake." in other.text_content("#public-notes")
    assert other.locator("#private-notes").count() == 0
    assert "Misses the old days." not in other.content()
    assert other.locator("#edit-link").count() == 0


def test_a_refused_save_opens_the_step_with_the_error(new_page, player):
    page = new_page(player)
    page.goto("/characters/new/")
    page.wait_for_selector("#step-next")
    for _ in range(7):
        page.click("#step-next")
    page.fill("#id_name", "Nobody")
    page.click("#save-button")
    page.wait_for_selector("#save-errors")
    # the wizard's deferred script opens the step with the error and marks the links
    page.wait_for_load_state("load")
    # the first step with a problem is open, and its link is marked
    assert page.is_visible("#step-shot_type")
    assert "Choose a shot-type." in page.text_content("[data-error-for=shot_type]")
    assert "has-error" in page.get_attribute("a[data-step=race]", "class")
    assert not Character.objects.exists()


def test_the_gm_raises_a_level_and_the_deck_limit_follows(new_page, campaign, gm, player):
    from tests.factories import CharacterFactory, legal_draft

    character = CharacterFactory(owner=player, campaign=campaign, draft=legal_draft())
    page = new_page(gm)
    page.goto(f"/characters/{character.pk}/")
    assert page.text_content("#deck-max-cards") == "20"
    # the button posts a form: wait for the new sheet, not on the old one while it unloads
    with page.expect_navigation():
        page.click("#level-up-button")
    assert page.text_content("#sheet-level") == "2"
    assert page.text_content("#deck-max-cards") == "25"
    assert with_starting_kit  # (imported for _hp)


def _red(page, selector: str) -> list[str]:
    """The texts under ``selector`` drawn in the site's "bad" colour (red)."""
    return page.evaluate(
        """(sel) => { const bad = getComputedStyle(document.body).getPropertyValue("--bad");
            const probe = document.createElement("span"); probe.style.color = bad;
            document.body.append(probe); const red = getComputedStyle(probe).color; probe.remove();
            return [...document.querySelectorAll(sel)].filter((n) => n.offsetParent !== null
              && getComputedStyle(n).color === red).map((n) => n.textContent.trim()); }""",
        selector,
    )


def test_a_fresh_wizard_shows_nothing_red_until_she_acts(new_page, player):
    """Issue 40: "Still to fix" was a red list of mistakes before the player had chosen
    anything; a fresh wizard lists what is still to choose in the ink colour, and the panel
    explains why one die beats 12 half the time (RULINGS, criticals: the top three totals of
    one die, 4 to 6, are critical successes, and 12 is less than 10 above them)."""
    page = new_page(player)
    page.goto("/characters/new/")
    page.wait_for_selector("#step-next")
    page.wait_for_load_state("load")
    assert page.locator("#live-problems li").count() > 0
    assert "Still to choose" in page.inner_text("#live-panel")
    assert _red(page, "#live-panel li, #live-panel h3, .error") == []
    page.screenshot(path=str(ARTIFACTS / "wizard-fresh-1280.png"))
    # her first choice makes the panel a checker: what is missing now reads as a problem
    choose(page, "input[name=shot_type][value=fourth_strike]")
    page.wait_for_selector("#live-panel h3:has-text('Still to fix')")
    assert _red(page, "#live-problems li")
    # the derived numbers say why a single die beats 12 half the time
    page.click("#step-next")
    choose(page, "input[name=race][value=oni]")
    page.click("#step-next")
    choose(page, "input[name=profession][value=carefree_soul]")
    page.click("#step-next")
    choose(page, "input[name=element][value=metal]")
    page.wait_for_selector("#criticals-note")
    page.click("#criticals-note summary")
    note = page.inner_text("#criticals-note")
    assert "4, 5 or 6: half the time" in note
    assert page.get_attribute(".live-stats th a", "href") == "#criticals-note"
