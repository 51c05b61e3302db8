"""DBS's hand-written ``clone`` shares nothing that moves, and new games read the bundled cards
(validated once per process) without changing them (tests/engine/clones.py)."""

from __future__ import annotations

import pytest

from minigames.engines.dbs.cards import shared_starter_set
from minigames.engines.dbs.engine import ENGINE, SHARED_KEYS, clone
from tests.engine.clones import cards_after_games, check_every_step


@pytest.mark.parametrize("seed", range(6))
def test_a_clone_shares_nothing_that_moves_at_any_step(seed):
    assert check_every_step(ENGINE, clone, SHARED_KEYS, seed) > 20


def test_new_games_read_the_bundled_cards_and_never_change_them():
    before = {n: repr(c) for n, c in shared_starter_set().items()}
    assert cards_after_games(ENGINE, shared_starter_set) == before
