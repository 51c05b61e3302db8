"""The rules data is read with libyaml's safe loader (westernroses/yaml_data.py): every data
file of the project parses to exactly what PyYAML's pure-Python safe loader gives, and bad YAML
is refused with the same error type, with its line."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from westernroses import yaml_data

ROOT = Path(__file__).resolve().parents[2]
DATA_FILES = sorted(
    p
    for folder in ("westernroses", "minigames")
    for p in (ROOT / folder).rglob("*.yaml")
    if "data" in p.parts
)


def test_the_fast_loader_is_libyamls() -> None:
    assert yaml_data.LOADER is yaml.CSafeLoader  # PyYAML from PyPI is built with libyaml


@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_data_file_reads_as_the_pure_python_loader_reads_it(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert yaml_data.load_yaml(text) == yaml.load(text, Loader=yaml.SafeLoader)


def test_bad_yaml_is_refused_with_its_line() -> None:
    with pytest.raises(yaml.YAMLError) as caught:
        yaml_data.load_yaml("cards:\n  - name: ok\n  - name: [1, 2\n  - name: never\n")
    assert yaml_data.error_line(caught.value) == 4  # where the unclosed list meets a new item
    assert yaml_data.error_line(yaml.YAMLError("no place")) is None


def test_only_plain_data_is_built() -> None:
    with pytest.raises(yaml.YAMLError):
        yaml_data.load_yaml("!!python/object/apply:os.system ['true']")
