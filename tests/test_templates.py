"""Template hygiene: Django's {# #} comments are single-line only; a multi-line one would be
rendered as text on the page (it happened once, on the character sheet's deck block)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_no_multiline_hash_comments_in_templates():
    offenders = []
    for path in sorted(ROOT.glob("**/templates/**/*.html")):
        if ".venv" in path.parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\{#(?!.*#\})", line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}")
    assert offenders == []
