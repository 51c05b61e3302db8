"""The "How to play" pages of Rumbling Spell Orchestra and Dream Battle of SpellCard in
Japanese and Simplified Chinese (issue 42, docs/i18n.md).

Each translation (``templates/minigames/rules/<dir>/<game>.html``) is rendered with the context
the rules page gives its template (``minigames.views.rules_page``: the engine's
``selectors.game_rules``) and compared with the English page rendered the same way: the same
ids in the same order, the same headings, sections, tables and their rows, lists, terms and
links, and a table of contents whose entries read as the headings they lead to. The page uses
the glossary's words for its game (``docs/glossary/<code>.md``) and leaves no English sentence
in the reader's way: no three Latin words in a row outside ``translate="no"``, apart from the
game's title and the house rules' own words, which the engines write in English."""

from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from minigames import selectors
from minigames.engines.registry import get_engine

ROOT = Path(__file__).resolve().parents[2]

#: (Django's language code, the templates' directory, the glossary's code)
LANGUAGES = [("ja", "ja", "ja"), ("zh-hans", "zh_hans", "zh-Hans")]

#: The glossary's section for each game.
SECTIONS = {"rso": "Rumbling Spell Orchestra (RSO)", "dbs": "Dream Battle of SpellCard (DBS)"}

#: Site terms (docs/glossary, "The site") both pages use: a character, a player, the link to
#: the card games.
SITE_TERMS = ["character", "player", "card games"]

#: The elements whose number must not change in translation.
COUNTED = (
    "h1", "h2", "h3", "section", "table", "tr", "th", "td", "ol", "ul", "li", "dl", "dt", "dd",
    "p", "a", "strong", "em",
)  # fmt: skip

#: Three or more Latin words in a row: an English phrase left untranslated.
ENGLISH = re.compile(r"[A-Za-z][A-Za-z'’-]*(?:\s+[A-Za-z][A-Za-z'’-]*){2,}")

#: Names that stay in Latin letters in every language.
NAMES = ["Western Roses"]

#: A word of two Latin letters or more (X and Y stand for numbers).
LATIN = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]")

#: The DBS rulebook's own label for its first phase, shown beside the phase's name.
RULEBOOK_LABELS = {"PICK"}

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class Page(HTMLParser):
    """A rendered page read as a reader and a checker see it: the ids and links in order, how
    many of each counted element, the sections' h2 headings (not the table of contents' own)
    and the table of contents' entries, and each
    text with whether it is the interface's words (not inside ``translate="no"``, a script or
    style, the title, or the engine's house-rule list)."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.hrefs: list[str] = []
        self.counts: Counter[str] = Counter()
        self.h2: list[str] = []
        self.toc: list[str] = []
        self.texts: list[tuple[str, bool, bool]] = []  # (text, excluded, in the article)
        self._stack: list[tuple[str, bool, str]] = []  # (tag, excluded, role)
        self._h2: list[str] | None = None
        self._toc_link: list[str] | None = None
        self.feed(page)
        self.close()

    def _excluded(self) -> bool:
        return bool(self._stack) and self._stack[-1][1]

    def _within(self, role: str) -> bool:
        return any(r == role for _, _, r in self._stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.append(str(a["id"]))
        if tag == "a" and a.get("href"):
            self.hrefs.append(str(a["href"]))
        if tag in COUNTED:
            self.counts[tag] += 1
        if tag in VOID:
            return
        classes = (a.get("class") or "").split()
        excluded = (
            self._excluded()
            or a.get("translate") == "no"
            or tag in ("script", "style", "title")
            or "game-rules__house" in classes
        )
        role = "toc" if "game-rules__toc" in classes else ""
        if tag == "article" and "game-rules" in classes:
            role = "game-rules"
        self._stack.append((tag, excluded, role))
        if tag == "h2" and not self._within("toc"):
            self._h2 = []
        if tag == "a" and self._within("toc"):
            self._toc_link = []

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        while self._stack:
            top = self._stack.pop()[0]
            if top == tag:
                break
        if tag == "h2" and self._h2 is not None:
            self.h2.append(" ".join("".join(self._h2).split()))
            self._h2 = None
        if tag == "a" and self._toc_link is not None:
            self.toc.append(" ".join("".join(self._toc_link).split()))
            self._toc_link = None

    def handle_data(self, data: str) -> None:
        if not data.strip():
            return
        self.texts.append((data, self._excluded(), self._within("game-rules")))
        if self._h2 is not None:
            self._h2.append(data)
        if self._toc_link is not None:
            self._toc_link.append(data)

    def words(self, within: str = "") -> str:
        """Everything the interface says (in the rules' article: ``within="game-rules"``)."""
        return " ".join(
            text
            for text, excluded, in_article in self.texts
            if not excluded and (in_article or not within)
        )


def render(slug: str, template: str, language: str) -> Page:
    """``template`` as the rules page renders it for ``slug``, in ``language``."""
    with translation.override(language):
        return Page(render_to_string(template, {"game": selectors.game_rules(slug)}))


def english_left(page: Page, slug: str) -> list[str]:
    """The English phrases of three words or more in the interface's words of ``page``."""
    found = []
    for text, excluded, _ in page.texts:
        if excluded:
            continue
        for name in [get_engine(slug).title, *NAMES]:
            text = text.replace(name, " ")
        found += ENGLISH.findall(text)
    return found


def glossary(code: str, section: str) -> list[tuple[str, str]]:
    """``docs/glossary/<code>.md``'s rows under ``## <section>``: (English, the term)."""
    text = (ROOT / "docs" / "glossary" / f"{code}.md").read_text(encoding="utf-8")
    part = text.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in part.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] not in ("English", "---"):
            rows.append((cells[0], cells[1]))
    return rows


