"""The tavern games' "How to play" pages (``/tavern/rules/<slug>/``, minigames/views.py
``rules_page``): one per game, for anyone signed in, with the game's rules under its headings
and every house rule the new-table form offers, in words, with its default; and the links to
them from the tavern and from every table page."""

from __future__ import annotations

import html
import re

import pytest

from minigames.engines.registry import ENGINE_MODULES, get_engine
from tests.minigames.conftest import one_open_seat

pytestmark = pytest.mark.django_db

#: The sections each page must have (its h2 headings, in order), the house rules last.
HEADINGS = {
    "raigo": [
        "The tokens",
        "Setting up",
        "Your turn",
        "Towers",
        "Scoring a tower",
        "What each spell does",
        "Answering a spell",
        "The end of the game",
        "Who sees what",
    ],
    "spirit_war": [
        "The decks and cards",
        "Setting up",
        "Your turn",
        "A battle step by step",
        "Elements and buffs",
        "Support cards",
        "Fortunes and Disasters",
        "The end of the war",
    ],
    "rso": [
        "The cards",
        "Setting up",
        "A turn: four phases",
        "Judging a battle",
        "Basic abilities",
        "Winning",
        "Building a deck",
        "Who sees what",
    ],
    "dbs": [
        "The cards",
        "Your side of the table",
        "Setting up",
        "A turn: five phases",
        "Declaring a Battle Spellcard",
        "The defender's answer",
        "Winning",
        "Building a deck",
    ],
}


def text_of(fragment: str) -> str:
    """A piece of HTML as the words a reader sees (tags dropped, entities read, spaces joined)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def headings(page: str, level: int) -> list[str]:
    return [text_of(h) for h in re.findall(rf"<h{level}\b[^>]*>(.*?)</h{level}>", page, re.S)]


def house_rule_items(page: str) -> list[str]:
    """The words of each house rule's entry on the page, in order."""
    section = re.search(r'<section[^>]*id="house-rules".*?</section>', page, re.S)
    assert section, "the page has no house rules section"
    return [
        text_of(item)
        for item in re.findall(r'<li class="game-rules__house-rule">(.*?)</li>', section[0], re.S)
    ]


def test_every_game_has_its_headings_listed_here():
    assert set(HEADINGS) == set(ENGINE_MODULES)


@pytest.mark.parametrize("slug", sorted(ENGINE_MODULES))
def test_a_rules_page_for_a_signed_in_user(client_for, player, slug):
    engine = get_engine(slug)
    r = client_for(player).get(f"/tavern/rules/{slug}/")
    assert r.status_code == 200
    assert r.templates[0].name == f"minigames/rules/{slug}.html"
    page = r.content.decode()
    assert headings(page, 1) == [f"How to play {engine.title}"]
    h2 = headings(page, 2)
    # the table of contents first, the house rules last, the game's own sections between
    assert h2 == ["On this page", *HEADINGS[slug], "House rules"]
    # every section is in the table of contents, and every entry there leads to a section
    toc = re.search(r'<nav class="game-rules__toc".*?</nav>', page, re.S)
    assert toc
    targets = re.findall(r'href="#([^"]+)"', toc[0])
    assert [text_of(a) for a in re.findall(r"<a [^>]*>(.*?)</a>", toc[0])] == h2[1:]
    for target in targets:
        assert f'id="{target}"' in page, target


@pytest.mark.parametrize(
    ("slug", "put_down"),
    [("spirit_war", "after she puts a card face down"), ("dbs", "after she puts cards face down")],
)
def test_a_card_seen_in_her_hand_stays_listed_after_she_puts_a_card_face_down(
    client_for, player, slug, put_down
):
    """The rule the engines keep (tests/engine/*/test_hidden_*.py), told to the players: a
    known card played face down must not be named by the list of her cards shrinking."""
    page = text_of(client_for(player).get(f"/tavern/rules/{slug}/").content.decode())
    assert f"stays listed under her name {put_down}" in page


