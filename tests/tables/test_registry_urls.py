"""Every registered game is served through the table core's API (issue 38, "One core, for all
five games"): the registry is walked, and a game whose view, poll, move or log endpoint is not
one of ``tables.api``'s views fails; no route outside the core answers a game table's view,
move or log."""

from __future__ import annotations

from typing import Any

import pytest

from tables.api import TableActionView, TableAPIView, TableLogView, TableStateView
from tables.registry import registered
from tests.url_walk import walk

#: the project's routes plus the test-only game's (Secret Duel, tests/games/duel_tables)
pytestmark = pytest.mark.urls("tests.games.duel_tables.urls")


def _views() -> list[tuple[str, Any]]:
    return [(served.route, served.view_class) for served in walk()]


def _core_endpoints(slug: str, model: type) -> dict[type, list[str]]:
    """The core's views serving game ``slug`` (bound to it, or to every game of its model)."""
    found: dict[type, list[str]] = {}
    for route, view in _views():
        if not (isinstance(view, type) and issubclass(view, TableAPIView)):
            continue
        if view.game_slug == slug or view.table_model is model:
            for base in (TableStateView, TableActionView, TableLogView):
                if issubclass(view, base):
                    found.setdefault(base, []).append(route)
    return found


def test_every_registered_game_is_served_by_the_core():
    games = registered()
    assert {"raigo", "spirit_war", "rso", "dbs", "battle"} <= set(games)
    missing = {}
    for slug, game in games.items():
        found = _core_endpoints(slug, game.table_model)
        lacking = [
            base.__name__
            for base in (TableStateView, TableActionView, TableLogView)
            if not found.get(base)
        ]
        if lacking:
            missing[slug] = lacking
    assert missing == {}, missing


@pytest.mark.parametrize("prefix", ["api/tavern/tables", "api/battles"])
def test_a_game_serves_no_table_endpoint_of_its_own(prefix):
    """The tavern's and the battles' state, actions and log routes are the core's views, and
    no other route of theirs answers a view, a poll or the log (no second path)."""
    routes = dict(_views())
    for name in ("state", "actions", "log"):
        view = routes[f"{prefix}/<int:pk>/{name}/"]
        assert issubclass(view, TableAPIView), (name, view)
    assert f"{prefix}/<int:pk>/view/" not in routes
