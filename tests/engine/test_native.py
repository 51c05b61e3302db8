"""The engine compiled with mypyc (``westernroses.native``, docs/native.md).

``make test`` builds it first and sets ``WR_NATIVE_REQUIRED``, so the whole suite runs the
compiled engine and these tests check that it does; a plain ``pytest`` in a checkout without a
build skips the ones that need it. The interpreted engine (``make run`` without dev tools, a
stale build) must play exactly the same battles: the two are compared byte for byte here.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from westernroses import native

REQUIRED = bool(os.environ.get("WR_NATIVE_REQUIRED"))
needs_build = pytest.mark.skipif(
    not REQUIRED and not native.fresh(),
    reason="no fresh build of the compiled engine (make native)",
)

#: Plays random 4-vs-4 battles and prints, per battle, its actions and final state.
PLAY = """
import hashlib, random, sys
from tests.engine.battle import random_play
from tests.engine.battle.samples import demo_battle
from westernroses.battle import actions, dumps
print(actions.__file__)
rng = random.Random(5)
for seed in range(1, 13):
    state = demo_battle(seed, heroes=random_play.BENCH_PARTY, monsters=random_play.BENCH_MONSTERS)
    final, played = random_play.play(state, rng, 400)
    print(seed, len(played), hashlib.sha256((repr(played) + dumps(final)).encode()).hexdigest())
"""


def _run(code: str, *, cwd: Path, pure: bool = False) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != native.OFF_SWITCH}
    if pure:
        env[native.OFF_SWITCH] = "1"
    env["PYTHONPATH"] = str(cwd)
    env["WR_NO_SERVICES"] = "1"
    done = subprocess.run(  # noqa: S603 - our own interpreter on our own code
        [sys.executable, "-c", code],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return done.stdout.splitlines()


@needs_build
def test_the_suite_runs_the_compiled_engine() -> None:
    """Under ``make test`` every battle test exercises the compiled modules."""
    from westernroses import checks
    from westernroses.battle import actions, state

    assert native.ACTIVE, "the compiled engine is built but not in use (WR_PURE_PYTHON set?)"
    for module in (actions, state, checks):
        assert module.__file__ is not None
        assert Path(module.__file__).is_relative_to(native.BUILD), module.__file__
        assert module.__file__.endswith(".so")


@needs_build
def test_compiled_and_interpreted_engines_play_the_same_battles_byte_for_byte() -> None:
    root = native.ROOT
    compiled = _run(PLAY, cwd=root)
    interpreted = _run(PLAY, cwd=root, pure=True)
    assert compiled[0].endswith(".so") and interpreted[0].endswith(".py")
    assert len(compiled) == 13
    assert compiled[1:] == interpreted[1:]
    assert sum(int(line.split()[1]) for line in compiled[1:]) > 500  # battles, not stubs


@needs_build
def test_a_build_of_other_sources_is_never_used(tmp_path: Path) -> None:
    """An edited module must not be shadowed by a binary built before the edit."""
    root = native.ROOT
    copy = tmp_path / "checkout"
    copy.mkdir()
    shutil.copytree(root / "westernroses", copy / "westernroses")
    shutil.copytree(native.BUILD, copy / "build" / "native")
    where = (
        "import westernroses.battle.arena as a, westernroses.checks as d; "
        "print(a.__file__); print(d.__file__)"
    )
    assert all(line.endswith(".so") for line in _run(where, cwd=copy))
    arena = copy / "westernroses" / "battle" / "arena.py"
    arena.write_text(arena.read_text() + "\n# an edit after the build\n")
    assert all(line.endswith(".py") for line in _run(where, cwd=copy))
    (copy / "build" / "native" / "SOURCES").unlink()
    arena.write_text(arena.read_text().removesuffix("\n# an edit after the build\n"))
    assert all(line.endswith(".py") for line in _run(where, cwd=copy)), "no stamp, no build"


def test_rules_code_never_asks_combatants_get() -> None:
    """Compiled, ``dict.get`` on a dict subclass skips its ``get`` (mypyc reads the entries
    directly), so ``state.combatants.get(cid)`` would hand rules code the sealed state's own
    combatant, past copy on first touch: ``BattleState.find`` is the way to ask."""
    found = []
    for path in sorted((native.ROOT / "westernroses" / "battle").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in {"get", "setdefault"}
                and isinstance(node.func.value, ast.Attribute)
                and node.func.value.attr == "combatants"
            ):
                found.append(f"{path.name}:{node.lineno}")
    assert found == []


def test_the_switch_turns_the_build_off() -> None:
    lines = _run(
        "from westernroses import native; import westernroses.battle.state as s; "
        "print(native.ACTIVE); print(s.__file__)",
        cwd=native.ROOT,
        pure=True,
    )
    assert lines == ["False", str(native.ROOT / "westernroses" / "battle" / "state.py")]
