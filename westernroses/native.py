"""The battle engine compiled with mypyc: the same typed source, run as C.

Why: issue 15 asks for 12,000 random battle actions per second of CPU time. The interpreted
engine's profile is flat (no part above a few per cent, docs/battle.md), and mypyc, which
compiles mypy and black, turns the same strictly typed modules into C extensions that run
them about 1.6 times as fast. Nothing is rewritten: the source stays the one truth, and without
a build the engine runs interpreted exactly as before.

The compiled modules are build output (never committed): ``make native`` (which ``make test``
and ``make bench`` run) writes them to ``build/native/`` with a digest of the sources they came
from. The packages put that folder first on their ``__path__`` only when the digest matches the
sources on disk, so an edited module is never shadowed by an old binary: the engine then runs
interpreted until the next build.
``WR_PURE_PYTHON=1`` runs it interpreted even when a fresh build exists (the benchmark's
interpreted row, debugging with pdb). docs/native.md has the details.
"""

from __future__ import annotations

import hashlib
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Final

ROOT: Final = Path(__file__).resolve().parent.parent
BUILD: Final = ROOT / "build" / "native"
STAMP: Final = BUILD / "SOURCES"
#: The name of the shared library every compiled module loads (``<GROUP>__mypyc``).
GROUP: Final = "westernroses_native"
#: Top-level engine modules compiled beside the battle package: the checks every attack rolls,
#: and the rules they read. Two stay interpreted: ``rng`` (the tests' scripted dice subclass its
#: source) and ``dice``, whose expressions refuse ``True`` for a number of dice: a compiled
#: ``int`` field stores ``True`` as 1 before the check can see it (docs/native.md).
SHARED: Final = ("checks.py", "elements.py", "house_rules.py")
OFF_SWITCH: Final = "WR_PURE_PYTHON"


def sources() -> list[Path]:
    """The modules compiled: the battle package (but its ``__init__``, which turns the build
    on) and :data:`SHARED`."""
    package = ROOT / "westernroses"
    battle = sorted(p for p in (package / "battle").glob("*.py") if p.name != "__init__.py")
    return [package / name for name in SHARED] + battle


def digest() -> str:
    """What a build is valid for: the compiled sources, byte for byte, and this Python."""
    h = hashlib.sha256(sys.implementation.cache_tag.encode())
    for path in sources():
        h.update(str(path.relative_to(ROOT)).encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def fresh() -> bool:
    """A build exists and was made from exactly the sources on disk."""
    try:
        return STAMP.read_text().strip() == digest()
    except OSError:
        return False


def _decide() -> bool:
    if os.environ.get(OFF_SWITCH):
        return False
    return fresh()


#: Whether this process runs the compiled engine (decided once, at the first import).
ACTIVE: Final = _decide()


def enable(path: list[str], package: str) -> None:
    """Put the build of ``package`` (``"westernroses"`` or ``"westernroses.battle"``) first on
    its ``__path__``, if the build is :data:`ACTIVE`. Called from the two ``__init__`` modules
    before they import anything compiled."""
    if not ACTIVE:
        return
    if str(BUILD) not in sys.path:
        sys.path.append(str(BUILD))  # the shared library, ``<GROUP>__mypyc``, lives there
    compiled = str(BUILD.joinpath(*package.split(".")))
    if compiled not in path:
        path.insert(0, compiled)


def build(*, force: bool = False) -> bool:
    """Compile the engine into :data:`BUILD` unless a fresh build is there; True if it built.

    The stamp is written last, so an interrupted build is never taken for a good one."""
    if not force and fresh():
        return False
    from mypyc.build import mypycify
    from setuptools import setup
    from setuptools.command.build_ext import build_ext

    wanted = digest()
    if STAMP.exists():
        STAMP.unlink()
    here = Path.cwd()
    os.chdir(ROOT)  # mypyc names each module by its path relative to the working folder
    try:
        modules = mypycify(
            [str(p.relative_to(ROOT)) for p in sources()],
            group_name=GROUP,
            multi_file=True,
        )
        setup(
            name=GROUP,
            packages=[],
            py_modules=[],
            ext_modules=modules,
            cmdclass={"build_ext": _compiling_in_parallel(build_ext)},
            script_args=[
                "--quiet",
                "build_ext",
                "--build-lib",
                str(BUILD),
                "--build-temp",
                str(ROOT / "build" / "temp"),
                "--parallel",
                str(os.cpu_count() or 1),
            ],
        )
    finally:
        os.chdir(here)
    STAMP.write_text(wanted + "\n")
    return True


def _compiling_in_parallel(base: Any) -> Any:
    """``build_ext`` compiling the C files of one extension side by side.

    Why: mypyc puts the whole engine in one shared library of about 50 C files, and setuptools'
    ``--parallel`` runs extensions side by side, never one extension's files: the build took 42
    s on one core of two. Each file is compiled on its own (the largest first), and the objects
    are linked in the sources' order."""

    class BuildExt(base):  # type: ignore[misc]
        def build_extensions(self) -> None:
            # once for the whole command: with --parallel, extensions build in threads that
            # share this one compiler, so each must not swap its method in and out
            serial = self.compiler.compile

            def compile(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
                largest = sorted(sources, key=lambda s: -Path(s).stat().st_size)
                with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                    done = {s: pool.submit(serial, [s], *args, **kwargs) for s in largest}
                    return [obj for s in sources for obj in done[s].result()]

            self.compiler.compile = compile
            try:
                super().build_extensions()
            finally:
                self.compiler.compile = serial

    return BuildExt


def main() -> None:  # pragma: no cover - the command line (make native)
    """``make native``: ``python -c "from westernroses import native; native.main()"`` (not
    ``-m``: importing the package runs this module before ``-m`` would run it again)."""
    built = build(force="--force" in sys.argv[1:])
    print("compiled the battle engine into build/native/" if built else "build/native/ is fresh")
