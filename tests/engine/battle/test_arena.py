"""The arena's geometry: RULINGS 9 (Manhattan range and AOE) and "Move" (orthogonal steps)."""

from __future__ import annotations

import pytest

from westernroses.battle.arena import Arena, knockback_square, manhattan, reachable


def test_aoe_1_is_the_target_and_its_four_neighbours():
    """Spellcards: Targets: "AOE 1 effects the target space and the four spaces adjacent to it"."""
    arena = Arena(9, 9)
    assert arena.area((4, 4), 1) == [(3, 4), (4, 3), (4, 4), (4, 5), (5, 4)]


def test_aoe_2_reaches_two_spaces_in_each_direction():
    """Spellcards: Targets: "AOE 2 effects the target space as well as two spaces away in each of
    the four directions" - RULINGS 9: every square within Manhattan distance 2 (13 squares)."""
    area = Arena(9, 9).area((4, 4), 2)
    assert len(area) == 13
    assert {(2, 4), (6, 4), (4, 2), (4, 6), (3, 3), (5, 5)} <= set(area)
    assert (2, 2) not in area


def test_aoe_is_clipped_at_the_arena_edge():
    """RULINGS 9 on a GM-sized arena ("The Arena"): squares outside it are never covered."""
    assert Arena(5, 5).area((0, 0), 1) == [(0, 0), (0, 1), (1, 0)]


def test_range_is_manhattan_distance():
    """RULINGS 9: range is Manhattan distance on the grid."""
    assert manhattan((0, 0), (3, 4)) == 7


def test_moving_counts_orthogonal_steps_and_difficult_squares_cost_two():
    """The Arena / Move ("a number of spaces less than or equal to your speed"); difficult
    squares cost 2 (ruling, docs/battle.md)."""
    arena = Arena(5, 1, difficult=frozenset({(1, 0)}))
    assert reachable(arena, (0, 0), 3) == {(1, 0): 2, (2, 0): 3}


def test_blocked_squares_and_enemies_cannot_be_crossed_allies_can():
    """Ruling: blocking squares are never entered; enemies block, allies may be passed but
    not stood on."""
    arena = Arena(4, 1, blocked=frozenset({(2, 0)}))
    assert reachable(arena, (0, 0), 5) == {(1, 0): 1}
    open_row = Arena(4, 1)
    assert reachable(open_row, (0, 0), 3, impassable={(1, 0)}) == {}
    assert reachable(open_row, (0, 0), 3, occupied={(1, 0)}) == {(2, 0): 2, (3, 0): 3}


def test_knockback_moves_one_square_straight_away():
    """Status Effects: Knockback "moved one space in a straight line away from the attacker"."""
    assert knockback_square((0, 0), (1, 0)) == (2, 0)
    assert knockback_square((3, 3), (3, 1)) == (3, 0)
    assert knockback_square((0, 0), (2, 1)) == (3, 1)


@pytest.mark.parametrize("bad", [{"width": 0, "height": 3}, {"width": 3, "height": 101}])
def test_arena_size_is_checked(bad):
    """The Arena: the GM sizes it; the engine refuses impossible sizes."""
    with pytest.raises(ValueError):
        Arena(bad["width"], bad["height"])


def test_arena_round_trip():
    """State is JSON: the arena's squares serialise sorted and come back equal."""
    arena = Arena(6, 4, frozenset({(2, 1), (0, 3)}), frozenset({(5, 0)}))
    assert Arena.from_dict(arena.to_dict()) == arena
    assert arena.to_dict()["blocked"] == [[0, 3], [2, 1]]


def test_an_arena_keeps_its_hash_and_rebuilds_it_when_copied() -> None:
    """Arenas key the remembered searches and keep their hash (issue 15): equal arenas hash
    alike however they were made, and a pickled or copied one works its hash out again
    rather than carrying one over (string hashes differ between processes)."""
    import copy
    import pickle

    arena = Arena(7, 5, frozenset({(1, 1)}), frozenset({(2, 3)}), fog=frozenset({(6, 4)}))
    for twin in (
        Arena.from_dict(arena.to_dict()),
        pickle.loads(pickle.dumps(arena)),  # noqa: S301 - our own bytes
        copy.deepcopy(arena),
    ):
        assert twin == arena and hash(twin) == hash(arena) and twin.to_dict() == arena.to_dict()
    assert hash(Arena(7, 5)) != hash(arena) and Arena(7, 5) != arena
