"""The three pages a player builds with (the character wizard, the sheet editor and the
spellcard builder) read wholly in Japanese and Chinese: every word the page shows or reads
aloud, on every step of the wizard and in every menu (not only the one the browser sweep sees
first), including the rule problems the live panel lists, the builder's cost lines and the rules a
spellcard breaks, with the rulebook sections they cite. The names people gave (the character,
the campaign) and the Latin words the glossary keeps (tests/browser/test_i18n.py's
``ALLOWED``) are the only Latin letters left."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from tests.browser.test_i18n import ALLOWED
from tests.factories import CharacterFactory, attack_draft
from tests.minigames.test_rules_pages_i18n import latin_words_kept

LANGUAGES = ["ja", "zh-hans"]
NAMES = ["Cirno", "Scarlet Mist", "player-one", "Western Roses"]
_SKIPPED = {"script", "style", "template", "textarea"}
_READ = ("title", "aria-label", "placeholder", "alt")


class _Words(HTMLParser):
    """The text a reader sees or hears on a page: text nodes (options too), the attributes
    read aloud, and the value of a button; not scripts, what people wrote in a text box, or
    anything inside ``translate="no"``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []
        self.texts: list[str] = []

    def _skipping(self) -> bool:
        return any(skip for _, skip in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        skip = tag in _SKIPPED or found.get("translate") == "no"
        if tag not in {"input", "br", "img", "meta", "link", "hr"}:
            self.stack.append((tag, skip))
        if skip or self._skipping():
            return
        self.texts += [str(found[name]) for name in _READ if found.get(name)]
        if tag == "input" and found.get("type") in ("submit", "button") and found.get("value"):
            self.texts.append(str(found["value"]))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if data.strip() and not self._skipping():
            self.texts.append(data)


def english_left(html: str, lang: str) -> set[str]:
    """The English words left in ``html``'s body (its <head> and the header's language names
    aside)."""
    body = html.split("<main", 1)[-1].split("</main>", 1)[0]
    parser = _Words()
    parser.feed("<main" + body + "</main>")
    kept = sorted([*ALLOWED, *NAMES, *latin_words_kept(lang)], key=len, reverse=True)
    found: set[str] = set()
    for raw in parser.texts:
        text = re.sub(r"https?://\S+", " ", raw)
        for phrase in kept:
            text = text.replace(phrase, " ")
        found |= set(re.findall(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]", text))
    return found


def _get(client, url: str, lang: str) -> str:
    response = client.get(url, headers={"accept-language": f"{lang},en;q=0.5"})
    assert response.status_code == 200, url
    return response.content.decode()


def _post(client, url: str, data: dict[str, object], lang: str) -> str:
    response = client.post(url, data, headers={"accept-language": f"{lang},en;q=0.5"})
    return response.content.decode()


def _draft_answer(client, url: str, character, draft: dict, lang: str, status: int) -> dict:
    """The spellcards API's JSON answer to ``draft`` for ``character``, asked in ``lang``."""
    response = client.post(
        url,
        {"character": character.pk, "draft": draft},
        content_type="application/json",
        headers={"accept-language": lang},
    )
    assert response.status_code == status, response.content
    return response.json()


@pytest.fixture
def cirno(campaign, player):
    return CharacterFactory(owner=player, campaign=campaign, name="Cirno")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_wizard_reads_in_the_language_on_every_step(player, client_for, lang):
    client = client_for(player)
    assert english_left(_get(client, "/characters/new/", lang), lang) == set()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_wizards_problems_read_in_the_language(player, client_for, lang):
    """A save refused for every kind of missing or wrong choice: the messages beside the
    steps and the live panel's list, with the rulebook's sections."""
    client = client_for(player)
    data = {
        "shot_type": "homing_amulets",
        "race": "youkai",
        "level": 3,
        "profession": "shrine_maiden",
        "element": "fire",
        "bonus_pwr": 25,
        "skill_legends": 3,
        "abilities": ["manipulation_of_fire", "manipulation_of_water", "skill_focus"],
        "qty_leather_armor": 0,
    }
    html = _post(client, "/characters/new/", data, lang)
    assert 'id="save-errors"' in html
    assert english_left(html, lang) == set()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_live_panel_reads_in_the_language(player, client_for, lang):
    client = client_for(player)
    response = client.post(
        "/characters/new/preview/",
        {"shot_type": "homing_amulets", "race": "fairy", "bonus_pwr": 3},
        headers={"accept-language": lang},
    )
    assert response.status_code == 200
    data = response.json()
    assert english_left(f"<main>{data['html']}</main>", lang) == set()
    for messages in data["errors"].values():
        assert english_left(f"<main>{' '.join(messages)}</main>", lang) == set(), messages


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_sheet_editor_reads_in_the_language(cirno, player, client_for, lang):
    client = client_for(player)
    assert english_left(_get(client, f"/characters/{cirno.pk}/edit/", lang), lang) == set()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_spellcard_builder_reads_in_the_language(cirno, player, client_for, lang):
    client = client_for(player)
    url = f"/characters/{cirno.pk}/spellcards/new/"
    assert english_left(_get(client, url, lang), lang) == set()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_builders_cost_lines_read_in_the_language(cirno, player, client_for, lang):
    client = client_for(player)
    url = f"/characters/{cirno.pk}/spellcards/new/"
    query = {
        "name": "Icicle Fall",
        "type": "attack",
        "to_hit": "roll_vs_int",
        "targets": "two",
        "aoe": 1,
        "duration": "homing_2",
        "attack_dice": 3,
        "attack_modifier": 12,
        "element": "wood",
    }
    html = _get(client, url + "?" + "&".join(f"{k}={v}" for k, v in query.items()), lang)
    assert 'id="cost-panel"' in html and 'id="card-legal"' in html
    assert english_left(html, lang) == set()


#: Cards the builder refuses to save, each breaking several rules, and the codes it must cite.
ILLEGAL_CARDS = {
    "bomb with several targets": (
        {
            "name": "",
            "type": "attack",
            "bomb": "on",
            "to_hit": "burst",
            "targets": "three",
            "aoe": 0,
            "duration": "instantaneous",
            "attack_modifier": -2,
            "element": "",
        },
        {"name_required", "bomb_single_target", "attack_power_required"},
    ),
    "defensive card with an attack": (
        {
            "name": "Frost Wall",
            "type": "defensive",
            "to_hit": "none",
            "targets": "single",
            "aoe": 0,
            "duration": "instantaneous",
            "attack_dice": 3,
            "attack_modifier": 0,
            "element": "wood",
        },
        {"attack_power_not_allowed", "element_not_allowed"},
    ),
    "attack on its own caster": (
        {
            "name": "Self Freeze",
            "type": "attack",
            "to_hit": "roll_vs_int",
            "targets": "self",
            "aoe": 1,
            "duration": "instantaneous",
            "attack_dice": 2,
            "attack_modifier": 0,
            "element": "",
        },
        {"self_to_hit", "self_aoe", "attack_targets_self"},
    ),
    "impulse skills combined": (
        {
            "name": "Ice Impulse",
            "type": "special",
            "to_hit": "none",
            "targets": "two",
            "aoe": 1,
            "duration": "instantaneous",
            "attack_modifier": 0,
            "element": "",
            "skills": ["die", "what_was_i_doing_again"],
        },
        {
            "stand_alone_combined",
            "bomb_by_default",
            "bomb_single_target",
            "aoe_not_allowed",
            "targets_not_allowed",
        },
    ),
}


@pytest.mark.parametrize("card", ILLEGAL_CARDS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refused_spellcards_broken_rules_read_in_the_language(
    cirno, player, client_for, lang, card
):
    """A save refused for breaking several rules at once: every problem beside its field and
    in the card's rules panel, with the rulebook section (a skill's from the data, a project
    ruling's) in the language, and nothing saved."""
    client = client_for(player)
    data, codes = ILLEGAL_CARDS[card]
    html = _post(client, f"/characters/{cirno.pk}/spellcards/new/", data, lang)
    assert 'id="card-rules-panel"' in html
    cited = set(re.findall(r'<li data-code="([a-z_]+)"', html))
    assert codes <= cited, cited
    assert english_left(html, lang) == set()
    assert not cirno.spellcards.exists()


@pytest.mark.parametrize("lang", ["ja", "zh-hans"])
def test_the_api_refuses_a_card_in_her_language_with_its_english_shape(
    cirno, player, client_for, lang
):
    """The spellcards API refuses a card with the keys it always had (``detail``, ``errors``,
    ``rules`` of ``code``, ``field``, ``message``, ``section``), the words in the reader's
    language; an English reader gets the engine's English as before."""
    client = client_for(player)
    draft = attack_draft(name="", bomb=True, targets="three", to_hit="burst", aoe=7)

    def refused(language: str) -> dict:
        return _draft_answer(client, "/api/spellcards/", cirno, draft, language, 400)

    english, said = refused("en"), refused(lang)
    for body in (english, said):
        assert set(body) == {"detail", "errors", "rules"}
        assert all(set(rule) == {"code", "field", "message", "section"} for rule in body["rules"])
    assert english["errors"]["targets"] == [
        "Bomb cards can only be single-target (they may have an AOE)."
    ]
    assert english["errors"]["name"] == ["Give the spellcard a name."]
    assert {
        "code": "aoe_out_of_range",
        "field": "aoe",
        "message": "AOE runs from 1 to 5 (0 for none), not 7.",
        "section": "Spellcards: Targets (AOE), as ruled for an AOE with targets",
    } in english["rules"]
    assert [r["code"] for r in said["rules"]] == [r["code"] for r in english["rules"]]
    assert set(said["errors"]) == set(english["errors"])
    texts = [said["detail"], *(m for ms in said["errors"].values() for m in ms)]
    texts += [r["message"] for r in said["rules"]] + [r["section"] for r in said["rules"]]
    aoe = next(r for r in said["rules"] if r["code"] == "aoe_out_of_range")
    assert "7" in aoe["message"] and "5" in aoe["message"], aoe
    for text in texts:
        assert english_left(f"<main>{text}</main>", lang) == set(), text
    assert not cirno.spellcards.exists()


def test_english_stays_as_it_was(cirno, player, client_for):
    """The same pages in English: the engine's words as the rulebook writes them."""
    client = client_for(player)
    wizard = _get(client, "/characters/new/", "en")
    assert "Power" in wizard and "Elemental affinity" in wizard
    builder = _get(client, f"/characters/{cirno.pk}/spellcards/new/", "en")
    assert "Single Target" in builder and "Attack-type" in builder


def _deck_breaking_its_rules(character):
    """Six copies of one card and five kinds in all: a level-1 deck holds at most 5 of a card
    and 4 kinds. The cards are named in the reader's script (names people give stay as given).
    """
    from spellcards.models import DeckEntry
    from tests.factories import SpellcardFactory

    for n in range(1, 6):
        card = SpellcardFactory(character=character, name=f"氷符{n}")
        DeckEntry.objects.create(character=character, spellcard=card, copies=6 if n == 1 else 1)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_deck_breaking_its_rules_reads_in_the_language(cirno, player, client_for, lang):
    """The deck page lists every deck rule broken, with the limits' reasons, and a refused
    change of copies says why, all in the reader's language."""
    _deck_breaking_its_rules(cirno)
    client = client_for(player)
    html = _get(client, f"/characters/{cirno.pk}/deck/", lang)
    cited = set(re.findall(r'<li data-code="([a-z_]+)"', html))
    assert {"too_many_copies", "too_many_kinds"} <= cited, cited
    assert english_left(html, lang) == set()
    card = cirno.spellcards.get(name="氷符2")
    refused = _post(
        client, f"/characters/{cirno.pk}/deck/copies/", {"spellcard": card.pk, "copies": 7}, lang
    )
    assert "氷符2" in refused
    assert english_left(refused, lang) == set()


#: A Healing card with no hit-point dice chosen: the builder cannot price it at all.
UNPRICEABLE = {
    "name": "Scarlet Mist",
    "type": "defensive",
    "to_hit": "none",
    "targets": "single",
    "aoe": 0,
    "duration": "instantaneous",
    "attack_modifier": 0,
    "element": "",
    "skills": "healing",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_card_that_cannot_be_priced_reads_in_the_language(cirno, player, client_for, lang):
    client = client_for(player)
    url = f"/characters/{cirno.pk}/spellcards/new/"
    html = _get(client, url + "?" + "&".join(f"{k}={v}" for k, v in UNPRICEABLE.items()), lang)
    assert 'class="bad"' in html
    assert english_left(html, lang) == set()


def test_deck_rules_and_pricing_refusals_stay_english_in_english(cirno, player, client_for):
    """In English the deck's broken rules, its limits and a pricing refusal read as always."""
    _deck_breaking_its_rules(cirno)
    client = client_for(player)
    deck = _get(client, f"/characters/{cirno.pk}/deck/", "en")
    assert "氷符1: 6 copies, but a deck can only contain up to 5 of the same card." in deck
    assert "5 different cards, but this deck can contain only 4 (" in deck
    url = f"/characters/{cirno.pk}/spellcards/new/"
    builder = _get(client, url + "?" + "&".join(f"{k}={v}" for k, v in UNPRICEABLE.items()), "en")
    # the page names the parameter by its label, as the card's own rules do
    assert "Healing: choose Hit-point dice from [1, 2, 4]" in builder


def test_the_price_api_says_why_a_card_cannot_be_priced_in_her_language(cirno, player, client_for):
    """The price API says why a card cannot be priced in the reader's language, and in
    English as it always has."""
    healing = {"slug": "healing", "params": {}}
    draft = attack_draft(type="defensive", attack_power=None, skills=[healing])

    def priced(language: str) -> dict:
        return _draft_answer(
            client_for(player), "/api/spellcards/price/", cirno, draft, language, 200
        )

    assert priced("en")["pricing_error"] == "Healing: choose dice from [1, 2, 4]"
    said = priced("ja")["pricing_error"]
    assert said and english_left(f"<main>{said}</main>", "ja") == set(), said
