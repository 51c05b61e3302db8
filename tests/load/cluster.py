"""`make loadtest-cluster`: two web processes behind one address and two Celery workers on this
machine, played against, then loaded with 1,000 simulated users.

The topology is the several-machine deployment of docs/deploy.md shrunk onto loopback: two
separate gunicorn masters (the Procfile's web command) bind the same 127.0.0.1 port with
``--reuse-port`` (SO_REUSEPORT: the kernel spreads new connections between them, as a load
balancer spreads them between machines), each also on a port of its own so a step can talk to
one process; two Celery workers (``machine-a`` and ``machine-b``) each take every queue in
priority order, and one beat sends the sweeps. They share one PostgreSQL database, reached
through Debian's PgBouncer in transaction mode with 10 server connections (``make`` installs
it; CLUSTER_PGBOUNCER=0 connects them straight to PostgreSQL), and one Redis (broker, cache,
channel layer), and nothing else.

Steps, each printed with what it measured:

1. Concurrent moves: for every battle and tavern table of the scenario's campaigns, eight
   copies of the same move with the same expected version go at once, four through each web
   process: exactly one answers 201 and is logged, the other seven answer 409.
2. Pushes cross processes: a socket open on one process receives the version note of a move
   made through the other, both ways; the shared port's connections land on both processes.
3. A worker killed mid-task: the bot's move at a table against a bot is held (its read waits on
   a lock) in worker A, which is then killed with SIGKILL, master and pool; the message stays
   unacknowledged in Redis for the broker's visibility timeout, and the beat's sweep gives the
   move to worker B: the bot moves once for that version.
4. A web process restarted under load: GMs end turns through the shared port while web process
   A is stopped (SIGTERM, gunicorn's graceful stop) and started again. Every request answered
   is 200, 201 or 409; every 201 is logged once, and the log holds no move nobody was answered.
5. The load: locust with LOADTEST_USERS (1,000) people for LOADTEST_SECONDS (300) on the
   shared port, paced as at Board Game Arena's real-time tables (tests/load/players.py: GMs
   and seated players with tokens on the fast poll, the other players as browsers with a
   session cookie and the battle's WebSocket open), then tests/load/verify.py: no move lost
   or doubled, every turn notification delivered once, the yen ledger balanced.

The report is written to ``test-artifacts/bench/loadtest-cluster.json`` (beside ``make
bench``'s, WR_BENCH_DIR) with the machine's load average before and after, a move's p95
against its target (LOADTEST_MOVE_P95_MS, 200), and the CPU seconds each part spent during
the load (web, workers, PgBouncer, PostgreSQL's backends, locust): per request, per move, and
the users the cores could serve at the model's pace, figures that hold on a busy machine where
wall times do not. Exit status 0 only when every step holds and the load had no error and met
its target. Options (environment): LOADTEST_USERS, LOADTEST_SECONDS, LOADTEST_THINK,
LOADTEST_IDLE and LOADTEST_POLL (the people's pace: tests/load/players.py), WEB_CONCURRENCY
(uvicorn workers per web process, 2), DATABASE_URL (the server; a throwaway database is made),
LOADTEST_REDIS_URL (redis://127.0.0.1:6379/4, flushed first), CLUSTER_STEPS_ONLY=1 (steps 1-4
without the load), CLUSTER_LOAD_ONLY=1 (the load alone). The work folder (every process's log,
locust's failures in ``locust_failures.csv``) is removed after a run with no problem and kept
otherwise.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from tests.load.processes import cpu_seconds, free_port, procfile, production_env
from tests.load.run import _percentile, admin, database, summarise

ROOT = Path(__file__).resolve().parent.parent.parent
BIN = Path(sys.executable).parent
QUEUES = "turns,notify,bots,bulk"  # each worker's queues, asked in this order
WORKERS = ("machine-a", "machine-b")


class Cluster:
    """Two gunicorn masters on one port (plus one each of their own), two workers, one beat."""

    def __init__(self, env: dict[str, str], work: Path) -> None:
        self.env, self.work = env, work
        self.port = free_port()
        self.own = [free_port(), free_port()]
        self.web: list[subprocess.Popen[bytes] | None] = [None, None]
        self.workers: list[subprocess.Popen[bytes] | None] = [None, None]
        self.beat: subprocess.Popen[bytes] | None = None

    def _spawn(self, name: str, command: list[str]) -> subprocess.Popen[bytes]:
        log = (self.work / f"{name}.log").open("ab")
        # a session of its own: a kill reaches the master and its children, as a machine's loss
        return subprocess.Popen(  # noqa: S603 - the Procfile's own commands
            command,
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def start_web(self, i: int) -> None:
        command = [
            *procfile()["web"],
            "--reuse-port",
            "--bind",
            f"127.0.0.1:{self.port}",
            "--bind",
            f"127.0.0.1:{self.own[i]}",
        ]
        self.web[i] = self._spawn(f"web-{i}", command)

    def wait_web(self, i: int, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                status, _ = call(self.own[i], "GET", "/api/health/")
                if status == 200:
                    return
            except OSError:
                pass
            proc = self.web[i]
            if (proc is not None and proc.poll() is not None) or time.monotonic() > deadline:
                raise RuntimeError(f"web process {i} did not come up; see {self.work}")
            time.sleep(0.3)

    def stop_web(self, i: int) -> None:
        """gunicorn's graceful stop: listeners closed, requests in hand finished."""
        proc = self.web[i]
        assert proc is not None
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        self.web[i] = None

    def start_worker(self, i: int) -> None:
        command = ["celery", "-A", "config", "worker", "-Q", QUEUES, "-n", f"{WORKERS[i]}@%h"]
        self.workers[i] = self._spawn(WORKERS[i], [*command, "-l", "info", "-c", "2"])

    def kill_worker(self, i: int) -> None:
        """``kill -9`` of the worker's master and pool processes at once."""
        proc = self.workers[i]
        assert proc is not None
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        self.workers[i] = None

    def start_beat(self) -> None:
        self.beat = self._spawn("beat", ["celery", "-A", "config", "beat", "-l", "info"])

    def log(self, name: str) -> str:
        return (self.work / f"{name}.log").read_text(errors="replace")

    def stop(self) -> None:
        running = [p for p in [*self.web, *self.workers, self.beat] if p is not None]
        for proc in running:
            proc.terminate()
        for proc in running:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def call(
    port: int, method: str, path: str, token: str = "", body: object = None
) -> tuple[int, Any]:
    """One request on a new connection to 127.0.0.1:``port``: (status, JSON or None). A
    connection refused or dropped before an answer raises OSError."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Content-Type": "application/json"}
        | ({"Authorization": f"Token {token}"} if token else {}),
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310
            raw = answer.read()
            return answer.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as answer:
        raw = answer.read()
        try:
            return answer.code, json.loads(raw)
        except ValueError:
            return answer.code, raw[:200]


def wait_for(check: Callable[[], bool], timeout: float, what: str) -> float:
    began = time.monotonic()
    while not check():
        if time.monotonic() - began > timeout:
            raise AssertionError(f"{what}: not within {timeout:.0f} s")
        time.sleep(0.3)
    return time.monotonic() - began


# --- the steps -----------------------------------------------------------------------------


def _battle_move(port: int, account: dict[str, Any]) -> tuple[str, dict[str, Any], int]:
    _, state = call(port, "GET", f"/api/battles/{account['battle']}/state/", account["token"])
    view = state["view"]
    action = {"type": "end_turn", "combatant": view["turn"]["current"]}
    return f"/api/battles/{account['battle']}/actions/", action, int(view["version"])


def _tavern_move(port: int, accounts: list[dict[str, Any]]) -> tuple[str, str, Any, int]:
    """(path, the mover's token, a legal move, version) at the two players' tavern table."""
    for account in accounts:
        path = f"/api/tavern/tables/{account['tavern']}/state/"
        _, state = call(port, "GET", path, account["token"])
        if state.get("moves"):
            move = state["moves"][0]["action"]
            actions = f"/api/tavern/tables/{account['tavern']}/actions/"
            return actions, account["token"], move, int(state["version"])
    raise AssertionError("nobody may move at the tavern table")


def concurrent_moves(cluster: Cluster, campaigns: list[list[dict[str, Any]]]) -> dict[str, Any]:
    """Step 1: eight copies of one move at once, four through each web process. A table that
    moved on between the read and the eight (all eight 409: a reaction's deadline passed, the
    sweep declined it) is read again, up to three times."""
    from battles.models import BattleAction
    from minigames.models import TavernAction

    answers: Counter[int] = Counter()
    problems: list[str] = []
    tables = rereads = 0

    def read(kind: str, members: list[dict[str, Any]]) -> tuple[str, str, Any, int]:
        if kind == "battle":
            gm = next(a for a in members if a["gm"])
            path, action, version = _battle_move(cluster.own[0], gm)
            return path, gm["token"], action, version
        return _tavern_move(cluster.own[1], [a for a in members if a.get("tavern")])

    def logged(kind: str, members: list[dict[str, Any]], version: int) -> int:
        if kind == "battle":
            rows = BattleAction.objects.filter(battle_id=members[0]["battle"])
            return rows.filter(version_after=version).count()
        table = next(a for a in members if a.get("tavern"))["tavern"]
        rows = TavernAction.objects.filter(table_id=table, actor__isnull=False)
        return rows.filter(seq=version).count()

    with ThreadPoolExecutor(8) as pool:
        for members in campaigns:
            for kind in ("battle", "tavern"):
                tables += 1
                for attempt in range(3):
                    url, token, action, seen = read(kind, members)
                    sent = {"action": action, "expected_version": seen}
                    sends = [(cluster.own[i % 2], "POST", url, token, sent) for i in range(8)]
                    statuses = Counter(s for s, _ in pool.map(lambda a: call(*a), sends))
                    if statuses == Counter({409: 8}) and attempt < 2:
                        rereads += 1
                        continue
                    break
                answers.update(statuses)
                if statuses != Counter({201: 1, 409: 7}):
                    problems.append(f"{kind} {url}: answers {dict(statuses)}")
                if (n := logged(kind, members, seen + 1)) != 1:
                    problems.append(f"{kind} {url}: {n} log rows for version {seen + 1}")
    return {"tables": tables, "answers": dict(answers), "rereads": rereads, "problems": problems}


def _next_version(sock: Any) -> int:
    while True:
        message = json.loads(sock.recv())
        if message["type"] == "version":
            return int(message["version"])


def pushes_cross(cluster: Cluster, members: list[dict[str, Any]]) -> dict[str, Any]:
    """Step 2: a socket on one process hears a move made through the other, both ways."""
    import websocket

    gm = next(a for a in members if a["gm"])
    watcher = next(a for a in members if not a["gm"])
    problems: list[str] = []
    for listen, move in ((1, 0), (0, 1)):
        sock = websocket.create_connection(
            f"ws://127.0.0.1:{cluster.own[listen]}/ws/tables/battle/{watcher['battle']}/",
            header=[f"Authorization: Token {watcher['token']}"],
            origin=f"http://127.0.0.1:{cluster.own[listen]}",
            timeout=15,
        )
        try:
            first = _next_version(sock)
            path, action, version = _battle_move(cluster.own[move], gm)
            status, _ = call(
                cluster.own[move], "POST", path, gm["token"],
                {"action": action, "expected_version": version},
            )  # fmt: skip
            heard = _next_version(sock)
            if status != 201 or first != version or heard != version + 1:
                problems.append(
                    f"socket on process {listen}, move through {move}: {status}, "
                    f"versions {first} then {heard} (move at {version})"
                )
        finally:
            sock.close()
    # The shared port: forty new connections, counted in each process's access log.
    marker = f"spread-{secrets.token_hex(4)}"
    for _ in range(40):
        call(cluster.port, "GET", f"/api/health/?probe={marker}")
    time.sleep(1)
    spread = [cluster.log(f"web-{i}").count(marker) for i in (0, 1)]
    if min(spread) == 0:
        problems.append(f"the shared port's connections all went to one process: {spread}")
    return {"directions": 2, "shared_port_spread": spread, "problems": problems}


def drained(cluster: Cluster, timeout: float = 600) -> float:
    """Wait until no queue holds a message and no worker runs a task (the seeding's "your
    turn" notices, a step's own tasks); the seconds it took."""
    import redis

    from config.celery import app

    broker = redis.Redis.from_url(cluster.env["REDIS_URL"])

    def idle() -> bool:
        if any(broker.llen(q) for q in QUEUES.split(",")):
            return False
        active = app.control.inspect(timeout=10).active() or {}
        return len(active) == 2 and not any(active.values())

    return wait_for(idle, timeout, "the queues drained")


@contextlib.contextmanager
def _held(url: str, sql: str) -> Iterator[None]:
    import psycopg

    with psycopg.connect(url) as conn:
        conn.execute(sql)
        try:
            yield
        finally:
            conn.rollback()


def _waiting_on_a_lock(url: str) -> bool:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        ).fetchone()
    return bool(row and row[0])


def worker_killed(cluster: Cluster, members: list[dict[str, Any]]) -> dict[str, Any]:
    """Step 3: worker A killed while it holds the bot's move; worker B plays it, once."""
    from django.contrib.auth import get_user_model

    from config.celery import app
    from minigames import services
    from minigames.engines.registry import get_engine
    from minigames.models import TavernTable

    player = get_user_model().objects.get(auth_token__key=members[-1]["token"])
    token = members[-1]["token"]
    engine = get_engine("spirit_war")
    table = services.tavern_create(
        by=player, game="spirit_war", campaign=None,
        seats=[services.SeatSpec(kind="host"), services.SeatSpec(kind="bot", strength="random")],
    )  # fmt: skip
    services.tavern_start(table_id=table.pk, by=player)

    def state() -> tuple[Any, Any]:
        t = TavernTable.objects.get(pk=table.pk)
        return t, engine.from_json(t.state)

    host = socket.gethostname()
    names = [f"{w}@{host}" for w in WORKERS]
    # The human plays (the bot answering) up to the move after which the table waits on the bot.
    while True:
        wait_for(lambda: list(engine.waiting_on(state()[1])) == [0], 60, "the human's turn")
        t, s = state()
        action = engine.legal_actions(s, 0)[0]
        if 1 in engine.waiting_on(engine.apply(s, 0, action)[0]):
            break
        path = f"/api/tavern/tables/{t.pk}/actions/"
        call(cluster.port, "POST", path, token, {"action": action, "expected_version": t.version})
    # Nobody takes bot moves for a moment; that move is made; worker A alone is then given it,
    # with nothing else to do.
    drained(cluster)
    app.control.cancel_consumer("bots", destination=names, reply=True, timeout=10)
    status, _ = call(
        cluster.port, "POST", f"/api/tavern/tables/{t.pk}/actions/", token,
        {"action": action, "expected_version": t.version},
    )  # fmt: skip
    assert status == 201, status
    asked, _ = state()
    received = cluster.log(WORKERS[0]).count("minigames.bot_move[")
    lock = "LOCK TABLE minigames_taverntable IN ACCESS EXCLUSIVE MODE"
    with _held(cluster.env["DATABASE_URL"], lock):
        app.control.add_consumer("bots", destination=[names[0]], reply=True, timeout=10)
        wait_for(
            lambda: cluster.log(WORKERS[0]).count("minigames.bot_move[") > received,
            180,
            "worker A receiving the bot's move",
        )
        wait_for(lambda: _waiting_on_a_lock(cluster.env["DATABASE_URL"]), 60, "the move held")
        time.sleep(1)  # the read of the move is in, waiting (a sweep of B's may wait too)
        cluster.kill_worker(0)
    unmoved = state()[0].version == asked.version
    app.control.add_consumer("bots", destination=[names[1]], reply=True, timeout=10)
    took = wait_for(lambda: state()[0].version > asked.version, 180, "the bot's move after")
    time.sleep(3)  # nothing more comes of the lost message
    moved = TavernTable.objects.get(pk=table.pk)
    rows = moved.actions.filter(seq=asked.version + 1, seat="1", actor__isnull=True).count()
    cluster.start_worker(0)  # the machine is back for the load
    problems = []
    if not unmoved:
        problems.append("the bot moved although its worker was killed holding the move")
    if rows != 1:
        problems.append(f"the bot's move for version {asked.version + 1} is logged {rows} times")
    return {"seconds_to_the_move": round(took, 1), "bot_moves_logged": rows, "problems": problems}


def web_restarted(cluster: Cluster, campaigns: list[list[dict[str, Any]]]) -> dict[str, Any]:
    """Step 4: GMs end turns through the shared port while web process A stops and starts."""
    from battles.models import BattleAction

    gms = [a for members in campaigns for a in members if a["gm"]]  # two at each battle
    start = {
        gm["battle"]: max(
            BattleAction.objects.filter(battle_id=gm["battle"]).values_list(
                "version_after", flat=True
            ),
            default=0,
        )
        for gm in gms
    }
    told: dict[int, list[int]] = {gm["battle"]: [] for gm in gms}  # by both of its GMs
    answers: Counter[str] = Counter()
    stop = threading.Event()
    lock = threading.Lock()

    def play(gm: dict[str, Any]) -> None:
        while not stop.is_set():
            try:
                status, state = call(
                    cluster.port, "GET", f"/api/battles/{gm['battle']}/state/", gm["token"]
                )
            except OSError:
                with lock:
                    answers["read not answered"] += 1
                continue
            if status != 200:
                with lock:
                    answers[f"read {status}"] += 1
                continue
            view = state["view"]
            path = f"/api/battles/{gm['battle']}/actions/"
            action = {"type": "end_turn", "combatant": view["turn"]["current"]}
            version = int(view["version"])
            try:
                status, body = call(
                    cluster.port, "POST", path, gm["token"],
                    {"action": action, "expected_version": version},
                )  # fmt: skip
            except OSError:
                with lock:
                    answers["move not answered"] += 1
                continue
            with lock:
                answers[str(status)] += 1
                if status == 201:
                    told[gm["battle"]].append(int(body["view"]["version"]))

    threads = [threading.Thread(target=play, args=(gm,)) for gm in gms]
    for thread in threads:
        thread.start()
    time.sleep(8)
    began = time.monotonic()
    cluster.stop_web(0)
    cluster.start_web(0)
    cluster.wait_web(0)
    restart = time.monotonic() - began
    time.sleep(8)
    stop.set()
    for thread in threads:
        thread.join()
    problems = []
    unexpected = {
        k: v for k, v in answers.items() if "answered" not in k and k not in {"201", "409"}
    }
    if unexpected:
        problems.append(f"answers other than 201 and 409: {unexpected}")
    for battle, versions in told.items():
        logged = list(
            BattleAction.objects.filter(
                battle_id=battle, version_after__gt=start[battle]
            ).values_list("version_after", flat=True)
        )
        if sorted(logged) != sorted(versions):
            problems.append(f"battle {battle}: answered {sorted(versions)}, logged {logged}")
    return {
        "restart_seconds": round(restart, 1),
        "answers": dict(answers),
        "moves_acknowledged": sum(len(v) for v in told.values()),
        "problems": problems,
    }


# --- PgBouncer ------------------------------------------------------------------------------

#: PgBouncer's server connections for the load test's database, whatever the number of clients.
POOL_SIZE = 10


def start_pgbouncer(server: str, work: Path) -> tuple[subprocess.Popen[bytes], int]:
    """Debian's PgBouncer in transaction mode on a free loopback port, in front of the
    PostgreSQL of ``server`` (a URL), trusting its users as that server does here."""
    parts = urlsplit(server)
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="wr-pgbouncer-"))
    folder.chmod(0o755)  # read by the postgres user it runs as when started by root
    (folder / "users.txt").write_text(f'"{parts.username or "postgres"}" ""\n')
    (folder / "pgbouncer.ini").write_text(
        "[databases]\n"
        f"* = host={parts.hostname or '127.0.0.1'} port={parts.port or 5432}\n"
        "[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n"
        f"auth_type = trust\nauth_file = {folder / 'users.txt'}\n"
        f"pool_mode = transaction\ndefault_pool_size = {POOL_SIZE}\n"
        "max_client_conn = 2000\nignore_startup_parameters = extra_float_digits,options\n"
    )
    user = ["-u", "postgres"] if os.geteuid() == 0 else []  # it refuses to run as root
    proc = subprocess.Popen(  # noqa: S603
        ["/usr/sbin/pgbouncer", *user, str(folder / "pgbouncer.ini")],
        stdout=(work / "pgbouncer.log").open("wb"),
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 20
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return proc, port
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"PgBouncer did not start; see {work / 'pgbouncer.log'}")
        time.sleep(0.2)


