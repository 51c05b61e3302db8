"""Where the bots sit (docs/bots.md): the bots import no web stack (they run in a Celery task
and in tests without Django), and no engine imports OpenSpiel (the adapter is the only bridge)."""

from __future__ import annotations

from pathlib import Path

from tests.test_architecture import FORBIDDEN, _imports

ROOT = Path(__file__).resolve().parents[2]


def _importing(package: str, names: tuple[str, ...]) -> dict[str, set[str]]:
    found = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        bad = {n for n in _imports(path) if n.split(".")[0] in names}
        if bad:
            found[str(path.relative_to(ROOT))] = bad
    return found


def test_the_bots_do_not_import_the_web_stack():
    assert (ROOT / "minigames/bots/adapter.py").is_file()
    assert _importing("minigames/bots", FORBIDDEN) == {}


def test_no_engine_imports_openspiel():
    assert _importing("minigames/bots", ("pyspiel", "open_spiel")) != {}  # the check can fail
    for package in ("westernroses", "minigames/engines"):
        assert _importing(package, ("pyspiel", "open_spiel")) == {}
