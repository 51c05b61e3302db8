"""The deck builder in headless Chromium, at a phone's 390x844 and at 1280 wide: start an
empty deck, pick cards with the filters and the +/− buttons (saved without a reload by
static/js/deck_builder.js), watch every broken rule go away, and end with a legal deck the
tavern offers at a table. Screenshots go to test-artifacts/."""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from decks import selectors
from decks.games import DBS, RSO
from decks.models import Deck
from tests.browser.conftest import ARTIFACTS, no_horizontal_overflow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: What the builder shows when a save did not: its address, the total, whether a save is still
#: out, the row's count and any message (a failing wait's words, read in CI's output).
SHOWN = (
    "({url: location.href, total: document.getElementById('deck-total')?.dataset.total,"
    " busy: document.getElementById('deck-builder')?.classList.contains('deckb-busy'),"
    " alerts: Array.from(document.querySelectorAll('[role=alert], .errors'),"
    " (n) => n.textContent.trim()).filter(Boolean)})"
)


def new_deck(page, game: str, name: str) -> Deck:
    page.goto(f"/decks/?game={game}#new-deck")
    page.fill("#id_name", name)
    page.select_option("#id_game", game)
    page.click("#new-deck-form button[type=submit]")
    page.wait_for_selector("#deck-builder")
    # The builder's script is deferred: it may not have run when #deck-builder is parsed, and a
    # filter changed before it runs submits nothing (CI's loaded machine lost such a change).
    page.wait_for_load_state("load")
    return Deck.objects.get(name=name)


def add(page, number: str, times: int) -> None:
    """Press + on a card's row ``times`` times, each time waiting for the saved total."""
    for _ in range(times):
        total = int(page.get_attribute("#deck-total", "data-total"))
        page.click(f"#card-list li[data-number='{number}'] .deckb-count__plus")
        try:
            page.wait_for_selector(f"#deck-total[data-total='{total + 1}']")
        except PlaywrightTimeout:
            # from None: the message, not Playwright's stack, is what CI's output shows first
            shown = page.evaluate(SHOWN)
            raise AssertionError(f"+ on {number} at {total} cards did not save: {shown}") from None


def shoot(page, name: str, *, top: bool = True) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    if top and page.locator("#deck-panel").count():
        page.evaluate("window.scrollTo(0, document.getElementById('deck-panel').offsetTop - 8)")
    page.screenshot(path=str(ARTIFACTS / name), full_page=False)


def test_build_a_legal_dbs_deck_on_a_phone(new_page, player):
    """DBS deck rules (dream-battle-of-spellcard-rules.en.md lines 19-20): 40 to 50 cards, at
    most 3 of one number, at least one character."""
    page = new_page(player)
    page.set_viewport_size({"width": 390, "height": 844})
    deck = new_deck(page, "dbs", "Phone deck")
    assert no_horizontal_overflow(page)
    errors = page.locator("#deck-errors li").all_text_contents()
    assert errors == [
        "A deck needs at least 40 cards; this one has 0.",
        "A deck needs at least one character card.",
    ]
    # The Type filter applies as soon as it changes (the script submits the filter form).
    page.select_option(".deckb-filters select[name=type]", "character")
    page.wait_for_url("**type=character**")
    assert page.locator("#card-list li.deckb-row").count() == 6
    add(page, "DBS-001", 1)
    assert "at least one character" not in page.inner_text("#deck-panel")
    page.select_option(".deckb-filters select[name=type]", "battle")
    page.wait_for_url("**type=battle**")
    page.evaluate("window.scrollTo(0, document.getElementById('pick').offsetTop - 8)")
    shoot(page, "deck-builder-390-filtered.png", top=False)
    starter = DBS.engine.starter_card_set()
    battles = sorted(n for n, c in starter.items() if c["kind"] == "battle")[:13]
    for number in battles:
        add(page, number, 3)
    page.wait_for_selector("#deck-legal")
    assert page.inner_text("#deck-legal").startswith("Legal")
    assert page.locator("#deck-errors").count() == 0
    assert no_horizontal_overflow(page)
    shoot(page, "deck-builder-390-legal.png")
    deck.refresh_from_db()
    assert len(deck.cards) == 40
    assert (f"deck:{deck.pk}", "Phone deck") in selectors.seat_decks(player, "dbs")
    # A reload shows the same deck: the counts were saved, not just drawn.
    page.reload()
    assert page.get_attribute("#deck-total", "data-total") == "40"
    # The card list and a card page fit the phone too.
    page.goto("/cards/dbs/?type=character")
    assert page.locator("#card-list > li").count() == 6
    assert no_horizontal_overflow(page)
    shoot(page, "card-list-390.png", top=False)
    page.click("#card-list a >> nth=0")
    page.wait_for_selector("#card-words")
    assert no_horizontal_overflow(page)
    shoot(page, "card-page-390.png", top=False)


