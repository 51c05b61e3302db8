"""The web rows of issue 15, measured on a real server: gunicorn (the Procfile's web command,
one sync worker) under the production settings, on a throwaway PostgreSQL database and the
run's Redis, every row a p50 ratio to ``GET /api/health/`` on the same server in the same run.

Rows and their targets (each printed with pass/fail and written as JSON to
``test-artifacts/bench/web.json``, or ``$WR_BENCH_DIR/web.json``):

* ``POST /api/battles/{id}/actions/`` (a GM's 4-vs-4 NPC battle, each request ends the current
  turn with the version the previous answer gave): at most 3× health;
* ``GET /api/battles/{id}/state/?since=<current>`` (nothing changed, 204): at most 1.5×, once
  with a token and once with a signed-in session's cookie (sessions live in the cache with the
  database behind: ``docs/decisions/sessions-in-cache.md``);
* ``GET /api/battles/{id}/state/`` (first load): at most 5×;
* the same move on a battle of 40 combatants (20 against 20) against one of 4 (2 against 2),
  interleaved: at most 1.2× (issue 41: a move flat in the size of the battle);
* ``POST /api/tavern/tables/{id}/actions/`` (two users at a RAIGO table, each request the
  first move of whoever the table waits on; a finished game is replaced, untimed): at most 3×,
  as the battle's move;
* ``GET /api/tavern/tables/{id}/state/?since=<current>`` (204): at most 1.5×, as the battle's;
* ``GET /campaigns/{id}/dashboard/`` with 3 characters: at most 5×; with 100 characters
  against the same page with 3: at most 1.3× (the two campaigns' p50s, not health);
* ``GET /api/schema/``: built once per process, so a warm call is reported beside health (and
  the first call's time beside it).

``python -m tests.bench web_polls`` (:func:`run_polls`) measures the unchanged polls alone (the
battle's with a token and with a session cookie, the tavern's with a token and with a
cookie) against health on a server of their own, in a fraction of the time: for comparing a
change to the polls, not for ``docs/performance.md``.

Beside the wall-time rows, the server's own CPU time per request (read from ``/proc``) for the
polls and the dashboard, against health's: on a machine other programs load, a longer request
waits for a core more often than a short one, so its wall-time ratio grows with the load while
its CPU-time ratio does not.

The seed runs in this process (the factories, the services); the server reads the same
database. Requests go one at a time over a new connection each (gunicorn's sync worker closes
it), timed from connect to the last byte.
"""

from __future__ import annotations

import http.client
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.bench.timing import amount, record, section
from tests.load.processes import ROOT, free_port, procfile

REQUESTS = 300
#: The running server's master process id (its CPU time is read from /proc: ``_server_cpu``).
SERVER: dict[str, int] = {}
#: ratio targets, from the issue's table
TARGETS = {
    "apply_move": 3.0,
    "poll_unchanged": 1.5,
    "poll_unchanged_cookie": 1.5,
    "tavern_move": 3.0,
    "tavern_poll_unchanged": 1.5,
    "first_load": 5.0,
    "dashboard_3": 5.0,
    "dashboard_100_vs_3": 1.3,
    "apply_crowd_vs_4": 1.2,
}
#: the crowded battle's combatants a side (issue 41: a move flat from 4 to 40 combatants)
CROWD = 20
#: the large campaign's party (the small one has 3)
LARGE_PARTY = 100


@contextmanager
def _throwaway_database() -> Iterator[str]:
    from django.db import connection

    settings_dict = connection.settings_dict
    old_name = settings_dict["NAME"]
    saved_test = dict(settings_dict.get("TEST") or {})
    settings_dict.setdefault("TEST", {})["NAME"] = f"bench_web_{os.getpid()}"
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        yield name
    finally:
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)
        settings_dict["TEST"] = saved_test