# --- the load --------------------------------------------------------------------------------


def _connections(url: str) -> int:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
        ).fetchone()
    return int(row[0]) - 1 if row else 0


def _backends(url: str) -> dict[int, float]:
    """The CPU seconds each PostgreSQL backend of the load's database has spent so far (the
    server runs on this machine; behind PgBouncer these are its few server connections)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        pids = [
            int(row[0])
            for row in conn.execute(
                "SELECT pid FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchall()
        ]
    return {pid: cpu_seconds([pid], descendants=False) for pid in pids}


def _own_children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


class CpuMeter:
    """CPU seconds spent during the load by each part of the topology (``/proc``: steady on a
    loaded machine, where wall times are not): the web processes, the Celery workers and beat,
    PgBouncer, the database's backends, and locust itself (its users are on the same cores).
    Redis serves other programs of the machine too, so its share is not counted (a few
    microseconds a command)."""

    def __init__(self, cluster: Cluster, bouncer: int | None, url: str) -> None:
        self.cluster, self.bouncer, self.url = cluster, bouncer, url
        self.start = self._parts()
        self.backends = _backends(url)
        self.locust = _own_children_cpu()

    def _parts(self) -> dict[str, float]:
        cluster = self.cluster
        web = [p.pid for p in cluster.web if p is not None]
        workers = [p.pid for p in [*cluster.workers, cluster.beat] if p is not None]
        return {
            "web": cpu_seconds(web),
            "workers": cpu_seconds(workers),
            "pgbouncer": cpu_seconds([self.bouncer]) if self.bouncer else 0.0,
        }

    def spent(self) -> dict[str, float]:
        end = self._parts()
        spent = {k: end[k] - self.start[k] for k in end}
        spent["postgres"] = sum(
            cpu - self.backends.get(pid, 0.0) for pid, cpu in _backends(self.url).items()
        )
        spent["locust"] = _own_children_cpu() - self.locust
        return {k: round(v, 2) for k, v in spent.items()}


#: The load's target: a move's p95 (battle and tavern moves together), ms.
MOVE_P95_MS = float(os.environ.get("LOADTEST_MOVE_P95_MS", "200"))


def _moves_p95(stats: list[dict[str, Any]]) -> tuple[int, float]:
    histogram: dict[int, int] = {}
    for entry in stats:
        if entry["name"] in ("battle move", "tavern move"):
            for ms, count in entry["response_times"].items():
                histogram[int(float(ms))] = histogram.get(int(float(ms)), 0) + count
    return sum(histogram.values()), _percentile(histogram, 0.95)


def model_demand() -> float:
    """Requests a second per user that tests/load/players.py's people make when answers come
    at once, for the seeded campaigns (two GMs, two seated players, six watchers each): a
    token client's poll every ``LOADTEST_POLL`` s, a move after the mean think (plus half a
    poll to notice her turn), each battle move read once by each of its six watchers, and a
    watcher's own action every mean ``LOADTEST_IDLE``."""
    think = sum(float(x) for x in os.environ.get("LOADTEST_THINK", "5,60").split(",")) / 2
    idle = sum(float(x) for x in os.environ.get("LOADTEST_IDLE", "30,120").split(",")) / 2
    poll = float(os.environ.get("LOADTEST_POLL", "10"))
    turn = think + poll / 2
    gm = 1 / poll + 1 / turn  # both GMs move, each on her own clock
    seat = 1 / poll + 0.5 / turn  # her turn half the time
    watcher = 1 / idle + 2 / turn  # each of the battle's moves is read once
    return (2 * gm + 2 * seat + 6 * watcher) / 10


