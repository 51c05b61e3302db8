"""What a game lends the clocks when a seat's time runs out (filled in its app's ``ready()``).

The core cannot import a game's app (``tests/test_import_graph.py``): a tavern game gives the
bots' move and its resignation here, as a game gives the core its ``TableGame``.

* ``bot_action(engine, state, seat, strength)`` - the move a bot of ``strength`` ("random",
  "heuristic") plays for ``seat``;
* ``forfeit(table_id, seat, now)`` - the seat gives up as a resignation does, stakes settled
  (inside the clock's transaction);
* ``manages(user, table)`` - whether ``user`` sets and pauses this table's clock (a host, a GM);
* ``clocked(table, seat)`` - whether ``seat`` has a clock [a seat with players]: a battle
  clocks its players' turns, never the GM's;
* ``skip_action(state, seat)`` - the move that skips ``seat``'s turn where the engine's
  ``timeout_action`` gives none (a battle's end of turn) [the random bot's move];
* ``rules`` - the rules a host may choose [all four];
* ``announce(table)`` - how open pages hear that the clock was set, changed or paused where
  the table's version must stay its engine's (a battle's version is its engine state's, its
  log's numbering: its table feed carries the clock, as it carries the map) [the table's
  version moves on].
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from westernroses.protocol import Action, GameEngine, Seat


@dataclass(frozen=True)
class ClockHooks:
    bot_action: Callable[[GameEngine[Any], Any, Seat, str], Action] | None = None
    forfeit: Callable[[int, Seat, datetime], None] | None = None
    manages: Callable[[Any, Any], bool] | None = None
    clocked: Callable[[Any, Seat], bool] | None = None
    skip_action: Callable[[Any, Seat], Action | None] | None = None
    rules: tuple[str, ...] = ("skip", "random", "heuristic", "forfeit")
    announce: Callable[[Any], None] | None = None


_HOOKS: dict[str, ClockHooks] = {}


def register_clock_hooks(slug: str, hooks: ClockHooks) -> None:
    _HOOKS[slug] = hooks


def hooks_for(slug: str) -> ClockHooks:
    return _HOOKS.get(slug, ClockHooks())
