"""The battle engine as it was before issue 15, measured beside today's in the same run.

Why: issue 15 asks for a battle engine "three times faster" and writes the target as 12,000
random actions per CPU-second, a figure taken on the machine it was filed on (the engine ran
about 4,300 there). Machines here differ by half from one session to the next (OpenSpiel's
``python_block_dominoes`` ran 25,000 moves a CPU-second on one and 10,000 to 16,000 on
another), so an absolute rate says as much about the machine as about the engine. This row
measures the engine of commit :data:`BEFORE` (the parent of the first speed commit, 701a855)
on the same battles, in fresh processes alternated with today's, so the ratio holds whatever
machine runs it.

The old tree is unpacked from git history (``git archive``) into a temporary folder; a
checkout without that commit (a shallow clone, an exported tarball) skips the row and says so.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any, Final

#: The parent of 701a855 (23 November), the first commit of issue 15's engine work.
BEFORE: Final = "fe34005"
#: Fresh-process rounds, alternated: old, new, old, new... The best of each is kept (the
#: machine is shared; the best is the least disturbed).
ROUNDS: Final = 3
#: What both trees are asked to play: the same seeds, party, monsters and step limit as
#: ``tests.engine.battle.random_play.bench`` (whose own signature changed since).
BATTLES: Final = 10
PATHS: Final = (
    "westernroses",
    "tests/__init__.py",
    "tests/engine/__init__.py",
    "tests/engine/battle",
)

#: Run in each tree's folder: random 4-v-4 battles, setup before the clock, CPU time. Only names
#: both trees have (``demo_battle``, ``BENCH_PARTY``, ``play``) are used.
_SCRIPT: Final = f"""
import json, random, time
from tests.engine.battle import random_play as rp
from tests.engine.battle.samples import demo_battle

def rate(battles):
    rng = random.Random(1)
    starts = [demo_battle(1 + i, heroes=rp.BENCH_PARTY, monsters=4) for i in range(battles)]
    count = 0
    started = time.process_time()
    for state in starts:
        count += len(rp.play(state, rng, 400)[1])
    return count / (time.process_time() - started), count

rate(2)  # warm the caches, as the main row does
print(json.dumps(rate({BATTLES})))
"""


def _git() -> str:
    found = shutil.which("git")
    if found is None:
        raise RuntimeError("git is not on PATH: the engine before issue 15 comes from history")
    return found


def _unpack(repo: Path, into: Path) -> bool:
    """Unpack :data:`BEFORE`'s engine and sample battles into ``into``; False without it."""
    git = _git()
    known = subprocess.run(  # noqa: S603 - git, with this module's own arguments
        [git, "-C", str(repo), "cat-file", "-e", f"{BEFORE}^{{commit}}"],
        capture_output=True,
        check=False,
    )
    if known.returncode != 0:
        return False
    archive = subprocess.run(  # noqa: S603 - the same
        [git, "-C", str(repo), "archive", "--format=tar", BEFORE, *PATHS],
        capture_output=True,
        check=True,
    )
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return True


def _rate(tree: Path, *, interpreted: bool = False) -> tuple[float, int]:
    """``interpreted``: today's engine with its compiled build turned off (``WR_PURE_PYTHON``,
    ``westernroses.native``), so the row shows what compiling adds beside what the code did.
    Otherwise the switch is inherited, so today's run is compiled exactly when this process is
    (``_compiled`` reports it from here)."""
    env = {**os.environ, "PYTHONPATH": str(tree), "WR_NO_SERVICES": "1"}
    if interpreted:
        env["WR_PURE_PYTHON"] = "1"
    done = subprocess.run(  # noqa: S603 - this interpreter, with this module's script
        [sys.executable, "-c", _SCRIPT],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    rate, count = json.loads(done.stdout.strip().splitlines()[-1])
    return float(rate), int(count)


def _compiled() -> bool:
    from westernroses import native

    return native.ACTIVE


def measure(repo: Path) -> dict[str, Any] | None:
    """Both engines' best rates and their ratio, or None when the old commit is not here."""
    with tempfile.TemporaryDirectory(prefix="wr-engine-before-") as folder:
        old_tree = Path(folder)
        if not _unpack(repo, old_tree):
            return None
        old: list[tuple[float, int]] = []
        new: list[tuple[float, int]] = []
        plain: list[tuple[float, int]] = []
        for _ in range(ROUNDS):
            old.append(_rate(old_tree))
            new.append(_rate(repo))
            plain.append(_rate(repo, interpreted=True))
    best_old, best_new, best_plain = max(old), max(new), max(plain)
    return {
        "commit_before": BEFORE,
        "before_actions_per_s": best_old[0],
        "now_actions_per_s": best_new[0],
        "now_compiled": _compiled(),
        "now_interpreted_actions_per_s": best_plain[0],
        "ratio": best_new[0] / best_old[0],
        "ratio_interpreted": best_plain[0] / best_old[0],
        "rounds": ROUNDS,
        "battles": BATTLES,
        "actions_played": {"before": best_old[1], "now": best_new[1]},
        "clock": "cpu (time.process_time), fresh processes alternated, best of each",
    }
