"""The "How to play" pages in Japanese and Chinese (docs/i18n.md, "Long texts"): a game's rules
written whole in a language live in ``templates/minigames/rules/<dir>/<slug>.html`` (``ja``,
``zh_hans``), and the rules view serves them to a reader of that language, the English page
otherwise. Every translated page found in those directories is checked against its English
page: the same sections, ids, links, lists and tables; no English prose left; the glossary's
terms for the game (docs/glossary/<code>.md) wherever the English page uses the English term."""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from minigames.engines.registry import ENGINE_MODULES, get_engine
from minigames.views import rules_templates

pytestmark = pytest.mark.django_db

TEMPLATES = Path(settings.BASE_DIR) / "templates"
RULES = TEMPLATES / "minigames" / "rules"

#: A language's directory of rules pages, from its code (``zh-hans`` → ``zh_hans``).
DIRECTORIES = {
    code.lower().replace("-", "_"): code
    for code, _name in settings.LANGUAGES
    if code != settings.LANGUAGE_CODE
}

#: The glossary file of each language (docs/glossary/<name>.md).
GLOSSARIES = {"ja": "ja", "zh-hans": "zh-Hans"}

#: Each game's section of the glossaries.
GLOSSARY_SECTIONS = {
    "raigo": "RAIGO",
    "spirit_war": "Spirit War",
    "rso": "Rumbling Spell Orchestra (RSO)",
    "dbs": "Dream Battle of SpellCard (DBS)",
}

#: The elements whose order, ids, classes and links make a page's structure.
BLOCKS = {
    "section", "div", "h2", "h3", "p", "ul", "ol", "li", "dl", "dt", "dd",
    "table", "thead", "tbody", "tr", "th", "td", "a",
}  # fmt: skip
VOID = {"br", "img", "input", "meta", "link", "hr", "wbr", "source"}


def translated_pages() -> list[tuple[str, str]]:
    """(slug, language code) of every rules page written in a language, by walking the
    language directories (so a page added by anyone is checked)."""
    pages = []
    for directory in sorted(p for p in RULES.iterdir() if p.is_dir()):
        for page in sorted(directory.glob("*.html")):
            pages.append((page.stem, DIRECTORIES.get(directory.name, directory.name)))
    return pages


PAGES = translated_pages()


@dataclass
class Reading:
    """What a rules page's article says and how it is built, house rules aside (their words
    come from the engine, docs/i18n.md)."""

    structure: list[tuple[str, str, str, str]] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    headings: list[str] = field(default_factory=list)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.reading = Reading()
        self.stack: list[tuple[str, bool, bool]] = []  # (tag, translate="no", house rules)
        self.heading: list[str] | None = None

    def _skipped(self) -> tuple[bool, bool]:
        return (any(s[1] for s in self.stack), any(s[2] for s in self.stack))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        house = a.get("id") == "house-rules"
        no = a.get("translate") == "no"
        if not self._skipped()[1] and not house and tag in BLOCKS:
            self.reading.structure.append(
                (tag, a.get("id", ""), a.get("class", ""), a.get("href", ""))
            )
        if tag in ("h2", "h3") and not self._skipped()[1] and not house:
            self.heading = []
        if tag not in VOID:
            self.stack.append((tag, no, house))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("h2", "h3") and self.heading is not None:
            self.reading.headings.append(" ".join("".join(self.heading).split()))
            self.heading = None
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        no, house = self._skipped()
        if house or not data.strip():
            return
        if self.heading is not None:
            self.heading.append(data)
        if not no:
            self.reading.texts.append(data)


def read(page: str) -> Reading:
    article = re.search(r'<article class="game-rules".*?</article>', page, re.S)
    assert article, "the page has no rules article"
    reader = _Reader()
    reader.feed(article[0])
    return reader.reading


def get(client: Any, slug: str, language: str) -> Any:
    r = client.get(f"/tavern/rules/{slug}/", HTTP_ACCEPT_LANGUAGE=language)
    assert r.status_code == 200
    return r


def glossary_rows(language: str, slug: str) -> list[tuple[str, str]]:
    """(English, translation) of each term in the game's section of the language's glossary,
    a row listing several terms ("Thunder, Snake" | "雷、蛇") split into its terms."""
    text = (settings.BASE_DIR / "docs" / "glossary" / f"{GLOSSARIES[language]}.md").read_text(
        encoding="utf-8"
    )
    section = re.search(
        rf"^## {re.escape(GLOSSARY_SECTIONS[slug])}\n(.*?)(?=^## |\Z)", text, re.S | re.M
    )
    assert section, f"docs/glossary/{GLOSSARIES[language]}.md has no section for {slug}"
    rows: list[tuple[str, str]] = []
    for line in section[1].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("English", "---"):
            continue
        english = [re.sub(r"\s*\(.*?\)", "", e).strip() for e in cells[0].split(", ")]
        translated = cells[1].split("、")
        if len(english) == len(translated):
            rows += zip(english, translated, strict=True)
        else:
            rows += [(e, cells[1]) for e in english]
    return rows


def latin_words_kept(language: str) -> set[str]:
    """The words a language's glossary writes in Latin letters (Webhook, SUPPORT, AV, Dong)."""
    text = (settings.BASE_DIR / "docs" / "glossary" / f"{GLOSSARIES[language]}.md").read_text(
        encoding="utf-8"
    )
    words: set[str] = set()
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] not in ("English", "---"):
            words |= set(re.findall(r"[A-Za-z]+", cells[1]))
    return words


