"""GAME SETUP and 2 PLAYER RULES (../shared/rules/raigo-rulebook-en.md; RULINGS RAIGO 1, 5, 6)."""

from __future__ import annotations

from collections import Counter

import pytest

from minigames.engines.raigo import ENGINE
from minigames.engines.raigo.tokens import TOKENS, kind
from tests.engine.raigo.helpers import assert_tokens_accounted


def test_token_set_is_69_with_five_thunders():
    """RULINGS RAIGO 1: 32 Silent and 37 Spell tokens, Thunder 5, others 4."""
    counts = Counter(k.key for k in TOKENS.values())
    assert len(TOKENS) == 69
    assert sum(1 for k in TOKENS.values() if k.spell) == 37
    assert counts["thunder"] == 5 and counts["destroy"] == 4 and counts["eight"] == 4
    weights = {k.key: k.weight for k in TOKENS.values()}
    assert (weights["thunder"], weights["one"], weights["roar"], weights["destroy"]) == (1, 1, 5, 9)
    assert (weights["switch"], weights["seven"], weights["eight"]) == (7, 7, 8)


@pytest.mark.parametrize(
    ("seats", "raizan", "piles", "circles", "box"),
    [(2, 63 - 3, 2, 3, 1), (3, 68 - 5, 4, 2, 0), (4, 68 - 7, 4, 2, 0)],
)
def test_setup_counts(seats, raizan, piles, circles, box):
    """FIELD/PLAYER SETUP: a Bonus Token, Raizan piles, first player draws one and the others
    two, two Yang balls each; two players: no Eights, one token boxed unseen, two piles, three
    Sakura Circles (2 PLAYER RULES)."""
    state = ENGINE.new_game(seats=seats, seed=7)
    assert_tokens_accounted(state)
    assert sum(len(p) for p in state["raizan"]) == raizan
    assert len(state["raizan"]) == piles
    assert len(state["box"]) == box
    assert [len(p["body"]) for p in state["players"]] == [1] + [2] * (seats - 1)
    assert all(p["balls"] == 2 and len(p["towers"]) == circles for p in state["players"])
    assert state["turn"]["seat"] == 0  # the first player holds the Dong token
    view = ENGINE.view(state, None)
    assert view["dong"] == 0 and view["bonus"]["name"]
    in_play = [t for pile in state["raizan"] for t in pile] + [state["bonus"], *state["box"]]
    eights = [t for t in in_play if kind(t).key == "eight"]
    assert (not eights) if seats == 2 else len(eights) <= 4


def test_bodies_are_sorted_heaviest_at_the_bottom():
    state = ENGINE.new_game(seats=4, seed=3)
    for p in state["players"]:
        weights = [kind(t).weight for t in p["body"]]
        assert weights == sorted(weights, reverse=True)


def test_four_players_are_two_teams_sitting_opposite():
    view = ENGINE.view(ENGINE.new_game(seats=4, seed=1), 0)
    assert [p["team"] for p in view["players"]] == [[0, 2], [1, 3], [0, 2], [1, 3]]


def test_house_rule_destroy_threshold_defaults_to_20():
    """RULINGS RAIGO 5."""
    rule = ENGINE.house_rules()[0]
    assert (rule.key, rule.default) == ("destroy_threshold", 20)
    assert ENGINE.new_game(seats=2, seed=1)["options"]["destroy_threshold"] == 20
    assert ENGINE.new_game(seats=2, seed=1, options={"destroy_threshold": 12})["options"] == {
        "destroy_threshold": 12,
        "spell_limit": "turn_player",
    }


def test_house_rule_spell_limit_defaults_to_the_turn_player():
    """Rules of the Spell 1 ("During your turn ..."): the limit binds the player whose turn
    it is by default; a table may bind every player."""
    rule = ENGINE.house_rules()[1]
    assert (rule.key, rule.default) == ("spell_limit", "turn_player")
    assert [value for value, _ in rule.choices] == ["turn_player", "everyone"]
    state = ENGINE.new_game(seats=3, seed=1, options={"spell_limit": "everyone"})
    assert state["options"]["spell_limit"] == "everyone"


@pytest.mark.parametrize(
    ("seats", "options", "message"),
    [
        (5, None, "2, 3 or 4"),
        (1, None, "2, 3 or 4"),
        (2, {"destroy_threshold": 2}, "at least"),
        (2, {"destroy_threshold": "x"}, "whole number"),
        (2, {"speed": 1}, "no house rule"),
        (2, {"spell_limit": "nobody"}, "must be one of: The player whose turn it is; Every"),
        (2, {"spell_limit": 1}, "must be one of"),
    ],
)
def test_bad_set_up_is_refused_in_words(seats, options, message):
    with pytest.raises(ValueError, match=message):
        ENGINE.new_game(seats=seats, seed=1, options=options)


def test_seat_names_from_config():
    state = ENGINE.new_game(seats=2, seed=1, config={"names": ["Reimu", "Marisa"]})
    assert str(ENGINE.summary(state)) == "Turn 1: Reimu to play"
    with pytest.raises(ValueError, match="seat names"):
        ENGINE.new_game(seats=2, seed=1, config={"names": ["Reimu"]})
