"""Scoring towers ("About hands", "Additional Points", "SCORING EXAMPLE" of
../shared/rules/raigo-rulebook-en.md; RULINGS RAIGO 2-4). Towers are written bottom to top."""

from __future__ import annotations

import pytest

from minigames.engines.raigo.hands import RAIJIN_HANDS, score_tower

# (tower bottom to top, hand, basic, height bonus, Spell/Silent bonus, total)
TOWERS = [
    # Basic hands (RULINGS RAIGO 2: three or more, covering the whole tower)
    (["three", "three", "three"], "Sakura", 2, 0, 1, 3),
    (["thunder", "one", "one"], "Sakura", 2, 0, 0, 2),
    (["five", "roar", "five", "roar"], "Sakura", 2, 1, 0, 3),
    (["seven", "seven", "seven", "seven", "seven"], "Sakura", 2, 2, 1, 5),
    (["four", "three", "two"], "Lotus", 1, 0, 1, 2),
    (["shield", "three", "snake"], "Lotus", 1, 0, 0, 1),
    (["eight", "seven", "six", "five"], "Lotus", 1, 1, 1, 3),
    (["destroy", "purify", "switch", "mist", "roar"], "Lotus", 1, 2, 1, 4),
    (["six", "four", "two"], "Even Lotus", 1, 0, 1, 2),
    (["purify", "six", "shield", "snake"], "Even Lotus", 1, 1, 0, 2),
    (["seven", "five", "three", "one"], "Odd Lotus", 1, 1, 1, 3),
    (["destroy", "switch", "roar"], "Odd Lotus", 1, 0, 1, 2),
    (["five", "katana", "thunder"], "Odd Lotus", 1, 0, 0, 1),
    # No hand: too short, a stray token, a gap
    (["five", "five"], None, 0, 0, 0, 0),
    (["one"], None, 0, 0, 0, 0),
    (["three", "three", "three", "one"], None, 0, 0, 0, 0),
    (["four", "three", "two", "one", "one"], None, 0, 0, 0, 0),
    (["six", "five", "three"], None, 0, 0, 0, 0),
    (["six", "four", "three"], None, 0, 0, 0, 0),
    # Unsettled: a heavier token on a lighter one scores nothing
    (["one", "two", "three"], "unsettled", 0, 0, 0, 0),
    (["five", "five", "six", "five"], "unsettled", 0, 0, 0, 0),
    # Combined hands (six tokens)
    (["six", "six", "six", "two", "two", "two"], "Double Sakura", 4, 3, 1, 8),
    (["mist", "six", "six", "one", "thunder", "one"], "Double Sakura", 4, 3, 0, 7),
    (["seven", "six", "five", "two", "two", "two"], "Sakura-Lotus", 3, 3, 1, 7),
    (["eight", "eight", "eight", "four", "three", "two"], "Lotus-Sakura", 3, 3, 1, 7),
    (["eight", "seven", "six", "three", "two", "one"], "Double Lotus", 2, 3, 1, 6),
    (["destroy", "purify", "switch", "roar", "katana", "thunder"], "Double Lotus", 2, 3, 1, 6),
    (["six", "five", "four", "three", "two", "one"], "Double Lotus", 2, 3, 1, 6),
    (["eight", "six", "four", "five", "four", "three"], "unsettled", 0, 0, 0, 0),
    # Special hands: no additional points
    (["seven", "seven", "four", "four", "two", "two"], "Red Camellia", 6, 0, 0, 6),
    (["seven", "switch", "four", "shield", "two", "snake"], "White Camellia", 4, 0, 0, 4),
    (["eight", "eight", "five", "roar", "one", "thunder"], "White Camellia", 4, 0, 0, 4),
    # Camellias need three different weights (docs/games/raigo.md, "Camellias"): four of one
    # weight are no two pairs, six of one weight stay a Double Sakura
    (["seven", "seven", "seven", "switch", "two", "two"], None, 0, 0, 0, 0),
    (["five", "five", "roar", "roar", "one", "one"], None, 0, 0, 0, 0),
    (["one", "one", "thunder", "thunder", "one", "one"], "Double Sakura", 4, 3, 0, 7),
    (["three", "three", "three", "three", "three", "katana"], "Double Sakura", 4, 3, 0, 7),
    # Raijin hands (RULINGS RAIGO 4)
    (["roar", "five", "roar", "five", "roar", "five"], "Sakura-Dance Macabre", 11, 0, 0, 11),
    (["five", "roar", "five", "roar", "five", "roar"], "Sakura-Dance Macabre", 11, 0, 0, 11),
    (["mist", "six", "mist", "six", "mist", "six"], "Phantom Samsara", 12, 0, 0, 12),
    (["six", "mist", "six", "mist", "six", "mist"], "Phantom Samsara", 12, 0, 0, 12),
    (["seven", "mist", "five", "shield", "three", "snake"], "Shigure-Lotus", 10, 0, 0, 10),
    (["mist", "roar", "shield", "four", "three", "two"], "Kasumi-Double Lotus Head", 11, 0, 0, 11),
    (
        ["destroy", "katana", "three", "katana", "three", "katana"],
        "Justice of Bishamonten",
        12,
        0,
        0,
        12,
    ),
    (["purify", "purify", "six", "six", "thunder", "thunder"], "Rikka-Snow White", 12, 0, 0, 12),
    # Not quite a Raijin hand: the same tokens in another order
    (["roar", "roar", "five", "five", "roar", "five"], "Double Sakura", 4, 3, 0, 7),
]