def test_build_a_legal_rso_deck_at_desktop_width(new_page, player):
    """RSO deck rules (rumbling-spell-orchestra-gameplay.txt lines 11 and 15): four character
    cards, exactly 40 others, at most 3 by name, levels met. Four Reimu give Reimu level 4."""
    page = new_page(player)
    page.set_viewport_size({"width": 1280, "height": 900})
    deck = new_deck(page, "rso", "Four Reimu")
    page.select_option(".deckb-filters select[name=character]", "Reimu")
    page.wait_for_url("**character=Reimu**")
    add(page, "RSO-001", 4)
    starter = RSO.engine.starter_card_set()
    usable = sorted(
        n
        for n, c in starter.items()
        if c["kind"] != "character" and set(c.get("requires") or {}) <= {"Reimu"}
    )
    # General cards have no character: clear the filter to see them all.
    page.click(".deckb-filters__clear")
    page.wait_for_url(f"**/decks/{deck.pk}/")
    for number in usable[:13]:
        add(page, number, 3)
    errors = page.locator("#deck-errors li").all_text_contents()
    assert errors == ["A deck holds exactly 40 Spell, Support and Event cards; this one has 39."]
    # One too many of a name is named too, with the count still short: both at once.
    add(page, usable[13], 1)
    page.wait_for_selector("#deck-legal")
    shoot(page, "deck-builder-1280-legal.png")
    page.click(f"#deck-cards tr[data-number='{usable[0]}'] .deckb-count__plus")
    page.wait_for_selector("#deck-errors")
    assert page.locator("#deck-errors li").all_text_contents() == [
        "A deck holds exactly 40 Spell, Support and Event cards; this one has 41.",
        f"At most 3 copies of a card by name: {starter[usable[0]]['name']} appears 4 times.",
    ]
    page.click(f"#deck-cards tr[data-number='{usable[0]}'] .deckb-count__minus")
    page.wait_for_selector("#deck-legal")
    assert no_horizontal_overflow(page)
    assert f"deck:{deck.pk}" in dict(selectors.seat_decks(player, "rso"))
    numbers, extra = selectors.deck_cards(player, "rso", f"deck:{deck.pk}")
    assert len(numbers) == 44 and extra == []
    # The exported text reads back as the same deck.
    text = page.input_value("#deck-text")
    assert text.startswith("# Four Reimu\nCharacters:\n4 Reimu Hakurei [RSO-001]\n")


def test_a_gm_card_refused_shows_each_error_beside_the_box(new_page, gm, campaign):
    page = new_page(gm)
    page.goto(f"/campaigns/{campaign.pk}/cards/")
    page.select_option("#id_game", "rso")
    page.fill(
        "#id_card",
        "number: RSO-101\nname: Moth Glow\nkind: spell\ncost: 2\nshot: laser\nav: 40\n"
        "iv: 1\nhv: 1\n",
    )
    page.click(".deckb-cardform button[type=submit]")
    page.wait_for_selector("#card-errors li")  # the refused form comes back with its errors
    errors = page.locator("#card-errors li").all_text_contents()
    assert errors[0].startswith("shot: must be one of spread, concentration, normal")
    assert "av: must be between 0 and 20" in errors
    assert any(e.startswith("number: RSO-101 is a starter card's number") for e in errors)
    box = page.locator("#id_card").bounding_box()
    listed = page.locator("#card-errors").bounding_box()
    assert listed["x"] > box["x"] + box["width"] - 1  # beside the box at 1280 wide
    shoot(page, "gm-card-errors-1280.png", top=False)


def test_name_import_and_export_are_at_the_top_and_a_refused_import_says_so_there(new_page, player):
    """Issue 40: the deck's name, import and export sit above the card picker; an import that
    cannot be read is refused at the top of the page and beside its box, and changes nothing
    (the import's rule: "A line that cannot be read stops the import")."""
    page = new_page(player)
    page.set_viewport_size({"width": 390, "height": 844})
    deck = new_deck(page, "rso", "Top deck")
    tops = {
        what: page.locator(selector).bounding_box()["y"]
        for what, selector in (
            ("name", "#id_name"),
            ("import", "#import"),
            ("export", "#export"),
            ("picker", "#pick"),
        )
    }
    assert max(tops["name"], tops["import"], tops["export"]) < tops["picker"], tops
    page.click("summary:has(#import)")
    page.fill("#id_text", "3 No Such Card Anywhere\n")
    page.click("#import-form button[type=submit]")
    page.wait_for_selector("#import-errors")
    top = page.locator("#import-errors").bounding_box()
    assert top["y"] < page.locator("#id_name").bounding_box()["y"]
    summary = page.inner_text("#import-errors")
    assert "The import changed nothing" in summary and "No Such Card Anywhere" in summary
    beside = page.locator(".field.has-error:has(#id_text) .error").all_text_contents()
    assert beside and "No Such Card Anywhere" in beside[0]
    assert page.input_value("#id_text") == "3 No Such Card Anywhere\n"
    assert Deck.objects.get(pk=deck.pk).cards == []
    shoot(page, "deck-import-refused-390.png", top=False)


def test_the_new_deck_form_offers_only_the_chosen_games_presets(new_page, player):
    page = new_page(player)
    page.goto("/decks/?game=rso#new-deck")
    page.wait_for_load_state("load")

    def offered() -> set[str]:
        return {
            v.split(":")[0]
            for v in page.eval_on_selector_all(
                "#id_start option:not([disabled])", "os => os.map((o) => o.value)"
            )
            if v
        }

    assert offered() == {"rso"}
    page.select_option("#id_game", "dbs")
    assert offered() == {"dbs"}