@contextmanager
def _server(database: str, secret_key: str) -> Iterator[int]:
    """The Procfile's web process on a free port, one worker, production settings."""
    from django.db import connection

    base = connection.settings_dict
    url = f"postgres://{base['USER']}@{base['HOST']}:{base['PORT'] or 5432}/{database}"
    port = free_port()
    work = Path(tempfile.mkdtemp(prefix="wr-bench-web-"))
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": secret_key,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "DATABASE_URL": url,
        "PORT": str(port),
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "1",
        "MEDIA_ROOT": str(work / "media"),
        "LOG_LEVEL": "WARNING",
        "API_USER_RATE": "1000000/hour",
        "API_POLL_RATE": "1000000/hour",
        # a keyspace of its own: this run's database numbers its rows from 1 again, and a
        # head or a role an earlier run left under the same ids would send polls to the
        # database until it expired
        "CACHE_KEY_PREFIX": f"bench-web-{secrets.token_hex(4)}",
        "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}",
    }
    log = (work / "web.log").open("wb")
    # The release step's collectstatic: production pages name their static files by hash
    # (minutes on a loaded machine, so skipped while its manifest is newer than every file).
    if not _static_fresh():
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=ROOT,
            env=env,
            check=True,
            stdout=log,
            stderr=log,
        )
    proc = subprocess.Popen(  # noqa: S603 - the Procfile's own command
        procfile()["web"], cwd=ROOT, env=env, stdout=log, stderr=log
    )
    SERVER["pid"] = proc.pid
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if _get(port, "/api/health/")[0] == 200:
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"gunicorn did not start; see {work / 'web.log'}") from None
                time.sleep(0.3)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def _static_fresh() -> bool:
    """True when ``staticfiles/`` holds a manifest newer than every project static file."""
    manifest = ROOT / "staticfiles" / "staticfiles.json"
    if not manifest.exists():
        return False
    built = manifest.stat().st_mtime
    sources = [ROOT / "static", *ROOT.glob("*/static")]
    return all(
        f.stat().st_mtime < built
        for d in sources
        if d.is_dir()
        for f in d.rglob("*")
        if f.is_file()
    )


def _request(
    port: int, method: str, path: str, headers: dict[str, str], body: bytes | None = None
) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        body = response.read()
        if response.status in (301, 302):
            body = (response.getheader("Location") or "").encode()
        return response.status, body
    finally:
        conn.close()


def _get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    return _request(port, "GET", path, headers or {})


def _p50(
    fn: Callable[[], Any], number: int, after: Callable[[Any], object] | None = None
) -> list[float]:
    """``number`` timings of ``fn``; ``after`` gets each answer outside the timed window (the
    client's own work on it, such as reading the next version out of a move's answer, is
    not the server's time)."""
    times = []
    for _ in range(number):
        start = time.perf_counter()
        answer = fn()
        times.append(time.perf_counter() - start)
        if after is not None:
            after(answer)
    return times


def _seed_battle(gm: Any, per_side: int = 4) -> Any:
    from tests.bench.bench_battle import _battle

    return _battle(gm, per_side)


def _seed_tavern(host: Any, guest: Any) -> int:
    """A started open RAIGO table of two users (``host`` and ``guest``)."""
    from tests.minigames.conftest import two_humans

    return int(two_humans("raigo", host, guest).pk)


def _seed_party(gm: Any, characters: int) -> Any:
    """A campaign of ``characters`` players' characters (one player each) run by ``gm``."""
    from campaign.models import Membership, Role
    from tests.factories import CampaignFactory, CharacterFactory, UserFactory

    campaign = CampaignFactory(created_by=gm, name=f"Party of {characters}")
    Membership.objects.create(campaign=campaign, user=gm, role=Role.GM)
    for i in range(characters):
        player = UserFactory(username=f"bench-{characters}-{i}")
        Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER)
        CharacterFactory(owner=player, campaign=campaign, name=f"Hero {i}")
    return campaign


def _session_cookie(user: Any, secret_key: str) -> str:
    """A logged-in session for ``user`` on a server whose SECRET_KEY is ``secret_key`` (the
    session data is signed and its auth hash is an HMAC under it)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.test import override_settings

    with override_settings(SECRET_KEY=secret_key):  # it signs the session data too
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "accounts.backends.CachedModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[1] == str(pid):  # the parent's id follows the state
            found.append(int(stat.parent.name))
    return found


def _server_cpu() -> float:
    """CPU seconds the web server's processes (the master and its workers, every thread) have
    spent on a core so far, from ``/proc/<pid>/task/*/schedstat`` (nanoseconds; 0 where the
    kernel keeps none). Unlike wall time it does not grow with the load other programs put on
    a shared machine: the rows' ``(server CPU)`` figures."""
    master = SERVER.get("pid")
    if master is None:
        return 0.0
    total = 0
    for pid in [master, *_children(master)]:
        for task in Path(f"/proc/{pid}/task").glob("*/schedstat"):
            try:
                total += int(task.read_text().split()[0])
            except (OSError, ValueError, IndexError):
                continue
    return total / 1e9