def load(
    cluster: Cluster, users: int, seconds: int, bouncer: int | None, server: str
) -> dict[str, Any]:
    """LOADTEST_USERS people (tests/load/players.py) for LOADTEST_SECONDS on the shared port,
    with what they cost in CPU (``server``: the database's URL on PostgreSQL itself, not
    through PgBouncer); then tests/load/verify.py."""
    env = {**cluster.env, "LOADTEST_BROWSERS": "1"}
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(5):
            with contextlib.suppress(Exception):
                peak[0] = max(peak[0], _connections(cluster.env["DATABASE_URL"]))

    sampler = threading.Thread(target=sample)
    sampler.start()
    meter = CpuMeter(cluster, bouncer, server)
    load_before = os.getloadavg()
    started = time.monotonic()
    try:
        subprocess.run(  # noqa: S603
            [
                str(BIN / "locust"),
                "-f",
                str(ROOT / "tests" / "load" / "players.py"),
                "--headless",
                "--users",
                str(users),
                "--spawn-rate",
                str(max(1, users // 20)),
                "--run-time",
                f"{seconds}s",
                "--stop-timeout",
                "15",
                "--host",
                f"http://127.0.0.1:{cluster.port}",
                "--only-summary",
                "--json-file",
                str(cluster.work / "stats"),
                "--csv",
                str(cluster.work / "locust"),  # locust_failures.csv: each error's message
                "--loglevel",
                "WARNING",
            ],
            cwd=ROOT,
            env=env,
            check=False,
            stdout=(cluster.work / "locust-summary.txt").open("wb"),
            stderr=(cluster.work / "locust.log").open("wb"),
        )
    finally:
        done.set()
        sampler.join()
    elapsed = time.monotonic() - started
    spent = meter.spent()
    stats = json.loads((cluster.work / "stats.json").read_text())
    summary = summarise(stats, elapsed)
    summary["database_connections_peak"] = peak[0]
    summary["load_average_during"] = [load_before, os.getloadavg()]
    moves, p95 = _moves_p95(stats)
    summary["moves"] = {
        "sent": moves,
        "per_second": round(moves / elapsed, 2),
        "p95_ms": p95,
        "target_p95_ms": MOVE_P95_MS,
        "met": bool(moves) and p95 < MOVE_P95_MS,
    }
    server_cpu = spent["web"] + spent["workers"] + spent["pgbouncer"] + spent["postgres"]
    cores = os.cpu_count() or 1
    summary["cpu"] = {
        "seconds": spent,
        "server_seconds": round(server_cpu, 2),
        "server_cores_busy": round(server_cpu / elapsed, 2),
        "server_ms_per_request": round(1000 * server_cpu / max(1, summary["requests"]), 2),
        # everything a move brings about (the reads of those watching, the pushes, "your
        # turn", the polls between moves), shared out over the moves
        "server_ms_per_move": round(1000 * server_cpu / max(1, moves), 1),
        "web_ms_per_request": round(1000 * spent["web"] / max(1, summary["requests"]), 2),
        "cores": cores,
    }
    # The pace the model asks for against the pace kept: on a starved machine each user waits
    # for her answers and asks less, so capacity is the model's demand priced at the CPU a
    # request cost, not the requests this run managed.
    demand = model_demand()
    per_request = server_cpu / max(1, summary["requests"])
    summary["cpu"].update(
        model_requests_per_user_second=round(demand, 4),
        requests_per_user_second=round(summary["requests"] / (users * elapsed), 4),
        # the people the cores could serve at the model's pace with 30% of them kept free
        capacity_users=int(0.7 * cores / (per_request * demand)) if per_request else None,
    )
    checked = subprocess.run(  # noqa: S603
        [sys.executable, "-m", "tests.load.verify", str(cluster.work)],
        cwd=ROOT,
        env=cluster.env,
        check=True,
        capture_output=True,
        text=True,
    )
    summary["checks"] = json.loads(checked.stdout.strip().splitlines()[-1])
    return summary


def _seed(env: dict[str, str], work: Path, users: int, parts: int = 4) -> list[Any]:
    """The load's accounts, seeded by ``parts`` processes side by side (each its own
    campaigns), and the steps' 50 (``seed-cluster.json``) by one more."""
    campaigns = max(1, users // 10)
    size = -(-campaigns // parts)
    jobs = [
        (work / f"seed-{i}.json", str(min(size, campaigns - i * size) * 10), str(i * size), "load")
        for i in range(parts)
        if i * size < campaigns
    ]
    jobs.append((work / "seed-cluster.json", "50", "0", "cluster"))
    running = [
        subprocess.Popen(  # noqa: S603
            [sys.executable, "-m", "tests.load.seed", str(out), *args], cwd=ROOT, env=env
        )
        for out, *args in jobs
    ]
    if any(proc.wait() for proc in running):
        raise RuntimeError("seeding failed")
    return [a for out, *_ in jobs[:-1] for a in json.loads(out.read_text())]


def main() -> int:
    users = int(os.environ.get("LOADTEST_USERS", "1000"))
    seconds = int(os.environ.get("LOADTEST_SECONDS", "300"))
    base = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
    redis_url = os.environ.get("LOADTEST_REDIS_URL", "redis://127.0.0.1:6379/4")
    name = f"loadtest_cluster_{os.getpid()}"
    work = Path(tempfile.mkdtemp(prefix="wr-cluster-"))
    pooled = os.environ.get("CLUSTER_PGBOUNCER", "1") == "1"
    bouncer: subprocess.Popen[bytes] | None = None
    reach = base
    if pooled:
        bouncer, bouncer_port = start_pgbouncer(base, work)
        reach = urlunsplit(urlsplit(base)._replace(netloc=f"postgres@127.0.0.1:{bouncer_port}"))
    env = production_env(
        database=database(reach, name),
        redis_url=redis_url,
        media=work / "media",
        DB_TRANSACTION_POOLER="true" if pooled else "false",
        WEB_CONCURRENCY=os.environ.get("WEB_CONCURRENCY", "2"),
        LOG_LEVEL="INFO",
        API_USER_RATE="1000000/hour",
        API_POLL_RATE="1000000/hour",
        LOADTEST_USERS=str(work / "users.json"),
        LOADTEST_OUT=str(work),
        LOADTEST_THINK=os.environ.get("LOADTEST_THINK", "5,60"),
        LOADTEST_IDLE=os.environ.get("LOADTEST_IDLE", "30,120"),
        LOADTEST_POLL=os.environ.get("LOADTEST_POLL", "10"),
    )
    os.environ.update(env)
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    admin(base, f'CREATE DATABASE "{name}"')
    cluster = Cluster(env, work)
    report: dict[str, Any] = {
        "users": users,
        "seconds": seconds,
        "think_seconds": env["LOADTEST_THINK"],
        "own_action_seconds": env["LOADTEST_IDLE"],
        "token_poll_seconds": env["LOADTEST_POLL"],
        "pgbouncer_pool_size": POOL_SIZE if pooled else None,
    }
    report["load_average_before"] = os.getloadavg()
    problems: list[str] = []
    try:
        print(f"Cluster: work folder {work}", flush=True)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT, env=env, check=True,
        )  # fmt: skip
        import django

        django.setup()
        began = time.monotonic()
        loads = _seed(env, work, users)
        Path(env["LOADTEST_USERS"]).write_text(json.dumps(loads))
        scenario = json.loads((work / "seed-cluster.json").read_text())
        print(f"seeded {users} + 50 users in {time.monotonic() - began:.0f} s", flush=True)
        campaigns = [scenario[i : i + 10] for i in range(0, len(scenario), 10)]
        for i in (0, 1):
            cluster.start_web(i)
            cluster.start_worker(i)
        cluster.start_beat()
        for i in (0, 1):
            cluster.wait_web(i)
        report["seconds_to_drain_the_seeding"] = round(drained(cluster), 1)
        time.sleep(15)  # beat's first sweeps (reactions past their deadline) are done
        steps: list[tuple[str, Callable[[], dict[str, Any]]]] = [
            ("concurrent_moves", lambda: concurrent_moves(cluster, campaigns)),
            ("pushes_cross", lambda: pushes_cross(cluster, campaigns[0])),
            ("worker_killed", lambda: worker_killed(cluster, campaigns[1])),
            ("web_restarted", lambda: web_restarted(cluster, campaigns)),
        ]
        if os.environ.get("CLUSTER_LOAD_ONLY") == "1":
            steps = []
        for step, run in steps:
            began = time.monotonic()
            try:
                result = run()
            except (AssertionError, OSError, RuntimeError) as failed:
                result = {"problems": [f"failed: {failed}"]}
            result["duration_seconds"] = round(time.monotonic() - began, 1)
            for i in (0, 1):  # a step that failed half-way leaves the topology whole again
                if cluster.workers[i] is None:
                    cluster.start_worker(i)
                if cluster.web[i] is None:
                    cluster.start_web(i)
                    cluster.wait_web(i)
            report[step] = result
            problems += [f"{step}: {p}" for p in result["problems"]]
            print(f"{step}: {json.dumps(result)}", flush=True)
        if os.environ.get("CLUSTER_STEPS_ONLY") != "1":
            print(f"load: {users} users for {seconds} s", flush=True)
            summary = load(
                cluster, users, seconds, bouncer.pid if bouncer else None, database(base, name)
            )
            report["load"] = summary
            checks = summary["checks"]
            for part in ("moves", "notifications", "ledger"):
                problems += [f"load, {part}: {p}" for p in checks[part]["problems"]]
            if summary["errors"]:
                problems.append(f"load: {summary['errors']} errors")
            moves = summary["moves"]
            if not moves["met"]:
                problems.append(
                    f"load: a move's p95 {moves['p95_ms']:.0f} ms over {moves['sent']} moves "
                    f"(target under {moves['target_p95_ms']:.0f} ms)"
                )
            print(json.dumps(summary, indent=1), flush=True)
    finally:
        cluster.stop()
        report["load_average_after"] = os.getloadavg()
        from django.db import connections

        connections.close_all()
        if bouncer is not None:
            bouncer.terminate()
            bouncer.wait(timeout=20)
            ini = bouncer.args[-1]
            shutil.rmtree(Path(str(ini)).parent, ignore_errors=True)  # its folder of its own
        admin(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    report["problems"] = problems
    out = Path(os.environ.get("WR_BENCH_DIR", ROOT / "test-artifacts" / "bench"))
    out.mkdir(parents=True, exist_ok=True)
    (out / "loadtest-cluster.json").write_text(json.dumps(report, indent=2, sort_keys=True))
    for problem in problems:
        print(f"PROBLEM: {problem}")
    if not problems:
        shutil.rmtree(work, ignore_errors=True)
    print(f"Report written to {out / 'loadtest-cluster.json'}")
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
