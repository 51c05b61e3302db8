"""The site's scripts put no English words on a page outside the catalog: every sentence a
script shows goes through ``gettext``/``ngettext`` and ``interpolate``, so a page in Japanese or
Chinese reads fully in its language (docs/i18n.md). A template literal that writes words
around a value (`${name} since ${time}`, `${n} moves`) is the way such words slipped past the
catalogs: the presence line, the tab title's turn mark, a measured distance and the card
games' labels all said English on a Japanese page.

Template literals that build class names, styles, ids or URLs are not words and are skipped.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "static" / "js"
HOLE = "\0"  # where a ${...} stood
#: A word of two letters or more standing on its own (not a CSS unit glued to a value).
WORD = re.compile(r"(?:^|\s)[A-Za-z]{2,}[.,:!?]?(?=\s|$)")
#: Not words: styles (`left:${x}px`), URLs and queries, markup, keys (`tok:${id}`).
NOT_WORDS = re.compile(r"[;/?=#<>]|\w:(?:\S|$)")
CSS_VALUES = re.compile(r"(?:px|em|rem|%|deg|translate|scale|rotate)\b")
COMMENTS = re.compile(r"/\*.*?\*/|(?:^|\s)//[^\n]*", re.S)


def template_literals(source: str) -> list[tuple[int, str]]:
    """Each template literal's line and its text, each ``${...}`` replaced by :data:`HOLE`."""
    found: list[tuple[int, str]] = []
    i = 0
    while (i := source.find("`", i)) >= 0:
        line = source.count("\n", 0, i) + 1
        j, depth, text = i + 1, 0, []
        while j < len(source):
            c = source[j]
            if depth == 0 and c == "\\":
                text.append(source[j : j + 2])
                j += 2
                continue
            if depth == 0 and c == "`":
                break
            if depth == 0 and source.startswith("${", j):
                depth, j = 1, j + 2
                text.append(HOLE)
                continue
            if depth:
                depth += {"{": 1, "}": -1}.get(c, 0)
            else:
                text.append(c)
            j += 1
        found.append((line, "".join(text)))
        i = j + 1
    return found


def words_outside_the_catalog(source: str) -> list[tuple[int, str]]:
    """The template literals of ``source`` that write words around a value."""
    source = COMMENTS.sub(lambda m: "\n" * m.group(0).count("\n"), source)
    found = []
    for line, text in template_literals(source):
        bare = text.replace(HOLE, " ")
        if HOLE not in text or NOT_WORDS.search(text.replace(HOLE, "")):
            continue
        if len(text.split()) < 2:
            continue  # one token, a value glued to letters: a class, a key
        if WORD.search(CSS_VALUES.sub(" ", bare)):
            found.append((line, text.replace(HOLE, "${…}")))
    return found


def test_no_script_writes_words_around_a_value_outside_the_catalog():
    found = [
        f"{path.relative_to(ROOT)}:{line}: `{text}`"
        for path in sorted(SCRIPTS.rglob("*.js"))
        for line, text in words_outside_the_catalog(path.read_text(encoding="utf-8"))
    ]
    assert not found, "words outside gettext:\n" + "\n".join(found)


def test_the_check_finds_words_and_passes_classes_styles_and_keys():
    source = """
    // a comment: `${x} moves` is not code
    el("p", `${n} moves`);
    title = `▶ Your turn · ${title}`;
    box.className = `${cls} raigo-place ${extra}`;
    node.style = `left:${x}px;top:${y}px`;
    node.style.transform = `translate(${x}px, ${y}px) scale(${z})`;
    key = `tok:${id}`;
    url = `${base}?since=${stamp}`;
    words = interpolate(gettext("%(n)s moves"), { n }, true);
    """
    found = [text for _, text in words_outside_the_catalog(source)]
    assert found == ["${…} moves", "▶ Your turn · ${…}"]
