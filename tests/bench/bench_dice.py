"""Dice and odds: engine calls against a plain ``sum(random d6)`` baseline, and the odds
endpoint against a minimal DRF endpoint on the same stack."""

from __future__ import annotations

import random

from tests.bench.timing import per_call, report


def run() -> None:
    from django.test import Client

    from westernroses import probability
    from westernroses.checks import check
    from westernroses.dice import parse, roll
    from westernroses.rng import RandomSource

    print("== dice and odds")
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

    client = Client()
    minimal = per_call(lambda: client.get("/api/schema/?format=json"), number=3, repeat=2)
    odds = per_call(lambda: client.get("/api/probability/?notation=4d%2B2&target=12"), number=50)
    tiny = per_call(lambda: client.get("/api/health/"), number=50)
    report("GET /api/probability/ 4d+2 vs 12", odds, "GET /api/health/ (minimal DRF)", tiny)
    report("GET /api/schema/", minimal, "GET /api/health/ (minimal DRF)", tiny)