def _cpu_row(name: str, cpu: dict[str, list[float]], key: str, target: float | None) -> None:
    """The server's CPU time per request for ``key`` against health's, in this run."""
    spent, count = cpu[key]
    base_spent, base_count = cpu["health"]
    if not count or not base_count or not base_spent:
        return
    per, base = spent / count, base_spent / base_count
    ratio = per / base
    met = None if target is None else ratio <= target
    limit = "" if target is None else f"target ≤ {target:g}×  {'pass' if met else 'FAIL'}"
    print(f"{name:<48} {per * 1e3:8.2f} ms CPU  {ratio:7.2f}×  {limit}")
    record(
        name,
        value=f"{amount(per)} CPU",
        ratio=ratio,
        baseline=f"GET /api/health/ ({amount(base)} CPU)",
        target=None if target is None else f"<= {target:g}x",
        met=met,
    )


def _row(name: str, value: float, baseline: float, target: float | None) -> dict[str, Any]:
    ratio = value / baseline if baseline else float("inf")
    verdict = "" if target is None else ("pass" if ratio <= target else "FAIL")
    limit = "" if target is None else f"target ≤ {target:g}×  {verdict}"
    print(f"{name:<48} {value * 1e3:8.2f} ms p50  {ratio:7.2f}×  {limit}")
    record(
        name,
        value=f"{amount(value)} p50",
        ratio=ratio,
        baseline=f"GET /api/health/ ({amount(baseline)} p50)",
        target=None if target is None else f"<= {target:g}x",
        met=None if target is None else ratio <= target,
    )
    return {
        "p50_s": value,
        "baseline_p50_s": baseline,
        "ratio": ratio,
        "target": target,
        "passed": None if target is None else ratio <= target,
    }


def _size_row(name: str, large: float, baseline: str, small: float, target: float) -> dict:
    """A p50 against the same request on something smaller (not health): printed, recorded
    for docs/performance.md, and returned for the JSON."""
    ratio = large / small
    met = ratio <= target
    print(f"{name:<48} {ratio:17.2f}×  target ≤ {target:g}×  {'pass' if met else 'FAIL'}")
    record(
        name,
        value=f"{amount(large)} p50",
        ratio=ratio,
        baseline=baseline,
        target=f"<= {target:g}x",
        met=met,
    )
    return {"ratio": ratio, "target": target, "passed": met}


