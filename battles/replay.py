"""What a battle adds to the table core's replays (:mod:`tables.replay`).

Why a battle needs its own two hooks: its GM's undo replays the log without the last move,
so applying a logged ``gm_undo`` again needs the moves before it (the engine's ``apply`` reads
them from the state's history); and its events carry no sentences (the battle screen words
them), so the move list names each move from the engine's ``describe_action``, which names the
acting combatant: a move by someone standing in fog for the viewer, before or after it, is
named to nobody.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from westernroses import battle as engine
from westernroses.protocol import Seat


def replay_apply(
    state: engine.BattleState,
    initial: Mapping[str, Any],
    rows_before: Sequence[Any],
    seat: Seat,
    action: Mapping[str, Any],
) -> tuple[engine.BattleState, list[Any]]:
    """A logged battle move applied again: an undo with the moves before it as its history
    (its state then keeps only the undo's own entry, as every other move's does)."""
    if action.get("type") != "gm_undo":
        return engine.ENGINE.apply(state, seat, action)
    history = engine.with_history(state, initial, [row.log_entry() for row in rows_before])
    after, events = engine.ENGINE.apply(history, seat, action)
    after.log = after.log[-1:]
    after.initial = None
    return after, events


def move_words(
    before: engine.BattleState,
    after: engine.BattleState,
    viewer: Seat | None,
    seat: Seat,
    action: Mapping[str, Any],
) -> str:
    """ "Cirno: Attack", or "A move in the fog." when its combatant is hidden from ``viewer``
    (fog, before or after the move)."""
    who = action.get("combatant")
    if (
        isinstance(who, str)
        and who
        and (
            who in engine.ENGINE.hidden_from(before, viewer)
            or who in engine.ENGINE.hidden_from(after, viewer)
        )
    ):
        return "A move in the fog."
    return engine.ENGINE.describe_action(before, seat, action) + "."


def replay_page(battle: Any, user: Any, seat: Seat | None) -> dict[str, Any]:
    """The replay page's parts for ``battle``: the battle screen, in its replay mode (no
    polling, no chat, no move offered), with the members' names it words the log with."""
    from django.urls import reverse
    from django.utils.translation import gettext

    from .selectors import member_names

    return {
        "title": gettext("%(battle)s: the battle again, move by move") % {"battle": battle.name},
        "back": reverse("battles:detail", args=[battle.pk]),
        "api": reverse("api-battle-replay", args=[battle.pk]),
        "board": "battles/_replay_board.html",
        "scripts": ["js/table_client.js", "js/battle_screen.js"],
        "styles": [],
        "main_class": "battle-wide",
        "config": {"kind": "battle", "game": "battle"},
        "battle_config": {
            "id": battle.pk,
            "name": battle.name,
            "player": str(seat) if seat is not None else "spectator",
            "is_gm": seat == engine.GM_SEAT,
            "replay": True,
            "members": member_names(battle.campaign_id),
            "urls": {"portraits": reverse("api-battle-portraits", args=[battle.pk])},
            "me": getattr(user, "pk", None),
        },
    }
