"""A table explains its game's terms (issue 40: "RSO's AV/IV/HV/EV, RAIGO's Raizan, Canyon,
Dong token, DBS's Level and Extra SP have a tap/hover explanation from the game's glossary"):
under the board, a tap opens each term with its meaning, in the words of the game's "How to
play" page (linked under the table's title). Nothing needs a hover."""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.minigames.conftest import one_open_seat, two_humans

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TERMS = {
    "rso": ["AV", "IV", "HV", "EV"],
    "raigo": ["Dong token", "Raizan", "The Canyon"],
    "dbs": ["Level", "Extra SP"],
    "spirit_war": ["Spirit"],
}


@pytest.mark.parametrize("game", sorted(TERMS))
def test_a_tap_explains_the_terms_on_the_table(new_page, player, game):
    table = one_open_seat(player, game)
    page = new_page(player)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/tavern/tables/{table.pk}/")
    assert not page.locator("#tavern-glossary dl").is_visible()
    page.click("#tavern-glossary summary")  # a tap, not a hover
    terms = page.locator("#tavern-glossary dt").all_text_contents()
    assert set(TERMS[game]) <= set(terms), terms
    meanings = page.locator("#tavern-glossary dd").all_text_contents()
    assert all(m.strip() for m in meanings) and len(meanings) == len(terms)
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    page.locator("#tavern-glossary").screenshot(path=str(ARTIFACTS / f"glossary-{game}-390.png"))


CONTRAST_JS = """(el) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
  const s = getComputedStyle(el);
  const [a, b] = [lum(rgb(s.color)), lum(rgb(s.backgroundColor))].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


@pytest.mark.parametrize("game", ["rso", "dbs"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_hovered_or_selected_card_keeps_its_text_readable(
    new_page, player, other_player, game, scheme
):
    """WCAG 1.4.3: text at least 4.5:1 against its background; a hovered card in the hand was
    dark text on the site's crimson button hover (about 1.7:1 in light mode)."""
    table = two_humans(game, player, other_player)
    page = new_page(player)
    page.emulate_media(color_scheme=scheme)
    page.goto(f"/tavern/tables/{table.pk}/")
    card = page.locator(f".{game}-card").first
    card.wait_for()
    card.hover()
    hovered = card.evaluate(CONTRAST_JS)
    assert hovered >= 4.5, hovered
    card.click()  # selected, and still under the pointer
    page.wait_for_selector(f".{game}-card--selected")
    selected = page.locator(f".{game}-card--selected").first.evaluate(CONTRAST_JS)
    assert selected >= 4.5, selected
