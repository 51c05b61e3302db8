"""The catalogs are complete (docs/i18n.md): every string marked for translation anywhere in
the project has a Japanese and a Simplified Chinese translation in the committed catalogs, none
of them fuzzy.

How: the project's source is copied to a temporary directory with the committed catalogs, and
``makemessages`` (the project's, config/management/commands/makemessages.py) runs there for
both languages and both domains (templates and Python: ``django``; scripts: ``djangojs``). It
adds every marked string the catalogs lack as an untranslated entry, and one close to an old
string as fuzzy: gettext's ``msgattrib`` lists both. So a string marked without its
translations fails here, whoever marked it, and the repository's own catalogs are never
written by the test."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from config.management.commands.makemessages import IGNORED

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("ja", "zh_Hans")
DOMAINS = ("django", "djangojs")
#: A catalog no run of makemessages here writes, with the header line a run strips from its own.
OTHER_PO = "locale/ja/LC_MESSAGES/elsewhere.po"
OTHER_CATALOG = (
    'msgid ""\nmsgstr ""\n"POT-Creation-Date: 2026-01-01 00:00+0000\\n"\n'
    '"Content-Type: text/plain; charset=UTF-8\\n"\n'
)


def _copy_source(into: Path) -> None:
    """What makemessages reads and what Django needs to start: the repository without the
    directories makemessages ignores (the catalogs are copied on their own)."""
    skip = {*IGNORED, ".git", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}
    shutil.copytree(
        ROOT,
        into,
        symlinks=True,
        ignore=lambda _dir, names: [
            n for n in names if n in skip or n.endswith((".mo", ".pyc", ".sqlite3"))
        ],
    )
    for po in (ROOT / "locale").glob("*/LC_MESSAGES/*.po"):
        target = into / po.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(po, target)


def _msgids(po: Path, flag: str) -> list[str]:
    """The msgids of ``po``'s entries that gettext's ``msgattrib <flag>`` keeps (the header
    aside)."""
    out = subprocess.run(  # noqa: S603
        ["msgattrib", flag, "--no-obsolete", "--no-wrap", str(po)],  # noqa: S607
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [m for m in re.findall(r'^msgid "(.*)"$', out, flags=re.M) if m]


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The committed catalogs after makemessages has added every string marked in the source."""
    copy = tmp_path_factory.mktemp("catalogs") / "project"
    _copy_source(copy)
    # a catalog of a third domain, which neither run may touch
    (copy / OTHER_PO).write_text(OTHER_CATALOG, encoding="utf-8")
    # the settings of `make run` (the test settings add the test-only games, not copied)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.local"}
    langs = [arg for lang in LANGUAGES for arg in ("-l", lang)]
    # the two domains at once: each waits on xgettext most of its time
    runs = [
        subprocess.Popen(  # noqa: S603
            [sys.executable, "manage.py", "makemessages", "-d", domain, *langs, "-v0"],
            cwd=copy,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for domain in DOMAINS
    ]
    for run in runs:
        out, err = run.communicate(timeout=300)
        assert run.returncode == 0, f"makemessages failed:\n{out}\n{err}"
    return copy / "locale"


# one worker takes all four: the module's makemessages run (about 8 s of CPU) happens once
@pytest.mark.xdist_group("makemessages")
@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_marked_string_is_translated(regenerated: Path, language: str, domain: str):
    po = regenerated / language / "LC_MESSAGES" / f"{domain}.po"
    assert po.exists(), f"no {language} catalog for {domain}: run makemessages (docs/i18n.md)"
    untranslated = _msgids(po, "--untranslated")
    fuzzy = _msgids(po, "--only-fuzzy")
    assert not untranslated and not fuzzy, (
        f"locale/{language}/LC_MESSAGES/{domain}.po lacks translations. Run `python manage.py "
        f"makemessages -d {domain} -l ja -l zh_Hans`, translate these and remove any fuzzy "
        f"flag (docs/i18n.md):\nuntranslated: {untranslated}\nfuzzy: {fuzzy}"
    )


@pytest.mark.xdist_group("makemessages")
def test_a_run_rewrites_only_its_own_domains_catalogs(regenerated: Path):
    """The two domains' runs above go at once, and each leaves the other's catalogs alone: a
    run that rewrote every catalog (to drop its header's date) once truncated the Japanese
    ``django.po`` as the other run's ``msgmerge`` read it, which then found half of its
    entries missing and marked them untranslated or fuzzy."""
    assert (regenerated.parent / OTHER_PO).read_text(encoding="utf-8") == OTHER_CATALOG
    assert not list(regenerated.glob("*/LC_MESSAGES/.*.new"))


def test_the_check_finds_a_string_marked_without_its_translation(tmp_path: Path):
    """The test above can fail: a catalog with one entry left untranslated and one fuzzy is
    caught by the same reading."""
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Log in"\nmsgstr "ログイン"\n\n'
        'msgid "New words"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "Log out"\nmsgstr "ログイン"\n',
        encoding="utf-8",
    )
    assert _msgids(po, "--untranslated") == ["New words"]
    assert _msgids(po, "--only-fuzzy") == ["Log out"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalogs_keep_the_placeholders(language: str):
    """Every translation keeps its original's placeholders (``%(name)s``), or Django would
    raise while rendering it: msgfmt's format check, over the committed catalogs."""
    for po in sorted((ROOT / "locale" / language / "LC_MESSAGES").glob("*.po")):
        done = subprocess.run(  # noqa: S603
            ["msgfmt", "--check-format", "-o", os.devnull, str(po)],  # noqa: S607
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr


def _glossary(code: str) -> dict[str, str]:
    """``docs/glossary/<code>.md``'s terms: English (lower case) to the translation."""
    terms = {}
    text = (ROOT / "docs" / "glossary" / f"{code}.md").read_text(encoding="utf-8")
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] not in ("English", "---"):
            terms[cells[0].lower()] = cells[1]
    return terms


def catalog_entries(po: Path) -> dict[str, str]:
    """``po``'s single-form entries, msgid to msgstr (gettext's own reading, unwrapped)."""
    out = subprocess.run(  # noqa: S603
        ["msgcat", "--no-wrap", str(po)],  # noqa: S607
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return dict(re.findall(r'^msgid "(.+)"\nmsgstr "(.*)"$', out, flags=re.M))


@pytest.mark.parametrize(("language", "code"), [("ja", "ja"), ("zh_Hans", "zh-Hans")])
def test_the_catalogs_use_the_glossarys_terms(language: str, code: str):
    """An entry whose English is a glossary term (or its plural) is translated with the term,
    so "Tavern" is the same word in the header, the tavern's pages and the rules."""
    terms = _glossary(code)
    assert len(terms) >= 40, f"docs/glossary/{code}.md lost its terms"
    checked, wrong = 0, []
    for po in sorted((ROOT / "locale" / language / "LC_MESSAGES").glob("*.po")):
        for english, translated in catalog_entries(po).items():
            key = english.lower()
            term = terms.get(key) or (terms.get(key[:-1]) if key.endswith("s") else None)
            if term is None:
                continue
            checked += 1
            if term not in translated:
                wrong.append(f"{english!r} is {translated!r}, the glossary says {term!r}")
    assert checked >= 10, "the check found almost no glossary term in the catalogs"
    assert not wrong, "\n".join(wrong)
