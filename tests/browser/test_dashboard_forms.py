"""The GM dashboard's quick actions on a phone-sized screen (issue 10): the award form ticks
characters (no Ctrl-click multi-select), a form clears after it succeeds, and a double click
applies once."""

from __future__ import annotations

import pytest

from characters.models import Character
from gmtools.models import Award
from tests.factories import CharacterFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_award_ticks_clears_after_success_and_a_double_click_applies_once(
    new_page, campaign, gm, player, other_player
):
    reimu = CharacterFactory(owner=player, campaign=campaign, name="Reimu")
    marisa = CharacterFactory(owner=other_player, campaign=campaign, name="Marisa")
    page = new_page(gm)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/campaigns/{campaign.pk}/dashboard/")
    assert page.locator("#award-form select[multiple]").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.check(f"#award-character-{reimu.pk}")
    page.check(f"#award-character-{marisa.pk}")
    page.fill("#award-yen", "40")
    page.fill("#award-reason", "The rabbits' treasure")
    page.dblclick("#award-submit")
    page.wait_for_function(
        "document.getElementById('quick-result').textContent.includes('Awarded 40 yen')"
    )
    page.wait_for_timeout(500)  # a second request, if one went out, has landed by now
    assert Award.objects.count() == 1
    assert Character.objects.get(pk=reimu.pk).yen == reimu.yen + 40
    # the form is ready for the next award
    assert page.input_value("#award-yen") == "0"
    assert page.input_value("#award-reason") == ""
    assert not page.is_checked(f"#award-character-{reimu.pk}")
    assert not page.is_checked(f"#award-character-{marisa.pk}")
    # the same form again, new values: a new award (its token was renewed)
    page.check(f"#award-character-{reimu.pk}")
    page.fill("#award-yen", "5")
    page.click("#award-submit")
    page.wait_for_function(
        "document.getElementById('quick-result').textContent.includes('Awarded 5 yen')"
    )
    assert Award.objects.count() == 2
    # a table on a phone scrolls in its own box, with a visible cue, not the page
    page.wait_for_selector(".table-scroll.is-scrollable:has(#party)")
    assert page.is_visible(".table-scroll:has(#party) + .scroll-cue")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
