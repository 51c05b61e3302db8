"""The suite's order and lanes (tests/conftest.py): the files it queues first name real test
files (a renamed file would silently lose its place at the front of the queue), and the lanes
are dealt evenly, the same in every xdist process, a module wholly in one lane unless its
tests are dealt one by one."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import (
    COSTS,
    DEALT_BY_TEST,
    LONG_FIRST,
    ROOT,
    TEST_SECONDS,
    _groups,
    _queue_rank,
    deal_lanes,
)


def test_the_long_files_queued_first_exist() -> None:
    assert [path for path in LONG_FIRST if not (ROOT / path).is_file()] == []


def test_the_long_files_lead_the_order_xdist_queues_single_tests_in(
    request: pytest.FixtureRequest,
) -> None:
    """In this run's collected order, every test that xdist queues on its own (no group, or
    a group of one) comes in the order of :data:`LONG_FIRST`, whatever database it uses
    (pytest-django orders by that before the suite's own order is applied)."""
    items = request.session.items
    sizes = Counter(group for item in items for group in _groups(item))
    single = [i for i in items if all(sizes[g] == 1 for g in _groups(i))]
    ranks = [_queue_rank(i) for i in single]
    assert ranks == sorted(ranks), [i.nodeid for i in single if _queue_rank(i) < len(LONG_FIRST)]


def test_the_files_with_a_cost_or_dealt_by_test_exist() -> None:
    named = [*COSTS, *DEALT_BY_TEST]
    assert [path for path in named if not (ROOT / path).is_file()] == []


@dataclass
class Collected:
    """What deal_lanes reads of a collected test: its file and its id."""

    path: Path
    nodeid: str


def _collected(path: str, tests: int) -> list[Collected]:
    return [Collected(ROOT / path, f"{path}::test_{n}") for n in range(tests)]


def test_lanes_are_dealt_evenly_and_keep_a_module_together() -> None:
    visual, languages, cards = DEALT_BY_TEST
    items = [
        *_collected("tests/browser/test_a.py", 4),
        *_collected(visual, 2),
        *_collected(languages, 2),
        *_collected("tests/browser/test_b.py", 1),
        *_collected(cards, 2),
        *_collected("tests/browser/test_c.py", 7),
    ]
    lanes = deal_lanes(items, "browser", 2)
    assert list(lanes) == ["browser-1", "browser-2"]
    assert sorted(i.nodeid for lane in lanes.values() for i in lane) == sorted(
        i.nodeid for i in items
    )
    # a module not dealt by test is in one lane; each long file's two tests in both
    for path in ("tests/browser/test_a.py", "tests/browser/test_c.py"):
        assert sum(any(i.path == ROOT / path for i in lane) for lane in lanes.values()) == 1
    for path in DEALT_BY_TEST:
        assert all(sum(i.path == ROOT / path for i in lane) == 1 for lane in lanes.values())
    costs = [sum(COSTS.get(str(i.path.relative_to(ROOT)), TEST_SECONDS) for i in lane)
             for lane in lanes.values()]  # fmt: skip
    # greedy dealing, dearest first: the lanes differ by at most the dearest unit
    assert max(costs) - min(costs) <= max(COSTS[p] for p in DEALT_BY_TEST), costs
    # the same items, dealt again (as in another xdist process), give the same lanes
    again = deal_lanes(list(items), "browser", 2)
    assert {k: [i.nodeid for i in v] for k, v in again.items()} == {
        k: [i.nodeid for i in v] for k, v in lanes.items()
    }
