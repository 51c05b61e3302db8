"""Dice and odds: engine calls against a plain ``sum(random d6)`` baseline, and the odds
endpoint against a minimal DRF endpoint on the same stack."""

from __future__ import annotations

import random
import time
from typing import Any

from tests.bench.timing import per_call, report, section, write_json

#: Issue 15: exact odds of a 100d check, warm, in at most this many seconds...
ODDS_100D_TARGET = 0.5e-3
#: ... and at least this many times faster than icepool on every pool from 1d to 100d.
ODDS_LEAD_TARGET = 7.0
#: Turns of check_odds and icepool per pool (best of each, CPU time).
ODDS_ROUNDS = 7


def _odds_against_icepool() -> dict[str, Any]:
    """``check_odds`` beside icepool (an independent exact dice library) on the same checks,
    every pool from 1d to 100d, both warm (each pool's distribution already built), in one
    run. The two are timed in turns, pool by pool, best of several turns in CPU time, so a busy
    machine slows both alike; the fractions are the same (``tests/engine/test_probability.py``
    compares them)."""
    from tests.engine.icepool_odds import icepool_check_odds
    from westernroses import probability

    pools: dict[str, Any] = {}
    for dice in range(1, 101):
        modifier, target = 5, (7 * dice) // 2

        def ours(n: int = dice, m: int = modifier, t: int = target) -> object:
            return probability.check_odds(n, m, t)

        def theirs(n: int = dice, m: int = modifier, t: int = target) -> object:
            return icepool_check_odds(n, m, t)

        ours()
        theirs()
        fast = slow = float("inf")
        for _ in range(ODDS_ROUNDS):  # in turns, so a busy spell slows both alike
            fast = min(fast, per_call(ours, number=100, repeat=1, clock=time.process_time))
            slow = min(slow, per_call(theirs, number=2, repeat=1, clock=time.process_time))
        pools[str(dice)] = {"check_odds_s": fast, "icepool_s": slow, "lead": slow / fast}
    hundred = pools["100"]
    report(
        f"check_odds 100d+5 vs 350 (warm, {hundred['lead']:.0f}× faster)",
        hundred["check_odds_s"],
        "icepool, the same odds",
        hundred["icepool_s"],
        target=f"<= {ODDS_100D_TARGET * 1e3:.1f} ms",
        met=hundred["check_odds_s"] <= ODDS_100D_TARGET,
    )
    weakest = min(pools, key=lambda k: pools[k]["lead"])
    lead = pools[weakest]["lead"]
    report(
        f"check_odds, weakest pool 1d..100d ({weakest}d, {lead:.1f}× faster)",
        pools[weakest]["check_odds_s"],
        "icepool, the same odds",
        pools[weakest]["icepool_s"],
        target=f">= {ODDS_LEAD_TARGET:.0f}× faster on every pool",
        met=lead >= ODDS_LEAD_TARGET,
    )
    return {
        "check": "Nd+5 vs floor(3.5 N)",
        "pools": pools,
        "check_odds_100d_s": hundred["check_odds_s"],
        "target_100d_s": ODDS_100D_TARGET,
        "weakest_pool": int(weakest),
        "weakest_lead": lead,
        "target_lead": ODDS_LEAD_TARGET,
        "met": hundred["check_odds_s"] <= ODDS_100D_TARGET and lead >= ODDS_LEAD_TARGET,
    }


def run() -> None:
    from django.test import Client

    from westernroses import probability
    from westernroses.checks import check
    from westernroses.dice import parse, roll
    from westernroses.rng import RandomSource

    section("dice and odds")
    rnd = random.Random(1)
    baseline = per_call(lambda: sum(rnd.randint(1, 6) for _ in range(4)), number=20000)
    rng = RandomSource(seed=1)
    expr = parse("4d+2")
    report(
        "roll 4d+2 (seeded, verifiable)",
        per_call(lambda: roll(expr, rng), number=20000),
        "random.randint ×4",
        baseline,
    )
    report(
        "check 4d+2 vs 12",
        per_call(lambda: check(4, 2, 12, rng), number=20000),
        "random.randint ×4",
        baseline,
    )
    report(
        "parse '2x(3d+1)+4-2'",
        per_call(lambda: parse("2x(3d+1)+4-2"), number=20000),
        "random.randint ×4",
        baseline,
    )
    report(
        "check_odds 100d+5 vs 350 (cached)",
        per_call(lambda: probability.check_odds(100, 5, 350), number=50),
        "random.randint ×4",
        baseline,
    )
    write_json("odds", _odds_against_icepool())

    client = Client()
    minimal = per_call(lambda: client.get("/api/schema/?format=json"), number=3, repeat=2)
    odds = per_call(lambda: client.get("/api/probability/?notation=4d%2B2&target=12"), number=50)
    tiny = per_call(lambda: client.get("/api/health/"), number=50)
    report("GET /api/probability/ 4d+2 vs 12", odds, "GET /api/health/ (minimal DRF)", tiny)
    report("GET /api/schema/", minimal, "GET /api/health/ (minimal DRF)", tiny)
