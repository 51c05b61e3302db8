"""Battles: the engine's actions per second in random battles against a JSON round trip of the
battle state, and the apply-action endpoint against a minimal DRF endpoint (``/api/health/``)
on the same stack, both measured in the same run.

The endpoint half runs on a throwaway database of its own (created and dropped here, never the
``test`` database): a GM's 4-vs-4 battle of NPCs (no player turns, so no notifications), where
each request ends the current combatant's turn with the version the previous answer gave: the
whole path a click takes (auth, permission, row lock, engine, the log row, the viewer's view).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.bench.timing import per_call, report, section, write_json

RANDOM_BATTLES = 10
#: Best of this many runs of RANDOM_BATTLES battles (the machine is shared).
ENGINE_REPEAT = 3
#: Issue 15: random legal actions per second of CPU time, 4 v 4.
ENGINE_TARGET = 12_000
REQUESTS = 200


@contextmanager
def _throwaway_database() -> Iterator[str]:
    from django.db import connection

    settings_dict = connection.settings_dict
    old_name = settings_dict["NAME"]
    saved_test = dict(settings_dict.get("TEST") or {})
    settings_dict.setdefault("TEST", {})["NAME"] = f"bench_battle_{os.getpid()}"
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        yield name
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        settings_dict["TEST"] = saved_test


def _engine() -> dict[str, Any]:
    """Random legal actions per second (CPU time) of a 4-vs-4 battle, beside OpenSpiel's
    ``python_block_dominoes`` measured the same way in the same run (issue 15: at least
    12,000 per second), and beside a JSON round trip of the battle state."""
    from tests.bench.bench_tavern import BASELINE, dominoes_rate
    from tests.engine.battle import random_play as bench
    from tests.engine.battle.samples import demo_battle
    from westernroses import native

    state = demo_battle(1, heroes=bench.BENCH_PARTY, monsters=bench.BENCH_MONSTERS)
    data = state.to_dict()
    round_trip = per_call(lambda: json.loads(json.dumps(data)), number=500)
    bench.bench(2)  # warm the caches (parsed cards, house rules, reachability)
    rate = max(bench.bench(RANDOM_BATTLES) for _ in range(ENGINE_REPEAT))
    dominoes = dominoes_rate(1, clock=time.process_time)
    met = rate >= ENGINE_TARGET
    how = "compiled" if native.ACTIVE else "interpreted"
    report(
        f"engine ({how}): one random legal action ({rate:,.0f}/s)",
        1 / rate,
        f"{BASELINE} move ({dominoes:,.0f}/s)",
        1 / dominoes,
        target=f">= {ENGINE_TARGET:,}/s",
        met=met,
    )
    report(
        "engine: the same, beside the state's JSON",
        1 / rate,
        "JSON round trip of the state",
        round_trip,
    )
    before = _before_issue()
    return {
        "before_issue_15": before,
        "actions_per_s": rate,
        "compiled": native.ACTIVE,
        "clock": "cpu (time.process_time)",
        "battle": f"{len(bench.BENCH_PARTY)} v {bench.BENCH_MONSTERS}",
        "baseline": {"game": BASELINE, "moves_per_s": dominoes},
        "ratio_to_baseline": rate / dominoes,
        "state_json_round_trip_s": round_trip,
        "state_json_bytes": len(json.dumps(data)),
        "target_actions_per_s": ENGINE_TARGET,
        "met": met,
    }


def _before_issue() -> dict[str, Any] | None:
    """Today's engine against the engine before issue 15, fresh processes in the same run
    (``tests/bench/engine_before.py``: the issue's "three times faster", whatever the machine)."""
    from pathlib import Path

    from tests.bench import engine_before

    found = engine_before.measure(Path(__file__).resolve().parents[2])
    if found is None:
        print(f"engine before issue 15: commit {engine_before.BEFORE} is not in this checkout")
        return None
    how = "compiled" if found["now_compiled"] else "interpreted"
    report(
        f"engine now, {how} ({found['now_actions_per_s']:,.0f}/s)",
        1 / found["now_actions_per_s"],
        f"the engine before issue 15 ({found['before_actions_per_s']:,.0f}/s)",
        1 / found["before_actions_per_s"],
        target="<= 0.33x (three times faster)",
        met=found["ratio"] >= 3,
    )
    report(
        f"engine now, interpreted ({found['now_interpreted_actions_per_s']:,.0f}/s)",
        1 / found["now_interpreted_actions_per_s"],
        f"the engine before issue 15 ({found['before_actions_per_s']:,.0f}/s)",
        1 / found["before_actions_per_s"],
    )
    return found


def _battle(gm: Any, per_side: int = 4) -> Any:
    """A started NPC battle of ``per_side`` against ``per_side`` run by ``gm``: the benchmark's
    4 against 4, or a crowd (20 against 20: issue 41's 40 combatants) on a larger field, in
    columns of ten."""
    from battles import services
    from campaign.models import Campaign, Membership, Role
    from campaign.permissions import access_for

    crowd = per_side > 4
    campaign = Campaign.objects.create(name=f"Bench {per_side}", created_by=gm)
    Membership.objects.create(campaign=campaign, user=gm, role=Role.GM)
    battle = services.battle_create(
        campaign=campaign,
        by=access_for(gm, campaign),
        created_by=gm,
        name=f"Bench {per_side}",
        width=16 if crowd else 12,
        height=10 if crowd else 8,
    )
    for side, x, step in (("heroes", 1, -1), ("enemies", 14 if crowd else 10, 1)):
        for row in range(per_side):
            services.battle_npc_place(
                battle_id=battle.pk,
                by=gm,
                npc=services.NpcSpec(
                    name=f"{side} {row}",
                    stats={"pwr": 10, "cha": 10, "int": 10, "ins": 10},
                    hp=60,
                    speed=3 + row % 4,
                    range=3,
                    element="water",
                    weapons=("spear",),
                ),
                side=side,
                position=[x + step * (row // 10), row % 10] if crowd else [x, row * 2],
            )
    battle.refresh_from_db()
    services.battle_action_apply(
        battle_id=battle.pk, actor=gm, action={"type": "start"}, expected_version=battle.version
    )
    battle.refresh_from_db()
    return battle


def _endpoint() -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from accounts.token_cache import CHANGE_MARK_SECONDS

    gm = get_user_model().objects.create(username="bench-gm")
    token = Token.objects.create(user=gm)
    battle = _battle(gm)
    # A user just saved blocks caching her token for a few seconds (accounts/token_cache.py):
    # measured at once, every request would read the token from the database, as no
    # settled user's request does.
    time.sleep(CHANGE_MARK_SECONDS + 0.5)
    client = Client(HTTP_AUTHORIZATION=f"Token {token.key}")
    url = f"/api/battles/{battle.pk}/actions/"
    now = {"version": battle.version, "current": battle.state["current"]}

    def end_turn() -> None:
        response = client.post(
            url,
            {
                "action": {"type": "end_turn", "combatant": now["current"]},
                "expected_version": now["version"],
            },
            content_type="application/json",
        )
        assert response.status_code == 201, response.content
        view = response.json()["view"]
        now["version"], now["current"] = view["version"], view["turn"]["current"]

    view_url = f"/api/battles/{battle.pk}/state/"
    for _ in range(20):  # warm up every path
        client.get("/api/health/")
        end_turn()
        client.get(f"{view_url}?since={now['version']}")
    health = per_call(lambda: client.get("/api/health/"), number=REQUESTS)
    apply = per_call(end_turn, number=REQUESTS // 4)
    unchanged = per_call(lambda: client.get(f"{view_url}?since={now['version']}"), number=REQUESTS)
    full = per_call(lambda: client.get(view_url), number=REQUESTS // 4)
    baseline = "GET /api/health/ (minimal DRF)"
    report("POST /api/battles/{id}/actions/ (end turn)", apply, baseline, health)
    report("GET  /api/battles/{id}/state/ (first load)", full, baseline, health)
    report("GET  /api/battles/{id}/state/?since= (204)", unchanged, baseline, health)


def run_engine() -> None:
    """The engine half alone (no database): ``python -m tests.bench battle_engine``."""
    section("battle engine")
    write_json("battle_engine", _engine())


def run() -> None:
    section("battles")
    write_json("battle_engine", _engine())
    with _throwaway_database():
        _endpoint()
