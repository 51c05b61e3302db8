"""Django's ``makemessages`` with the project's defaults, so every contributor's run writes the
same catalogs (docs/i18n.md):

* what is not the project's source is never read: the virtualenv, node_modules, the compiled
  engine, the tests, collected static files and uploads;
* each entry names its files but not their lines (``--add-location=file``): a line moved by an
  unrelated edit does not rewrite the catalogs, and branches' catalogs merge cleanly
  (``msgcat``);
* entries no longer in the source are dropped (``--no-obsolete``), so a catalog holds exactly
  the marked strings;
* the engines' marker ``N_`` (``westernroses/words.py``) is a keyword, so the sentences the
  pure-Python engines write are found like ``gettext``'s, and ``NP_`` (a word with its
  context) like ``pgettext``'s;
* the header's ``POT-Creation-Date`` is left out, so a run that finds nothing new changes
  nothing.

Options given on the command line are added to these."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.commands import makemessages

#: Never the project's source (``--ignore`` patterns, matched against paths and names).
IGNORED = (
    ".venv",
    "venv",
    "node_modules",
    "build",
    "tests",
    "staticfiles",
    "media",
    "test-artifacts",
    "docs",
    "locale",
)


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=N_",
        "--keyword=NP_:1c,2",
    ]

    def handle(self, *args: Any, **options: Any) -> None:
        options["ignore_patterns"] = [*(options.get("ignore_patterns") or []), *IGNORED]
        options["no_obsolete"] = True
        if not options.get("add_location"):
            options["add_location"] = "file"
        super().handle(*args, **options)
        # Only this run's domain: a run of the other domain at the same time (the catalogs'
        # test runs both) may be merging its catalogs, and must never read one half-written.
        for base in settings.LOCALE_PATHS:
            for po in Path(base).glob(f"*/LC_MESSAGES/{options['domain']}.po"):
                text = po.read_text(encoding="utf-8")
                kept = re.sub(r'^"POT-Creation-Date: [^"]*"\n', "", text, count=1, flags=re.M)
                if kept != text:
                    _replace(po, kept)


def _replace(path: Path, text: str) -> None:
    """Write ``path`` whole or not at all (a reader sees the old file or the new one)."""
    spare = path.with_name(f".{path.name}.new")
    spare.write_text(text, encoding="utf-8")
    os.replace(spare, path)
