"""YAML data files and pasted YAML read as plain data, with libyaml's safe loader.

Why one helper: the rules data (the catalog, the skills, the card games' cards) is parsed when a
process first imports it, in every web, worker and test process, and PyYAML's pure-Python
loader takes about ten times libyaml's time for the same text. Both loaders are safe (plain
data only) and give equal results; the pure-Python one is the fallback where PyYAML was built
without libyaml."""

from __future__ import annotations

from typing import IO, Any

import yaml

#: libyaml's safe loader when PyYAML has it, else the pure-Python one
LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(text: str | bytes | IO[str]) -> Any:
    """``text`` (a string or an open file) as plain data; raises ``yaml.YAMLError`` as
    ``yaml.safe_load`` does."""
    return yaml.load(text, Loader=LOADER)  # noqa: S506 - a safe loader


def error_line(exc: yaml.YAMLError) -> int | None:
    """The line (from 1) that a YAML error points at, or None for an error with no place."""
    mark = getattr(exc, "problem_mark", None)
    return None if mark is None else int(mark.line) + 1
