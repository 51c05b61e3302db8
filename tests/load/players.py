"""The people of `make loadtest-cluster`: 1,000 users at turn-based tables, paced as people are.

`make loadtest` (tests/load/locustfile.py) is a stress test: every user acts every 0.5 to 2 s,
far more often than anyone at a turn-based game does. This file models the real crowd, so that
the figure it gives (a move's p95 at 1,000 users) says what 1,000 people would see. The model
is Board Game Arena's real-time tables, the busiest way people play turn-based games there: a
player moves when it is her turn, after thinking a few seconds to a minute
(``LOADTEST_THINK``, "min,max" seconds, 5 to 60 by default, drawn evenly: a move every 32 s
on average); between her moves she does nothing but watch the table. BGA's turn-based tables,
where a move waits minutes to days, ask far less; so does a campaign between battles.

Each simulated user is one seeded account (``LOADTEST_USERS``: JSON written by
tests/load/seed.py: campaigns of two GMs and eight players, one battle and one Spirit War
table each), in one of three parts:

* **GMs** (two per battle, an API token each) run the battle: each ends the current
  combatant's turn after thinking ``LOADTEST_THINK``; the two may both try, and the second
  gets 409 (the app working as designed: it reloads and carries on).
* **Seated players** (two per tavern table, an API token each) play Spirit War: each moves
  when the table says it is her turn, after thinking ``LOADTEST_THINK``.
* **Watchers** (the other six players of each campaign) are browsers: a signed-in session's
  cookie, and the battle's page open on its WebSocket (``/ws/tables/battle/<id>/``). On each
  version note the page reads the view it may see (``GET .../state/?since=<seen>``, as
  static/js/table_client.js does: one read at a time, beside the socket, which goes on
  answering the server's pings meanwhile); otherwise it asks nothing. Every
  ``LOADTEST_IDLE`` seconds (30 to 120) the player does one thing of her own: rolls dice (a
  form's CSRF token with it), reads her sheet, or reads the roll log.

Token users have no socket: they watch their table as a script does, with the fast poll
(``?since=<version>``: 204 with no body while nothing changed, answered from Redis) every
``LOADTEST_POLL`` seconds (10: a script waiting on its turn), never by reading the whole
state again.

Every move that applied is written to ``LOADTEST_OUT`` so the runner can check that none was
lost or applied twice, and so is every move sent, before it goes (tests/load/verify.py). A
socket refused or closed by the server is an error; each note received counts as a ``WS``
"push" row.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import threading
import time
from pathlib import Path
from typing import Any

import gevent
import websocket
from locust import FastHttpUser, task

USERS: list[dict[str, Any]] = json.loads(Path(os.environ["LOADTEST_USERS"]).read_text())
OUT = Path(os.environ["LOADTEST_OUT"])
_next = iter(range(10**9))
_lock = threading.Lock()


def _range(name: str, default: str) -> tuple[float, float]:
    low, high = (float(x) for x in os.environ.get(name, default).split(","))
    return low, high


THINK = _range("LOADTEST_THINK", "5,60")
IDLE = _range("LOADTEST_IDLE", "30,120")
POLL = float(os.environ.get("LOADTEST_POLL", "10"))


def _claim() -> dict[str, Any]:
    with _lock:
        return USERS[next(_next) % len(USERS)]


def _think() -> float:
    return time.monotonic() + random.uniform(*THINK)


class Person(FastHttpUser):
    """One account, playing its part (GM, seated player or watcher) until the run ends."""

    def wait_time(self) -> float:
        return self.pause

    def on_start(self) -> None:
        self.account = _claim()
        self.moves = (OUT / f"moves-{os.getpid()}.txt").open("a", buffering=1)
        self.socket: Any = None
        self.reading: Any = None  # the read a version note started, while it runs
        self.stopping = False
        self.version: int | None = None  # the table's version the user last saw
        self.state: dict[str, Any] | None = None  # and what it was then (a 200's body)
        self.due: float | None = None  # when she has thought enough to move
        account = self.account
        if account["gm"]:
            self.part, self.pause = "gm", POLL
        elif account.get("tavern"):
            self.part, self.pause = "seat", POLL
        else:
            self.part, self.pause = "watcher", random.uniform(*IDLE)
        if self.part == "watcher":
            csrf = secrets.token_hex(16)  # 32 characters: a form's CSRF secret
            self.cookie = f"sessionid={account['session']}; csrftoken={csrf}"
            self.headers = {"Cookie": self.cookie, "X-CSRFToken": csrf}
            gevent.spawn(self._listen)
        else:
            self.headers = {"Authorization": f"Token {account['token']}"}
        # a random start inside the first pause: a thousand people do not all arrive at once
        gevent.sleep(random.uniform(0, self.pause))

    def on_stop(self) -> None:
        self.stopping = True
        self.moves.close()
        if self.socket is not None:
            self.socket.close()

    @task
    def turn(self) -> None:
        if self.part == "gm":
            self._gm()
        elif self.part == "seat":
            self._seat()
        else:
            self._own_thing()

    # --- reading the table --------------------------------------------------------------------

    def _read(self, path: str, name: str) -> None:
        """The fast poll: ``?since=`` the version seen (204 unchanged), the whole state the
        first time and after a 409."""
        since = "" if self.version is None else f"?since={self.version}"
        with self.client.get(
            f"{path}{since}", name=name, headers=self.headers, catch_response=True
        ) as response:
            if response.status_code == 200:
                self.state = response.json()
                self.version = int(self.state["version"])
                response.success()
            elif response.status_code == 204:
                response.success()
            else:
                response.failure(f"{response.status_code}: {(response.text or '')[:200]}")

    def _send(self, kind: str, table: int, path: str, body: dict[str, Any], name: str) -> None:
        """A move with the version it was chosen from; the answer's version is logged."""
        self.moves.write(f"sent {kind} {table} {body['expected_version'] + 1}\n")
        with self.client.post(
            path, json=body, name=name, headers=self.headers, catch_response=True
        ) as response:
            if response.status_code == 201:
                data = response.json()
                applied = int(data["view"]["version"] if kind == "battle" else data["version"])
                self.moves.write(f"{kind} {table} {applied}\n")
                response.success()
            elif response.status_code == 409:
                response.success()  # someone moved first: read the table again, go on
                self.version = None
            else:
                response.failure(f"{response.status_code}: {(response.text or '')[:200]}")
        self.due = None

    # --- the three parts ------------------------------------------------------------------------

    def _gm(self) -> None:
        battle = self.account["battle"]
        self._read(f"/api/battles/{battle}/state/", "battle poll")
        if self.state is None:
            return
        view = self.state["view"]
        current = view["turn"]["current"]
        if current is None:
            return
        if self.due is None:
            self.due = _think()
        if time.monotonic() < self.due:
            return
        self._send(
            "battle",
            battle,
            f"/api/battles/{battle}/actions/",
            {
                "action": {"type": "end_turn", "combatant": current},
                "expected_version": int(view["version"]),
            },
            "battle move",
        )

    def _seat(self) -> None:
        table = self.account["tavern"]
        self._read(f"/api/tavern/tables/{table}/state/", "tavern poll")
        state = self.state
        if state is None or state.get("finished") or not state.get("moves"):
            self.due = None  # not her turn (or the game is over): watch
            return
        if self.due is None:
            self.due = _think()
        if time.monotonic() < self.due:
            return
        self._send(
            "tavern",
            table,
            f"/api/tavern/tables/{table}/actions/",
            {
                "action": random.choice(state["moves"])["action"],
                "expected_version": int(state["version"]),
            },
            "tavern move",
        )

    def _own_thing(self) -> None:
        """A watcher's own doing, every ``LOADTEST_IDLE`` seconds: a roll, her sheet, the log."""
        self.pause = random.uniform(*IDLE)
        account = self.account
        kind = random.choices(("roll", "sheet", "rolls"), weights=(2, 1, 1))[0]
        if kind == "roll":
            self.client.post(
                "/api/rolls/",
                json={"notation": "4d+2", "target": 12, "campaign": account["campaign"]},
                name="roll",
                headers=self.headers,
            )
        elif kind == "sheet":
            self.client.get(
                f"/api/characters/{account['character']}/", name="sheet", headers=self.headers
            )
        else:
            self.client.get(
                f"/api/rolls/?campaign={account['campaign']}&limit=20",
                name="rolls",
                headers=self.headers,
            )

    # --- a watcher's socket -----------------------------------------------------------------------

    def _event(self, name: str, started: float, error: Exception | None = None) -> None:
        self.environment.events.request.fire(
            request_type="WS",
            name=name,
            response_time=(time.perf_counter() - started) * 1000,
            response_length=0,
            exception=error,
            context={},
        )

    def _listen(self) -> None:
        """The battle page's socket: open it, then read the view after each version note."""
        address = str(self.host).replace("http://", "ws://")
        battle = self.account["battle"]
        started = time.perf_counter()
        try:
            self.socket = websocket.create_connection(
                f"{address}/ws/tables/battle/{battle}/",
                header=[f"Cookie: {self.cookie}"],
                origin=self.host,
                timeout=60,
            )
        except Exception as error:
            self._event("socket open", started, error)
            return
        self._event("socket open", started)
        while not self.stopping:
            started = time.perf_counter()
            try:
                message = json.loads(self.socket.recv())
            except websocket.WebSocketTimeoutException:
                continue  # a quiet minute: the page keeps listening
            except Exception as error:
                if not self.stopping:
                    self._event("socket closed", started, error)
                return
            if message.get("type") != "version":
                continue
            self._event("push", time.perf_counter())
            if self.reading is None and (
                self.version is None or int(message["version"]) > self.version
            ):
                # beside the socket, as a page's fetch is: a socket left unread while a slow
                # read waits misses the server's pings, and uvicorn closes it after 20 s
                self.reading = gevent.spawn(self._read_after_push, battle)

    def _read_after_push(self, battle: int) -> None:
        try:
            self._read(f"/api/battles/{battle}/state/", "battle read after a push")
        finally:
            self.reading = None
