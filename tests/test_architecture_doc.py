"""docs/architecture.md stays true (issue 38): every file, folder, module and setting it names
exists, and it stays short."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
CODE = re.compile(r"`([^`\n]+)`")


def _named() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # the diagrams
    return CODE.findall(text)


def _exists(name: str) -> bool:
    """A path from the root or the docs, or a file or folder named in a table row under its
    folder (``protocol.py`` in the row of ``westernroses/``)."""
    if any(p.exists() for p in (ROOT / name, ROOT / "docs" / name, ROOT / "static" / name)):
        return True
    found = ROOT.glob(f"**/{name.rstrip('/')}")
    return any(".venv" not in p.parts and "node_modules" not in p.parts for p in found)


#: the API's URL segments (``state/``, ``actions/``): addresses, not files
URL_SEGMENTS = {"state/", "actions/", "log/", "view/", "replay/", "chat/", "clock/", "undo/"}


def test_every_path_it_names_exists():
    missing = []
    for name in _named():
        if "<" in name or " " in name or name.startswith(("GET ", "POST ", "{")):
            continue
        if name in URL_SEGMENTS:
            continue
        if ("/" in name or name.endswith((".py", ".js", ".md"))) and not _exists(name):
            missing.append(name)
    assert not missing, f"docs/architecture.md names what does not exist: {missing}"


def test_every_module_it_names_imports():
    missing = []
    for name in _named():
        if re.fullmatch(r"[a-z_]+(\.[a-z_]+)+", name) and not name.endswith((".py", ".md", ".js")):
            module, _, attr = name.rpartition(".")
            if importlib.util.find_spec(name.split(".")[0]) is None:
                missing.append(name)
                continue
            try:
                found = importlib.util.find_spec(name) is not None
            except ModuleNotFoundError:
                found = False
            if not found:
                owner = importlib.import_module(module)
                found = hasattr(owner, attr)
            if not found:
                missing.append(name)
    assert not missing, f"docs/architecture.md names modules that do not exist: {missing}"


def test_every_setting_it_names_exists():
    base = (ROOT / "config" / "settings" / "base.py").read_text(encoding="utf-8")
    missing = [
        name
        for name in _named()
        if re.fullmatch(r"[A-Z][A-Z0-9_]+", name)
        and not hasattr(settings, name)
        and f'"{name}"' not in base  # an environment variable the settings read
    ]
    assert not missing, f"docs/architecture.md names settings that do not exist: {missing}"


def test_it_stays_short():
    words = len(re.sub(r"```.*?```", "", DOC.read_text(encoding="utf-8"), flags=re.S).split())
    assert words < 1500, f"docs/architecture.md has {words} words besides its diagrams"


def test_every_decision_page_is_listed_in_the_index():
    """docs/decisions/README.md is how a contributor finds a decision: no page goes unlisted,
    and no listed page is missing."""
    folder = ROOT / "docs" / "decisions"
    index = (folder / "README.md").read_text()
    pages = {p.name for p in folder.glob("*.md")} - {"README.md"}
    listed = set(re.findall(r"\]\(([a-z0-9-]+\.md)\)", index))
    assert pages - listed == set(), "unlisted"
    assert listed - pages == set(), "listed but missing"
