"""Action shapes (westernroses/action_shapes.py, turned into a 400 by tables/schema.py): what
an action may carry is checked before any engine sees it. Unknown keys, long strings, long
lists and large values are refused in words."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from tables.schema import validate_action
from westernroses.action_shapes import (
    MAX_STRING,
    ActionShape,
    Bool,
    Int,
    Json,
    List,
    Obj,
    Square,
    Str,
    shapes,
)
from westernroses.battle import ENGINE as BATTLE

KNOWN = shapes(
    ActionShape("play", {"card": Int(1, 9)}),
    ActionShape(
        "aim",
        {
            "who": Str(10),
            "squares": List(Square(), max_items=3),
            "loud": Bool(required=False),
            "extra": Obj({"n": Int(0, 5)}, required=False),
            "blob": Json(50, required=False, nullable=True),
        },
    ),
)


def refused(action):
    with pytest.raises(ValidationError) as caught:
        validate_action(action, KNOWN)
    return caught.value.message_dict["action"]


def test_a_well_formed_action_passes_unchanged():
    action = {"type": "aim", "who": "reimu", "squares": [[0, 1], [2, 3]], "loud": True}
    assert validate_action(action, KNOWN) == action


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ("play", "An action is an object with a type."),
        ({"card": 3}, "An action is an object with a type."),
        ({"type": "fold"}, "This game has no such action."),
        ({"type": "play"}, "“card”: This field is required."),
        ({"type": "play", "card": 10}, "“card”: Give a whole number from 1 to 9."),
        ({"type": "play", "card": True}, "“card”: Give a whole number."),
        ({"type": "play", "card": 3, "note": "x"}, "“note”: This action does not take this field."),
        (
            {"type": "aim", "who": "r" * 11, "squares": []},
            "“who”: At most 10 characters.",
        ),
        (
            {"type": "aim", "who": "r", "squares": [[0, 0]] * 4},
            "“squares”: At most 3 items.",
        ),
        ({"type": "aim", "who": "r", "squares": [[0]]}, "“squares”: A square is [x, y]."),
        (
            {"type": "aim", "who": "r", "squares": [], "extra": {"n": 1, "m": 2}},
            "“extra”: m: This action does not take this field.",
        ),
        (
            {"type": "aim", "who": "r", "squares": [], "blob": {"x": "y" * 60}},
            "“blob”: At most 50 bytes.",
        ),
    ],
)
def test_malformed_actions_are_refused_in_words(action, words):
    messages = refused(action)
    assert any(words in m for m in messages), messages


def test_every_battle_action_type_is_declared_and_bounded():
    """The engine's action types (westernroses/battle/actions.py and overrides.py) each have
    a schema, and a note on any of them is refused."""
    from westernroses.battle.actions import TURN_ACTIONS
    from westernroses.battle.overrides import OVERRIDES

    assert set(TURN_ACTIONS) | set(OVERRIDES) | {"start", "react", "recover_weapons"} == set(
        BATTLE.action_shapes()
    )
    with pytest.raises(ValidationError):
        validate_action({"type": "end_turn", "note": "x" * MAX_STRING}, BATTLE.action_shapes())


def test_each_registered_game_checks_exactly_its_engines_shapes():
    """The table core checks a game's actions against the shapes its engine package declares
    (``engine.action_shapes()``), not a copy: the four tavern games, battles and the test-only
    Secret Duel."""
    from tables.registry import registered

    games = registered()
    assert {"raigo", "spirit_war", "rso", "dbs", "battle", "duel"} <= set(games)
    for slug, game in games.items():
        assert game.actions is game.engine.action_shapes(), slug