def test_the_pages_are_found() -> None:
    """The walk finds this branch's pages, each in a language of the site and of a game."""
    assert {
        ("raigo", "ja"),
        ("raigo", "zh-hans"),
        ("spirit_war", "ja"),
        ("spirit_war", "zh-hans"),
    } <= set(PAGES)
    for slug, language in PAGES:
        assert language in GLOSSARIES, f"{language}: not a language of the site"
        assert slug in ENGINE_MODULES, f"{slug}: not a tavern game"


@pytest.mark.parametrize(("slug", "language"), PAGES)
def test_a_translated_rules_page_is_served_in_its_language(
    client_for: Any, slug: str, language: str
) -> None:
    r = get(client_for(None), slug, language)
    directory = language.replace("-", "_")
    assert r.templates[0].name == f"minigames/rules/{directory}/{slug}.html"
    assert r["Content-Language"] == language
    page = r.content.decode()
    assert f'<html lang="{language}"' in page
    english = read(get(client_for(None), slug, "en").content.decode())
    translated = read(page)
    # every heading of the game's own sections is translated, none left as it was
    assert len(translated.headings) == len(english.headings)
    for ours, theirs in zip(translated.headings, english.headings, strict=True):
        assert ours and ours != theirs, f"heading {theirs!r} is not translated"
        assert not re.search(r"[A-Za-z]{3,}", ours), f"heading {ours!r} is partly English"


@pytest.mark.parametrize(("slug", "language"), PAGES)
def test_a_translated_page_is_built_like_the_english_one(
    client_for: Any, slug: str, language: str
) -> None:
    """The same sections, ids, classes and links in the same order, the same lists and tables
    with as many items, rows and cells: a reader of either language finds the same parts."""
    english = read(get(client_for(None), slug, "en").content.decode())
    translated = read(get(client_for(None), slug, language).content.decode())
    assert translated.structure == english.structure


@pytest.mark.parametrize(("slug", "language"), PAGES)
def test_no_english_prose_is_left(client_for: Any, slug: str, language: str) -> None:
    """No word of the rules in Latin letters (the check of tests/browser/i18n_checks.js, on
    the server's text): only the game's name and what the glossary keeps in Latin letters."""
    translated = read(get(client_for(None), slug, language).content.decode())
    allowed = latin_words_kept(language) | set(re.findall(r"[A-Za-z]+", get_engine(slug).title))
    words = {w for t in translated.texts for w in re.findall(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]", t)}
    assert not words - allowed, f"English left on the {language} page: {sorted(words - allowed)}"
    # the check reads the text: the English page fails it
    english = read(get(client_for(None), slug, "en").content.decode())
    left = {w for t in english.texts for w in re.findall(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]", t)}
    assert len(left - allowed) > 50


@pytest.mark.parametrize(("slug", "language"), PAGES)
def test_the_page_uses_the_glossarys_terms(client_for: Any, slug: str, language: str) -> None:
    """Each term of the game's glossary the English page uses is on the translated page in
    the glossary's words (RAIGO's 雷神, 桜, 雷山)."""
    english = " ".join(read(get(client_for(None), slug, "en").content.decode()).texts)
    translated = " ".join(read(get(client_for(None), slug, language).content.decode()).texts)
    rows = glossary_rows(language, slug)
    # the term as a word, or its plural ("Yang balls"), not the start of another ("Setting")
    used = [(e, t) for e, t in rows if re.search(rf"\b{re.escape(e)}(?:e?s)?\b", english)]
    assert len(used) >= 5, f"the English page uses almost none of the glossary's terms: {used}"
    missing = [f"{e} → {t}" for e, t in used if t not in translated]
    assert not missing, f"the {language} page lacks the glossary's terms: {missing}"


@pytest.mark.parametrize("slug", sorted({s for s, _ in PAGES}))
def test_english_is_served_in_english(client_for: Any, player: Any, slug: str) -> None:
    r = get(client_for(player), slug, "en")
    assert r.templates[0].name == f"minigames/rules/{slug}.html"
    assert '<html lang="en"' in r.content.decode()


@pytest.mark.parametrize(("slug", "language"), PAGES)
def test_a_game_without_a_page_in_the_language_reads_in_english(
    client_for: Any, settings: Any, tmp_path: Path, slug: str, language: str
) -> None:
    """The templates without the translated page: the frame speaks the reader's language
    and the rules are the English page."""
    copy = tmp_path / "templates"
    shutil.copytree(TEMPLATES, copy)
    (copy / "minigames" / "rules" / language.replace("-", "_") / f"{slug}.html").unlink()
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [copy]}]
    r = get(client_for(None), slug, language)
    assert r.templates[0].name == f"minigames/rules/{slug}.html"
    page = r.content.decode()
    assert f'<html lang="{language}"' in page
    # the frame's "On this page" in the language, then the English page's own headings
    served = read(page).headings
    english = read(get(client_for(None), slug, "en").content.decode()).headings
    assert served[0] != english[0] == "On this page"
    assert served[1:] == english[1:]


def test_the_templates_a_language_looks_for() -> None:
    assert rules_templates("raigo", "en") == ["minigames/rules/raigo.html"]
    assert rules_templates("raigo", None) == ["minigames/rules/raigo.html"]
    assert rules_templates("raigo", "zh-hans") == [
        "minigames/rules/zh_hans/raigo.html",
        "minigames/rules/raigo.html",
    ]
