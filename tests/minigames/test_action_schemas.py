"""The tavern's action shapes (each engine's ``shapes``: minigames/engines/rso/shapes.py here)
bound a move's shape before the engine sees it; they must never refuse a move the engine lists
as legal. Every key a paying RSO move can carry (the hand cards it discards, the Supports it
sends from the field, an Awakening) is in its shape."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from minigames.engines.rso import ENGINE
from tables.schema import validate_action
from tests.engine.rso.helpers import deck, put, started

RSO_ACTIONS = ENGINE.action_shapes()

#: What a paying RSO move may carry besides its card (the engine's ``payments`` and
#: ``play_options``: ``discard``, ``sacrifice``; ``target`` and ``awaken`` where they apply).
PAYING = {
    "play_event": {"card": "rso-card-1", "target": "rso-card-2", "awaken": True},
    "use_special": {"card": "rso-card-1", "ability": 0, "target": "rso-card-2", "awaken": True},
    "activate": {"spell": "rso-card-1"},
    "equip": {"card": "rso-card-1", "target": "rso-card-2"},
    "attack": {"spell": "rso-card-1"},
    "intercept": {"spell": "rso-card-1"},
}


@pytest.mark.parametrize("kind", sorted(PAYING))
def test_every_paying_move_may_carry_its_payment(kind):
    """Costs may be paid from the hand, the field, the deck top or by Doctrine wherever a cost
    is paid (extra costs, Activate and Battle costs, a Special's cost, an Awakening)."""
    action = {"type": kind, **PAYING[kind], "discard": ["rso-card-3"], "sacrifice": ["rso-card-4"]}
    assert validate_action(action, RSO_ACTIONS) == action
    with pytest.raises(ValidationError):
        validate_action({**action, "doctrine": ["rso-card-5"]}, RSO_ACTIONS)


def test_burned_out_talisman_is_playable_through_the_schema():
    """Burned-Out Talisman's extra cost sends one of your Supports away: the engine lists the
    move with ``sacrifice``, and the table must accept it."""
    state = started(
        first=0,
        decks=[deck(["RSO-001"] * 4, {"RSO-309": 1, "RSO-104": 2}), deck(["T-C2"] * 4, {})],
    )
    talisman = put(state, 0, "RSO-309", "hand")
    ribbon = put(state, 0, "RSO-104", "discard")
    state["players"][0]["discard"].remove(ribbon)
    state["players"][0]["supports"].append(ribbon)
    (move,) = [a for a in ENGINE.legal_actions(state, 0) if a.get("card") == talisman]
    assert move["sacrifice"] == [ribbon]
    assert validate_action(move, RSO_ACTIONS) == move
