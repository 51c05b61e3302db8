"""A tavern bot of your own, through the REST API alone (Python's standard library, nothing to
install): it opens a table against one of the site's bots, starts it, plays a random legal move
whenever it is its turn, then prints the game's log and result in words.

    python docs/examples/tavern_bot.py http://127.0.0.1:8000 <token> [game] [opponent]

The token comes from ``POST /api/auth/token/`` (docs/api.md); ``game`` is ``raigo``,
``spirit_war``, ``rso`` or ``dbs`` (``GET /api/tavern/games/`` lists them), ``opponent`` the
site bot's strength: ``random``, ``heuristic`` or ``search``. Replace :func:`choose` with your
own judgement: it receives your whole payload (your view of the table, and every legal move
with its words) and returns one of ``payload["moves"]``.

What it shows about the API (docs/tavern.md, "Pages and API"):

* a move names the version it was chosen at (``expected_version``); if someone moved first the
  answer is **409** and nothing was applied, so read the state again and choose again;
* ``GET …/state/?since=<version>`` answers **204** while nothing changed: a cheap poll;
* **429** means the API's rate was reached: wait the ``Retry-After`` seconds;
* every answer's status is checked before its body is read: an error's body is
  ``{"detail", "errors"}``, not what the call returns when it succeeds.

Tested: ``tests/minigames/test_api_example.py`` plays a whole game with it against a live
server.
"""

from __future__ import annotations

import json
import random
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

#: Seconds between polls while another seat (a bot, a player) is thinking.
POLL_SECONDS = 1.0


class Api:
    """The site's API for one token."""

    def __init__(self, base: str, token: str) -> None:
        if not base.startswith(("http://", "https://")):
            raise ValueError(f"The site's address starts with http:// or https://, not {base!r}.")
        self.base = base.rstrip("/")
        self.headers = {
            "Authorization": f"Token {token}",
            "Content-Type": "application/json",
            "Accept": "application/json",
        }

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """(status, decoded JSON or None); waits out a 429 and asks again."""
        data = None if body is None else json.dumps(body).encode()
        while True:
            request = urllib.request.Request(  # noqa: S310 - http(s) only (above)
                self.base + path, data=data, method=method, headers=self.headers
            )
            try:
                with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - as above
                    raw = response.read()
                    return response.status, json.loads(raw) if raw else None
            except urllib.error.HTTPError as error:
                raw = error.read()
                if error.code == 429:
                    time.sleep(float(error.headers.get("Retry-After") or 5))
                    continue
                return error.code, json.loads(raw) if raw else None


def choose(payload: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Your judgement goes here: one of ``payload["moves"]`` (each ``{"action", "label"}``)."""
    move: dict[str, Any] = rng.choice(payload["moves"])
    return move


def play(
    base: str,
    token: str,
    game: str = "raigo",
    opponent: str = "random",
    *,
    seed: int | None = None,
    out: Callable[[str], object] = print,
) -> dict[str, Any]:
    """Play one whole game against the site's ``opponent`` bot; returns the final payload."""
    api = Api(base, token)
    rng = random.Random(seed)
    status, table = api.call(
        "POST",
        "/api/tavern/tables/",
        {"game": game, "seats": [{"kind": "host"}, {"kind": "bot", "strength": opponent}]},
    )
    if status != 201:
        raise RuntimeError(f"The table was not opened ({status}): {table}")
    url = f"/api/tavern/tables/{table['id']}/"
    status, answer = api.call("POST", url + "start/", {})
    if status >= 300:
        raise RuntimeError(f"The game did not start ({status}): {answer}")
    out(f"Table {table['id']}: {table['title']} against the {opponent} bot.")
    payload: dict[str, Any] | None = None
    while True:
        since = "" if payload is None else f"?since={payload['version']}"
        status, fresh = api.call("GET", url + "state/" + since)
        if status == 200:
            payload = fresh
        elif status != 204:
            raise RuntimeError(f"The state could not be read ({status}): {fresh}")
        if payload is None:
            continue
        if payload["finished"]:
            break
        if not payload["moves"]:  # another seat is to move
            time.sleep(POLL_SECONDS)
            continue
        move = choose(payload, rng)
        body = {"action": move["action"], "expected_version": payload["version"]}
        status, answer = api.call("POST", url + "actions/", body)
        if status == 201:
            out(f"You: {move['label'].rstrip('.')}.")
            payload = answer
        elif status == 409:  # someone moved first: nothing was applied; read and choose again
            payload = None
        else:
            raise RuntimeError(f"The move was refused ({status}): {answer}")
    print_log(api, url, out)
    out(payload["result"].get("text") or payload["summary"])
    return payload


def print_log(api: Api, url: str, out: Callable[[str], object] = print) -> None:
    """The table's whole log in words, a page at a time (``url``: the table's API address)."""
    after: int | None = 0
    while after is not None:
        status, page = api.call("GET", f"{url}log/?after={after}&limit=200")
        if status != 200:  # a 404 (no such table, or not yours to see), a 401 (the token) ...
            raise RuntimeError(f"The log could not be read ({status}): {page}")
        for entry in page["results"]:
            for event in entry["events"]:
                out(f"{entry['n']}. {event['text']}")
        after = page["next_after"]


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    play(*sys.argv[1:5])
