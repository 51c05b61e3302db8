"""The project's message catalogs compiled for a test, outside the working tree.

Why a copy: ``locale/`` holds only the .po sources (the .mo files are build output), and
pytest-xdist's workers would race if each wrote .mo files beside them. Each test gets the
catalogs compiled by GNU msgfmt into its own tmp_path; pointing ``LOCALE_PATHS`` there
(pytest-django's ``settings`` fixture) also clears Django's cache of loaded translations.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

LOCALE = Path(__file__).resolve().parents[1] / "locale"


def compiled_catalogs(target: Path) -> Path:
    """``locale/`` compiled into ``target``; returns the directory to use as LOCALE_PATHS."""
    out = target / "locale"
    for po in LOCALE.glob("*/LC_MESSAGES/*.po"):
        dest = out / po.relative_to(LOCALE)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(po, dest)
        subprocess.run(  # noqa: S603 - a fixed program on the project's own files
            ["msgfmt", "--check", "-o", str(dest.with_suffix(".mo")), str(dest)],  # noqa: S607
            check=True,
            capture_output=True,
        )
    return out