def _measure(port: int, seeded: dict[str, Any]) -> dict[str, Any]:
    api = {"Authorization": f"Token {seeded['token']}"}
    page = {"Cookie": seeded["cookie"]}
    battle = seeded["battle"]
    view_url = f"/api/battles/{battle}/state/"
    now = {"version": seeded["version"], "current": seeded["current"]}

    def turns(
        battle: int, now: dict[str, Any]
    ) -> tuple[Callable[[], tuple[int, bytes]], Callable[[tuple[int, bytes]], None]]:
        """Ending the current turn of ``battle`` (``now``: its version and whose turn), and
        reading the next from the answer (not timed: the client's work)."""
        url = f"/api/battles/{battle}/actions/"

        def end_turn() -> tuple[int, bytes]:
            body = json.dumps(
                {
                    "action": {"type": "end_turn", "combatant": now["current"]},
                    "expected_version": now["version"],
                }
            ).encode()
            return _request(port, "POST", url, {**api, "Content-Type": "application/json"}, body)

        def ended(answer: tuple[int, bytes]) -> None:
            status, content = answer
            assert status == 201, content[:500]
            view = json.loads(content)["view"]
            now["version"], now["current"] = view["version"], view["turn"]["current"]

        return end_turn, ended

    end_turn, ended = turns(battle, now)
    crowd_turn, crowd_ended = turns(seeded["crowd"], dict(seeded["crowd_now"]))
    few_turn, few_ended = turns(seeded["few"], dict(seeded["few_now"]))

    tavern = {"table": seeded["tavern"], "payload": {}}
    players = [{"Authorization": f"Token {t}"} for t in seeded["tavern_tokens"]]

    def tavern_next() -> None:
        """Whose move it is and which (not timed: the client's work)."""
        for _ in range(3):
            for headers in players:
                state = f"/api/tavern/tables/{tavern['table']}/state/"
                status, content = _get(port, state, headers)
                assert status == 200, content[:500]
                payload = json.loads(content)
                if payload["moves"]:
                    tavern["payload"], tavern["headers"] = payload, headers
                    return
            # finished (or nobody to move): a new table
            tavern["table"] = seeded["new_tavern"]()

    def tavern_move() -> tuple[int, bytes]:
        payload = tavern["payload"]
        body = json.dumps(
            {"action": payload["moves"][0]["action"], "expected_version": payload["version"]}
        ).encode()
        headers = {**tavern["headers"], "Content-Type": "application/json"}
        path = f"/api/tavern/tables/{tavern['table']}/actions/"
        return _request(port, "POST", path, headers, body)

    def tavern_moved(answer: tuple[int, bytes]) -> None:
        status, content = answer
        assert status == 201, content[:500]
        tavern["version"] = json.loads(content)["version"]
        tavern_next()

    def tavern_poll() -> None:
        path = f"/api/tavern/tables/{tavern['table']}/state/?since={tavern['payload']['version']}"
        status, _ = _get(port, path, players[0])
        assert status == 204, status

    tavern_next()

    def health() -> None:
        assert _get(port, "/api/health/")[0] == 200

    def poll() -> None:
        status, _ = _get(port, f"{view_url}?since={now['version']}", api)
        assert status == 204, status

    def poll_cookie() -> None:
        status, _ = _get(port, f"{view_url}?since={now['version']}", page)
        assert status == 204, status

    def first_load() -> None:
        status, content = _get(port, view_url, api)
        assert status == 200, (status, content[:500])

    def dashboard(campaign: int) -> Callable[[], None]:
        def get() -> None:
            status, content = _get(port, f"/campaigns/{campaign}/dashboard/", page)
            assert status == 200, (status, content[:500])

        return get

    def schema() -> None:
        status, content = _get(port, "/api/schema/", api)
        assert status == 200, (status, content[:500])

    start = time.perf_counter()
    schema()  # the first call in this process builds it
    schema_first = time.perf_counter() - start
    small, large = dashboard(seeded["small"]), dashboard(seeded["large"])
    for _ in range(20):  # warm every path
        health(), ended(end_turn()), poll(), poll_cookie(), first_load(), small(), large()
        tavern_moved(tavern_move()), tavern_poll(), crowd_ended(crowd_turn())
        few_ended(few_turn())
    rounds: dict[str, list[float]] = {
        k: []
        for k in (
            "health",
            "apply",
            "apply_crowd",
            "apply_few",
            "poll",
            "poll_cookie",
            "first",
            "small",
            "large",
            "schema",
            "tavern_move",
            "tavern_poll",
        )
    }
    # the server's CPU time and request count per row (see _server_cpu)
    cpu: dict[str, list[float]] = {k: [0.0, 0] for k in ("health", "poll", "poll_cookie")}
    cpu.update(small=[0.0, 0], large=[0.0, 0])

    def timed(key: str, fn: Callable[[], Any], number: int, after: Any = None) -> list[float]:
        before = _server_cpu()
        times = _p50(fn, number, after)
        if key in cpu:
            cpu[key][0] += _server_cpu() - before
            cpu[key][1] += number
        return times

    # Interleaved in rounds, so a load change on the machine touches every row alike.
    for _ in range(10):
        rounds["health"] += timed("health", health, REQUESTS // 10)
        rounds["apply"] += timed("apply", end_turn, REQUESTS // 20, ended)
        rounds["apply_crowd"] += timed("apply_crowd", crowd_turn, REQUESTS // 20, crowd_ended)
        rounds["apply_few"] += timed("apply_few", few_turn, REQUESTS // 20, few_ended)
        rounds["poll"] += timed("poll", poll, REQUESTS // 10)
        rounds["poll_cookie"] += timed("poll_cookie", poll_cookie, REQUESTS // 10)
        rounds["first"] += timed("first", first_load, REQUESTS // 20)
        rounds["small"] += timed("small", small, REQUESTS // 20)
        rounds["large"] += timed("large", large, REQUESTS // 20)
        rounds["schema"] += timed("schema", schema, 3)
        rounds["tavern_move"] += timed("tavern_move", tavern_move, REQUESTS // 20, tavern_moved)
        rounds["tavern_poll"] += timed("tavern_poll", tavern_poll, REQUESTS // 10)
    p50 = {k: statistics.median(v) for k, v in rounds.items()}
    h = p50["health"]
    print(f"{'GET /api/health/ (baseline)':<48} {h * 1e3:8.2f} ms p50")
    rows = {
        "apply_move": _row(
            "POST /api/battles/{id}/actions/ (end turn)", p50["apply"], h, TARGETS["apply_move"]
        ),
        "poll_unchanged": _row(
            "GET  /api/battles/{id}/state/?since= (204)",
            p50["poll"],
            h,
            TARGETS["poll_unchanged"],
        ),
        "poll_unchanged_cookie": _row(
            "GET  /api/battles/{id}/state/?since= (204, session cookie)",
            p50["poll_cookie"],
            h,
            TARGETS["poll_unchanged_cookie"],
        ),
        "first_load": _row(
            "GET  /api/battles/{id}/state/ (first load)", p50["first"], h, TARGETS["first_load"]
        ),
        "tavern_move": _row(
            "POST /api/tavern/tables/{id}/actions/ (RAIGO)",
            p50["tavern_move"],
            h,
            TARGETS["tavern_move"],
        ),
        "tavern_poll_unchanged": _row(
            "GET  /api/tavern/tables/{id}/state/?since= (204)",
            p50["tavern_poll"],
            h,
            TARGETS["tavern_poll_unchanged"],
        ),
        "dashboard_3": _row(
            "GET  dashboard, 3 characters", p50["small"], h, TARGETS["dashboard_3"]
        ),
        f"dashboard_{LARGE_PARTY}": _row(
            f"GET  dashboard, {LARGE_PARTY} characters", p50["large"], h, None
        ),
        "schema": _row("GET  /api/schema/ (warm)", p50["schema"], h, None),
    }
    rows["dashboard_100_vs_3"] = _size_row(
        f"dashboard, {LARGE_PARTY} characters against 3",
        p50["large"],
        f"the dashboard with 3 characters ({amount(p50['small'])} p50)",
        p50["small"],
        TARGETS["dashboard_100_vs_3"],
    )
    rows["apply_crowd_vs_4"] = _size_row(
        f"POST /api/battles/{{id}}/actions/ (end turn), {CROWD * 2} combatants against 4",
        p50["apply_crowd"],
        f"the same move, 2 against 2 ({amount(p50['apply_few'])} p50)",
        p50["apply_few"],
        TARGETS["apply_crowd_vs_4"],
    )
    _cpu_row(
        "GET  /api/battles/{id}/state/?since= (204; server CPU)",
        cpu,
        "poll",
        TARGETS["poll_unchanged"],
    )
    _cpu_row(
        "GET  /api/battles/{id}/state/?since= (204, session cookie; server CPU)",
        cpu,
        "poll_cookie",
        TARGETS["poll_unchanged_cookie"],
    )
    _cpu_row("GET  dashboard, 3 characters (server CPU)", cpu, "small", TARGETS["dashboard_3"])
    _cpu_row(f"GET  dashboard, {LARGE_PARTY} characters (server CPU)", cpu, "large", None)
    print(f"{'GET  /api/schema/ (first call in the process)':<48} {schema_first * 1e3:8.2f} ms")
    record("GET  /api/schema/ (first call in the process)", value=amount(schema_first))
    rows["schema"]["first_call_s"] = schema_first
    return {"baseline": "GET /api/health/", "baseline_p50_s": h, "rows": rows}


def run() -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    section("web (gunicorn, one sync worker, production settings; p50 ratios to /api/health/)")
    with _throwaway_database() as database:
        secret_key = secrets.token_urlsafe(50)
        gm = get_user_model().objects.create(username="bench-gm")
        token = Token.objects.create(user=gm)
        battle = _seed_battle(gm)
        crowd = _seed_battle(gm, CROWD)
        few = _seed_battle(gm, 2)
        guest = get_user_model().objects.create(username="bench-guest")
        guest_token = Token.objects.create(user=guest)
        seeded: dict[str, Any] = {
            "tavern": _seed_tavern(gm, guest),
            "tavern_tokens": [token.key, guest_token.key],
            "new_tavern": lambda: _seed_tavern(gm, guest),
            "token": token.key,
            "cookie": _session_cookie(gm, secret_key),
            "battle": battle.pk,
            "version": battle.version,
            "current": battle.state["current"],
            "crowd": crowd.pk,
            "crowd_now": {"version": crowd.version, "current": crowd.state["current"]},
            "few": few.pk,
            "few_now": {"version": few.version, "current": few.state["current"]},
            "small": _seed_party(gm, 3).pk,
            "large": _seed_party(gm, LARGE_PARTY).pk,
        }
        with _server(database, secret_key) as port:
            results = _measure(port, seeded)
    out = Path(os.environ.get("WR_BENCH_DIR", "test-artifacts/bench")) / "web.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{'(written to ' + str(out) + ')':<48}")
    return results


def run_polls(rounds: int = 10) -> dict[str, Any]:
    """The unchanged polls alone, each against health in the same run (wall p50 and the
    server's CPU per request), interleaved in ``rounds`` as :func:`run` interleaves all."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    section("web polls (gunicorn, one sync worker, production settings; ratios to /api/health/)")
    with _throwaway_database() as database:
        secret_key = secrets.token_urlsafe(50)
        gm = get_user_model().objects.create(username="bench-gm")
        guest = get_user_model().objects.create(username="bench-guest")
        token = Token.objects.create(user=gm)
        battle = _seed_battle(gm)
        tavern = _seed_tavern(gm, guest)
        cookie = _session_cookie(gm, secret_key)
        with _server(database, secret_key) as port:
            api, page = {"Authorization": f"Token {token.key}"}, {"Cookie": cookie}
            tavern_version = json.loads(_get(port, f"/api/tavern/tables/{tavern}/state/", api)[1])
            paths = {
                "poll": (f"/api/battles/{battle.pk}/state/?since={battle.version}", api),
                "poll_cookie": (f"/api/battles/{battle.pk}/state/?since={battle.version}", page),
                "tavern_poll": (
                    f"/api/tavern/tables/{tavern}/state/?since={tavern_version['version']}",
                    api,
                ),
                "tavern_poll_cookie": (
                    f"/api/tavern/tables/{tavern}/state/?since={tavern_version['version']}",
                    page,
                ),
            }

            def health() -> None:
                assert _get(port, "/api/health/")[0] == 200

            def poll(key: str) -> Callable[[], None]:
                path, headers = paths[key]

                def get() -> None:
                    status, _ = _get(port, path, headers)
                    assert status == 204, status

                return get

            calls = {"health": health, **{key: poll(key) for key in paths}}
            for _ in range(20):
                for call in calls.values():
                    call()
            times: dict[str, list[float]] = {key: [] for key in calls}
            cpu: dict[str, list[float]] = {key: [0.0, 0] for key in calls}
            for _ in range(rounds):
                for key, call in calls.items():
                    before = _server_cpu()
                    times[key] += _p50(call, REQUESTS // 10)
                    cpu[key][0] += _server_cpu() - before
                    cpu[key][1] += REQUESTS // 10
    p50 = {k: statistics.median(v) for k, v in times.items()}
    h = p50["health"]
    print(f"{'GET /api/health/ (baseline)':<48} {h * 1e3:8.2f} ms p50")
    names = {
        "poll": ("GET  /api/battles/{id}/state/?since= (204)", TARGETS["poll_unchanged"]),
        "poll_cookie": (
            "GET  /api/battles/{id}/state/?since= (204, session cookie)",
            TARGETS["poll_unchanged_cookie"],
        ),
        "tavern_poll": (
            "GET  /api/tavern/tables/{id}/state/?since= (204)",
            TARGETS["tavern_poll_unchanged"],
        ),
        "tavern_poll_cookie": (
            "GET  /api/tavern/tables/{id}/state/?since= (204, session cookie)",
            TARGETS["tavern_poll_unchanged"],
        ),
    }
    rows = {key: _row(name, p50[key], h, target) for key, (name, target) in names.items()}
    for key, (name, target) in names.items():
        _cpu_row(f"{name[:-1]}; server CPU)", cpu, key, target)
    return {"baseline": "GET /api/health/", "baseline_p50_s": h, "rows": rows}
