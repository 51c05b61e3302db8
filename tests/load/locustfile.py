"""What 200 people at the table do, for `make loadtest` (tests/load/run.py starts everything).

Each simulated user is one seeded account (``LOADTEST_USERS``: JSON of tokens and ids written by
the seeder). Players read their character sheet, roll dice, read the roll log and poll their
campaign's battle; GMs also run the battle, ending the current combatant's turn with the
version they last saw. A stale move's 409 is the app working as designed (the GM reloads and
carries on), so it counts as a success; anything else that is not 2xx is an error. Every move
that applied is written to ``LOADTEST_OUT`` so the runner can check that none was lost or
applied twice, and so is every move sent, before it goes: a move the server applied whose
answer never arrived (the user stopped at the run's end while waiting) is told apart from one
applied that nobody sent.

Under ``make loadtest-cluster`` (``LOADTEST_BROWSERS=1``) the players who sit at no tavern
table play as a browser does: their signed-in session's cookie instead of a token (a form's
CSRF token with their rolls), and the battle's page open on its WebSocket
(``/ws/tables/battle/<id>/``), which receives a version note for every move of their battle,
whichever web process took it. A socket refused or closed by the server is an error; each note
received counts as a ``WS`` "push" row. ``LOADTEST_WAIT`` ("min,max" seconds, 0.5,2 by default)
is each user's pause between two actions.
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
from locust import HttpUser, between, task

USERS: list[dict[str, Any]] = json.loads(Path(os.environ["LOADTEST_USERS"]).read_text())
OUT = Path(os.environ["LOADTEST_OUT"])
_next = iter(range(10**9))
_lock = threading.Lock()
_WAIT = [float(x) for x in os.environ.get("LOADTEST_WAIT", "0.5,2.0").split(",")]
BROWSERS = os.environ.get("LOADTEST_BROWSERS") == "1"


def _claim() -> dict[str, Any]:
    with _lock:
        return USERS[next(_next) % len(USERS)]


class TablePlayer(HttpUser):
    wait_time = between(_WAIT[0], _WAIT[1])

    def on_start(self) -> None:
        self.account = _claim()
        self.version: int | None = None
        self.moves = (OUT / f"moves-{os.getpid()}.txt").open("a", buffering=1)
        self.socket: Any = None
        if BROWSERS and not self.account["gm"] and not self.account.get("tavern"):
            csrf = secrets.token_hex(16)  # 32 characters: a form's CSRF secret
            self.cookie = f"sessionid={self.account['session']}; csrftoken={csrf}"
            self.client.headers["Cookie"] = self.cookie
            self.client.headers["X-CSRFToken"] = csrf
            self.stopping = False
            gevent.spawn(self._listen)
        else:
            self.client.headers["Authorization"] = f"Token {self.account['token']}"

    def on_stop(self) -> None:
        self.moves.close()
        self.stopping = True
        if self.socket is not None:
            self.socket.close()

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
        """The battle page's socket: open it, then read its notes until the run ends."""
        address = self.host.replace("http://", "ws://")
        started = time.perf_counter()
        try:
            self.socket = websocket.create_connection(
                f"{address}/ws/tables/battle/{self.account['battle']}/",
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
            if message.get("type") == "version":
                self._event("push", time.perf_counter())

    @task(3)
    def read_sheet(self) -> None:
        self.client.get(f"/api/characters/{self.account['character']}/", name="sheet")

    @task(3)
    def roll(self) -> None:
        self.client.post(
            "/api/rolls/",
            json={"notation": "4d+2", "target": 12, "campaign": self.account["campaign"]},
            name="roll",
        )

    @task(3)
    def tavern_move(self) -> None:
        table = self.account.get("tavern")
        if not table:
            return
        state = self.client.get(f"/api/tavern/tables/{table}/state/", name="tavern state").json()
        if state.get("finished") or not state.get("moves"):
            return
        move = random.choice(state["moves"])
        self.moves.write(f"sent tavern {table} {state['version'] + 1}\n")
        with self.client.post(
            f"/api/tavern/tables/{table}/actions/",
            json={"action": move["action"], "expected_version": state["version"]},
            name="tavern move",
            catch_response=True,
        ) as response:
            if response.status_code == 201:
                self.moves.write(f"tavern {table} {response.json()['version']}\n")
                response.success()
            elif response.status_code == 409:
                response.success()  # the other player moved first: reload, go on
            else:
                response.failure(f"{response.status_code}: {response.text[:200]}")

    @task(2)
    def roll_log(self) -> None:
        self.client.get(f"/api/rolls/?campaign={self.account['campaign']}&limit=20", name="rolls")

    @task(4)
    def poll_battle(self) -> None:
        since = "" if self.version is None else f"?since={self.version}"
        with self.client.get(
            f"/api/battles/{self.account['battle']}/state/{since}",
            name="battle poll",
            catch_response=True,
        ) as response:
            if response.status_code == 200:
                self.version = response.json()["version"]
                response.success()
            elif response.status_code == 204:
                response.success()

    @task(3)
    def battle_move(self) -> None:
        if not self.account["gm"]:
            return
        battle = self.account["battle"]
        view = self.client.get(f"/api/battles/{battle}/state/", name="battle view").json()["view"]
        current = view["turn"]["current"]
        if current is None:
            return
        self.moves.write(f"sent battle {battle} {view['version'] + 1}\n")
        with self.client.post(
            f"/api/battles/{battle}/actions/",
            json={
                "action": {"type": "end_turn", "combatant": current},
                "expected_version": view["version"],
            },
            name="battle move",
            catch_response=True,
        ) as response:
            if response.status_code == 201:
                applied = response.json()["view"]["version"]
                self.moves.write(f"battle {battle} {applied}\n")
                response.success()
            elif response.status_code == 409:
                response.success()  # another GM of this table moved first: reload, go on
            else:
                response.failure(f"{response.status_code}: {response.text[:200]}")
        if random.random() < 0.1:
            self.client.get(f"/api/battles/{battle}/log/?limit=20", name="battle log")