@pytest.mark.parametrize("slug", sorted(ENGINE_MODULES))
def test_every_house_rule_shows_its_label_and_default_in_words(client_for, player, slug):
    """The engine's house rules, as the new-table form offers them: each label with its
    default in words (a choice's label, not its key), a choice's other values, a number's
    range; the page never shows a key."""
    page = client_for(player).get(f"/tavern/rules/{slug}/").content.decode()
    items = house_rule_items(page)
    rules = list(get_engine(slug).house_rules())
    assert rules, "every tavern game has house rules"
    assert len(items) == len(rules)
    for item, rule in zip(items, rules, strict=True):
        assert item.startswith(str(rule.label)), (item, rule.label)
        if rule.choices:
            words = dict(rule.choices)[rule.default]
            assert f"Default: {words}" in item
            for _, label in rule.choices:
                assert str(label) in item
        else:
            assert f"Default: {rule.default}" in item
            assert f"from {rule.minimum} to {rule.maximum}" in item
        if rule.help:
            assert str(rule.help) in item
    # no engine key anywhere in what the page says
    words = text_of(re.search(r"<main.*</main>", page, re.S)[0])
    assert not re.findall(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b", words)


def test_a_house_rules_default_in_words(client_for, player):
    """Spirit War's "Choosing Support cards" reads its default's label, not its key (the
    default is RULINGS Spirit War 2: both sides at once, revealed together)."""
    items = house_rule_items(client_for(player).get("/tavern/rules/spirit_war/").content.decode())
    support = next(i for i in items if i.startswith("Choosing Support cards"))
    assert "Default: Both sides at once, face down" in support
    assert "Or: The losing side first, then the other (both at once after a draw)." in support
    assert "loser_first" not in support
    proof = next(i for i in items if i.startswith("Skipping an attack without a Spirit"))
    assert "Default: She skips the attack without showing her hand" in proof
    assert "Or: She shows her hand as proof." in proof
    threshold = house_rule_items(client_for(player).get("/tavern/rules/raigo/").content.decode())
    assert threshold[0].startswith("Destroy threshold (X) Default: 20 ")
    assert "Any whole number from 5 to 60." in threshold[0]


@pytest.mark.parametrize("slug", ["chess", "spirit-war", "RAIGO", "raigo.html", "base"])
def test_an_unknown_game_is_a_404(client_for, player, slug):
    assert client_for(player).get(f"/tavern/rules/{slug}/").status_code == 404


def test_a_rules_page_is_only_read(client_for, player):
    assert client_for(player).post("/tavern/rules/raigo/").status_code == 405


@pytest.mark.parametrize("slug", sorted(ENGINE_MODULES))
def test_how_to_play_is_public(client_for, slug):
    """Issue 39: "How to play" pages are public (someone sent an invite link reads the rules
    before signing up); the tavern itself still asks her to sign in."""
    anonymous = client_for(None)
    assert anonymous.get("/tavern/").status_code == 302
    r = anonymous.get(f"/tavern/rules/{slug}/")
    assert r.status_code == 200
    assert "Log in" in r.content.decode()
    assert anonymous.get("/tavern/rules/chess/").status_code == 404


def rules_links(page: str) -> list[tuple[str, str]]:
    """(href, words) of every link to a rules page."""
    return [
        (href, text_of(words))
        for href, words in re.findall(r'<a href="(/tavern/rules/[^"]*)"[^>]*>(.*?)</a>', page)
    ]


@pytest.mark.parametrize("slug", sorted(ENGINE_MODULES))
def test_a_table_page_links_to_its_games_rules(client_for, player, slug):
    table = one_open_seat(player, slug)
    page = client_for(player).get(f"/tavern/tables/{table.pk}/").content.decode()
    title = get_engine(slug).title
    assert rules_links(page) == [(f"/tavern/rules/{slug}/", f"How to play {title}")]


@pytest.mark.parametrize("where", ["open", "campaign"])
def test_the_tavern_links_to_every_games_rules(client_for, campaign, player, where):
    url = "/tavern/" if where == "open" else f"/campaigns/{campaign.pk}/tavern/"
    page = client_for(player).get(url).content.decode()
    titles = {slug: get_engine(slug).title for slug in ENGINE_MODULES}
    # the list at the top names every game
    nav = re.search(r'<nav class="tavern-howto".*?</nav>', page, re.S)
    assert nav
    assert rules_links(nav[0]) == [(f"/tavern/rules/{s}/", titles[s]) for s in ENGINE_MODULES]
    # and each game's part of the new-table form links to that game's page
    for slug, title in titles.items():
        fieldset = re.search(
            rf'<fieldset class="tavern-rules" data-game="{slug}">.*?</fieldset>', page, re.S
        )
        assert fieldset, slug
        assert rules_links(fieldset[0]) == [(f"/tavern/rules/{slug}/", f"How to play {title}")]
