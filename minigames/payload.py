"""What a tavern table page (and the tavern API) receives for one seat: one pure function.

Why here and pure: the tavern's API views, its page (the first render) and the renderers' tests
(tests/minigames/renderers) all build the same JSON from an engine and a state, so they cannot
drift apart. Nothing here touches Django; everything comes from the engine's protocol
(westernroses/protocol.py), so a seat gets only her ``view`` and her own legal actions.

The shape (every key always present)::

    {
      "game": "raigo",                  # the engine's slug
      "version": 12,                    # the table's version (send it back with a move)
      "seat": 0,                        # the viewer's seat, None for a spectator
      "names": ["Reimu", "Marisa"],     # seat names for people, in seat order
      "view": {...},                    # engine.view(state, seat)
      "waiting_on": [1],                # seats that must act now (public)
      "moves": [                        # the viewer's legal actions, with words for buttons
        {"action": {...}, "label": "Pile the Roar in your left hand"}
      ],
      "summary": "Round 3: Marisa to play",
      "finished": false,
      "result": null,                   # engine.result(state) once finished
    }
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from westernroses.protocol import GameEngine, Seat, Text


def table_payload(
    engine: GameEngine[Any],
    state: Any,
    seat: Seat | None,
    *,
    version: int,
    names: Sequence[str],
    playing: bool = True,
    say: Callable[[Text], str] = str,
) -> dict[str, Any]:
    """The JSON one seat (or a spectator, ``seat=None``) receives for ``state``.

    ``playing=False``: the seat sees its view but has no moves (a table that ended before its
    game did, by a resignation or an abandon). ``say`` renders the engine's words (the moves'
    labels, the summary): English by default, the reader's language from the app
    (``apibase.engine_words.in_language``)."""
    finished = engine.is_terminal(state)
    legal = [] if seat is None or finished or not playing else engine.legal_actions(state, seat)
    return {
        "game": engine.slug,
        "version": version,
        "seat": seat,
        "names": list(names),
        "view": engine.view(state, seat),
        "waiting_on": list(engine.waiting_on(state)),
        "moves": [
            {"action": action, "label": say(engine.describe_action(state, seat, action))}
            for action in legal
        ]
        if seat is not None
        else [],
        "summary": say(engine.summary(state)),
        "finished": finished,
        "result": engine.result(state) if finished else None,
    }
