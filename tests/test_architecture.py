"""The engine/app boundary (docs/architecture.md): engine packages never import Django."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PURE_PACKAGES = ("westernroses", "minigames/engines")
FORBIDDEN = ("django", "rest_framework", "celery", "kombu", "redis", "psycopg")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def forbidden_imports(package_dir: Path) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in sorted(package_dir.rglob("*.py")):
        bad = {n for n in _imports(path) if n.split(".")[0] in FORBIDDEN}
        if bad:
            found[str(path.relative_to(ROOT))] = bad
    return found


@pytest.mark.parametrize("package", PURE_PACKAGES)
def test_engine_packages_do_not_import_the_web_stack(package):
    assert (ROOT / package).is_dir()
    assert forbidden_imports(ROOT / package) == {}


def test_the_check_catches_a_django_import(tmp_path):
    """The guard itself must be able to fail."""
    (tmp_path / "bad.py").write_text("from django.db import models\nimport celery\n")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        assert forbidden_imports(tmp_path) == {"bad.py": {"django.db", "celery"}}
    finally:
        ROOT = saved
