"""The web rows of issue 15, measured on a real server: gunicorn (the Procfile's web command,
one sync worker) under the production settings, on a throwaway PostgreSQL database and the
run's Redis, every row a p50 ratio to ``GET /api/health/`` on the same server in the same run.

Rows and their targets (each printed with pass/fail and written as JSON to
``test-artifacts/bench/web.json``, or ``$WR_BENCH_DIR/web.json``):

* ``POST /api/battles/{id}/actions/`` (a GM's 4-vs-4 NPC battle, each request ends the current
  turn with the version the previous answer gave): at most 3× health;
* ``GET /api/battles/{id}/view/?since=<current>`` (nothing changed, 204): at most 1.5×;
* ``GET /api/battles/{id}/view/`` (first load): at most 5×;
* ``GET /campaigns/{id}/dashboard/`` with 33 characters against the same page with 3: at most
  1.3× (the two campaigns' p50s, not health);
* ``GET /api/schema/``: built once per process, so a warm call is reported beside health (and
  the first call's time beside it).

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

from tests.load.processes import ROOT, free_port, procfile

REQUESTS = 300
#: ratio targets, from the issue's table
TARGETS = {
    "apply_move": 3.0,
    "poll_unchanged": 1.5,
    "first_load": 5.0,
    "dashboard_33_vs_3": 1.3,
}


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


def _seed_battle(gm: Any) -> Any:
    from tests.bench.bench_battle import _battle

    return _battle(gm)


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
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def _row(name: str, value: float, baseline: float, target: float | None) -> dict[str, Any]:
    ratio = value / baseline if baseline else float("inf")
    verdict = "" if target is None else ("pass" if ratio <= target else "FAIL")
    limit = "" if target is None else f"target ≤ {target:g}×  {verdict}"
    print(f"{name:<48} {value * 1e3:8.2f} ms p50  {ratio:7.2f}×  {limit}")
    return {
        "p50_s": value,
        "baseline_p50_s": baseline,
        "ratio": ratio,
        "target": target,
        "passed": None if target is None else ratio <= target,
    }


def _measure(port: int, seeded: dict[str, Any]) -> dict[str, Any]:
    api = {"Authorization": f"Token {seeded['token']}"}
    page = {"Cookie": seeded["cookie"]}
    battle = seeded["battle"]
    url = f"/api/battles/{battle}/actions/"
    view_url = f"/api/battles/{battle}/view/"
    now = {"version": seeded["version"], "current": seeded["current"]}

    def end_turn() -> tuple[int, bytes]:
        body = json.dumps(
            {
                "action": {"type": "end_turn", "combatant": now["current"]},
                "expected_version": now["version"],
            }
        ).encode()
        return _request(port, "POST", url, {**api, "Content-Type": "application/json"}, body)

    def ended(answer: tuple[int, bytes]) -> None:
        """Whose turn it is now, from the move's answer (not timed: the client's work)."""
        status, content = answer
        assert status == 201, content[:500]
        view = json.loads(content)["view"]
        now["version"], now["current"] = view["version"], view["turn"]["current"]

    def health() -> None:
        assert _get(port, "/api/health/")[0] == 200

    def poll() -> None:
        status, _ = _get(port, f"{view_url}?since={now['version']}", api)
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
        health(), ended(end_turn()), poll(), first_load(), small(), large()
    rounds: dict[str, list[float]] = {
        k: [] for k in ("health", "apply", "poll", "first", "small", "large", "schema")
    }
    # Interleaved in rounds, so a load change on the machine touches every row alike.
    for _ in range(10):
        rounds["health"] += _p50(health, REQUESTS // 10)
        rounds["apply"] += _p50(end_turn, REQUESTS // 20, ended)
        rounds["poll"] += _p50(poll, REQUESTS // 10)
        rounds["first"] += _p50(first_load, REQUESTS // 20)
        rounds["small"] += _p50(small, REQUESTS // 20)
        rounds["large"] += _p50(large, REQUESTS // 20)
        rounds["schema"] += _p50(schema, 3)
    p50 = {k: statistics.median(v) for k, v in rounds.items()}
    h = p50["health"]
    print(f"{'GET /api/health/ (baseline)':<48} {h * 1e3:8.2f} ms p50")
    rows = {
        "apply_move": _row(
            "POST /api/battles/{id}/actions/ (end turn)", p50["apply"], h, TARGETS["apply_move"]
        ),
        "poll_unchanged": _row(
            "GET  /api/battles/{id}/view/?since= (204)",
            p50["poll"],
            h,
            TARGETS["poll_unchanged"],
        ),
        "first_load": _row(
            "GET  /api/battles/{id}/view/ (first load)", p50["first"], h, TARGETS["first_load"]
        ),
        "dashboard_3": _row("GET  dashboard, 3 characters", p50["small"], h, None),
        "dashboard_33": _row("GET  dashboard, 33 characters", p50["large"], h, None),
        "schema": _row("GET  /api/schema/ (warm)", p50["schema"], h, None),
    }
    ratio = p50["large"] / p50["small"]
    target = TARGETS["dashboard_33_vs_3"]
    print(
        f"{'dashboard 33 vs 3 characters':<48} {ratio:17.2f}×  target ≤ {target:g}×  "
        f"{'pass' if ratio <= target else 'FAIL'}"
    )
    rows["dashboard_33_vs_3"] = {"ratio": ratio, "target": target, "passed": ratio <= target}
    print(f"{'GET  /api/schema/ (first call in the process)':<48} {schema_first * 1e3:8.2f} ms")
    rows["schema"]["first_call_s"] = schema_first
    return {"baseline": "GET /api/health/", "baseline_p50_s": h, "rows": rows}


def run() -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    print("== web (gunicorn, one sync worker, production settings; p50 ratios to /api/health/)")
    with _throwaway_database() as database:
        secret_key = secrets.token_urlsafe(50)
        gm = get_user_model().objects.create(username="bench-gm")
        token = Token.objects.create(user=gm)
        battle = _seed_battle(gm)
        seeded = {
            "token": token.key,
            "cookie": _session_cookie(gm, secret_key),
            "battle": battle.pk,
            "version": battle.version,
            "current": battle.state["current"],
            "small": _seed_party(gm, 3).pk,
            "large": _seed_party(gm, 33).pk,
        }
        with _server(database, secret_key) as port:
            results = _measure(port, seeded)
    out = Path(os.environ.get("WR_BENCH_DIR", "test-artifacts/bench")) / "web.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{'(written to ' + str(out) + ')':<48}")
    return results
