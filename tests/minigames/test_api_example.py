"""The documented API bot (docs/examples/tavern_bot.py) plays whole games against the site's
bots on a live server, through nothing but HTTP: what docs/tavern.md promises a bot written by
someone else can do."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from rest_framework.authtoken.models import Token

from minigames.engines.registry import get_engine
from minigames.models import TavernTable
from tests.minigames.conftest import one_open_seat

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "tavern_bot.py"


def _example():
    spec = importlib.util.spec_from_file_location("tavern_bot", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game", ["spirit_war", "rso"])
def test_the_documented_bot_plays_a_whole_game_through_the_api(live_server, player, game):
    bot = _example()
    bot.POLL_SECONDS = 0.05
    token = Token.objects.create(user=player)
    lines: list[str] = []
    final = bot.play(live_server.url, token.key, game, "random", seed=7, out=lines.append)
    table = TavernTable.objects.get(host=player)
    engine = get_engine(game)
    state = engine.from_json(table.state)
    assert table.status == "ended" and engine.is_terminal(state)
    assert final["finished"] and final["result"]["winners"] == engine.result(state)["winners"]
    # every move the script sent is in the table's log, and it printed the log in words
    mine = [a for a in table.actions.all() if a.seat == "0"]
    assert len(mine) == sum(line.startswith("You: ") for line in lines) > 0
    logged = [line for line in lines if re.match(r"\d+\. [A-Z]", line)]
    assert len(logged) >= len(mine)
    assert lines[-1] == (final["result"].get("text") or final["summary"])


def test_a_refused_table_says_why(live_server, player):
    bot = _example()
    token = Token.objects.create(user=player)
    with pytest.raises(RuntimeError, match="not opened"):
        bot.play(live_server.url, token.key, "no_such_game", out=lambda _: None)


def test_a_log_that_cannot_be_read_says_why(live_server, player):
    """The log's answer is checked before it is read: a table that does not exist (404) or a
    token that no longer does (401) is said in words, not a KeyError."""

    bot = _example()
    token = Token.objects.create(user=player)
    api = bot.Api(live_server.url, token.key)
    with pytest.raises(RuntimeError, match=r"The log could not be read \(404\)"):
        bot.print_log(api, "/api/tavern/tables/999999/", out=lambda _: None)
    table = one_open_seat(player, "raigo")
    lines: list[str] = []
    bot.print_log(api, f"/api/tavern/tables/{table.pk}/", out=lines.append)  # readable: no moves
    assert lines == []
    token.delete()
    with pytest.raises(RuntimeError, match=r"The log could not be read \(401\)"):
        bot.print_log(api, f"/api/tavern/tables/{table.pk}/", out=lambda _: None)
