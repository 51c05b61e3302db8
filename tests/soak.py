"""How many games or battles a many-example property plays: its suite size in ``make test``,
ten times as many in ``make soak`` (``HYPOTHESIS_PROFILE=soak``; docs/test-suite.md).

Why two sizes: the suite plays enough to reach every rule (each many-game test asserts from its
tally that it did) within its time budget; a release is checked first with thousands, the same
checks, by ``make soak``."""

from __future__ import annotations

import os

#: ``make soak`` plays this many times the suite's examples.
SOAK_FACTOR = 10


def soaking() -> bool:
    """Whether this run is ``make soak`` (hypothesis's ``soak`` profile)."""
    return os.environ.get("HYPOTHESIS_PROFILE") == "soak"


def size(examples: int) -> int:
    """``examples`` in the suite, :data:`SOAK_FACTOR` times as many in ``make soak``."""
    return examples * SOAK_FACTOR if soaking() else examples