@pytest.mark.parametrize("slug", sorted(SECTIONS))
@pytest.mark.parametrize(("language", "folder", "code"), LANGUAGES)
def test_the_translation_keeps_the_english_pages_structure(
    slug: str, language: str, folder: str, code: str
) -> None:
    english = render(slug, f"minigames/rules/{slug}.html", language)
    page = render(slug, f"minigames/rules/{folder}/{slug}.html", language)
    assert page.ids == english.ids
    assert page.hrefs == english.hrefs
    assert {t: page.counts[t] for t in COUNTED} == {t: english.counts[t] for t in COUNTED}
    # the table of contents reads as the sections' headings it leads to, the house rules last
    assert len(page.h2) == len(english.h2)
    assert page.toc == page.h2
    assert not set(page.h2) & set(english.h2[:-1]), "a heading is left in English"


@pytest.mark.parametrize("slug", sorted(SECTIONS))
@pytest.mark.parametrize(("language", "folder", "code"), LANGUAGES)
def test_the_translation_uses_the_glossarys_terms(
    slug: str, language: str, folder: str, code: str
) -> None:
    words = render(slug, f"minigames/rules/{folder}/{slug}.html", language).words()
    site = {e.lower(): t for e, t in glossary(code, "The site")}
    terms = glossary(code, SECTIONS[slug])
    terms += [(e, site[e]) for e in SITE_TERMS]
    assert len(terms) >= 20, "the glossary lost the game's terms"
    missing = [
        f"{english}: {piece}"
        for english, term in terms
        for piece in term.split("、")
        if piece not in words
    ]
    assert not missing, missing


@pytest.mark.parametrize("slug", sorted(SECTIONS))
@pytest.mark.parametrize(("language", "folder", "code"), LANGUAGES)
def test_no_english_sentence_is_left(slug: str, language: str, folder: str, code: str) -> None:
    page = render(slug, f"minigames/rules/{folder}/{slug}.html", language)
    assert english_left(page, slug) == []
    # nor a single English word in the rules: a word in Latin letters outside translate="no"
    # (card names are inside it) is one the glossary keeps in Latin, or the game's title
    kept = {
        word
        for section in ("The site", SECTIONS[slug])
        for _, term in glossary(code, section)
        for word in LATIN.findall(term)
    }
    kept |= set(LATIN.findall(get_engine(slug).title)) | RULEBOOK_LABELS
    latin = set(LATIN.findall(page.words(within="game-rules")))
    assert latin <= kept, sorted(latin - kept)


@pytest.mark.parametrize("slug", sorted(SECTIONS))
def test_the_english_check_can_fail(slug: str) -> None:
    """The English page, read as though it should be Japanese, is caught: the check is not
    blind to an untranslated page."""
    page = render(slug, f"minigames/rules/{slug}.html", "ja")
    left = english_left(page, slug)
    assert len(left) > 50
    assert "Building a deck" in left