@pytest.mark.parametrize(("tower", "hand", "basic", "height", "kind", "total"), TOWERS)
def test_tower_table(tower, hand, basic, height, kind, total):
    score = score_tower(tower)
    if hand == "unsettled":
        assert score.unsettled and score.total == 0
        return
    assert (score.hand, score.basic, score.height_bonus, score.kind_bonus) == (
        hand,
        basic,
        height,
        kind,
    )
    assert score.total == total
    assert score.words()


def test_table_is_big_enough():
    assert len(TOWERS) >= 30


def test_scoring_example_player_a_scores_five():
    """SCORING EXAMPLE: four weight-I tokens (RULINGS RAIGO 3) = Sakura 2 + height 1 = 3; Snake,
    Katana, Shield = Lotus 1 + Spell bonus 1 = 2; 3 + 2 = 5."""
    left = score_tower(["one", "thunder", "one", "one"])
    right = score_tower(["shield", "katana", "snake"])
    assert (left.hand, left.basic, left.height_bonus, left.kind_bonus) == ("Sakura", 2, 1, 0)
    assert (right.hand, right.basic, right.kind_bonus) == ("Lotus", 1, 1)
    assert left.total + right.total == 5


def test_no_hand_examples():
    """ "No hand" E.g. 1 and 2: a Sakura or Lotus with an extra weight-I token on top."""
    assert score_tower(["three", "three", "three", "one"]).hand is None
    assert score_tower(["five", "four", "three", "one"]).hand is None


def test_height_bonus_is_per_token_above_the_third():
    """ "Height Bonus", RULINGS RAIGO 3: +1 per token above the third."""
    assert [score_tower(["two"] * n).height_bonus for n in (3, 4, 5)] == [0, 1, 2]


def test_special_and_raijin_hands_get_no_additional_points():
    """ "Notes on Additional Points": no additional points for special or Raijin hands."""
    red = score_tower(["seven", "seven", "four", "four", "two", "two"])
    assert red.height_bonus == red.kind_bonus == 0
    for hand in RAIJIN_HANDS:
        score = score_tower(list(hand.patterns[0]))
        assert (score.hand, score.total) == (hand.name, hand.points)


def test_combined_spell_silent_bonus_needs_all_six():
    """ "Notes on Additional Points": a combined hand's Spell/Silent bonus needs all six."""
    assert score_tower(["six", "six", "six", "two", "two", "two"]).kind_bonus == 1
    assert score_tower(["six", "six", "six", "two", "two", "snake"]).kind_bonus == 0


def test_raijin_patterns_are_settled_six_token_towers():
    for hand in RAIJIN_HANDS:
        for pattern in hand.patterns:
            assert len(pattern) == 6
            assert not score_tower(list(pattern)).unsettled
