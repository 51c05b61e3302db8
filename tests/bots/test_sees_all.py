"""The search that sees everything (``python -m minigames.bots.measure --sees-all``): an upper
bound for measurements, a bot that cheats. It must really search the true state, and no table's
bot or advisor may ever reach it.

Secret Duel is the proof (docs/bots.md, "Tests and numbers"): a fair bot that always chooses
after the random bot wins about half its games (the suite's band: 38 to 62 of 100), because the
other's card lies face down; one that sees it wins far more (the yardstick, the smallest card
that beats it: above 62 of 100).
"""

from __future__ import annotations

import inspect
import random
from pathlib import Path

import pytest

import minigames
from minigames.bots import STRENGTHS, Heuristics, SearchSettings, advise, choose_action
from minigames.bots.measure import measure, sees_all_action
from tests.games import duel


def test_the_search_that_sees_all_plays_the_true_world_of_secret_duel():
    """Measured: 71 of 100 games at 16 simulations, always choosing after the random bot (a fair
    search in the same seat: 45 of 100 at 100 simulations)."""
    engine = duel.ENGINE
    wins = 0
    for n in range(100):
        me, other = n % 2, 1 - n % 2
        rng = random.Random(n)
        state = engine.new_game(seats=2, seed=n)
        move = 0
        while not engine.is_terminal(state):
            state, _ = engine.apply(state, other, rng.choice(engine.legal_actions(state, other)))
            action = sees_all_action(
                engine,
                state,
                me,
                n * 10_000 + move,
                settings=SearchSettings(simulations=16),
                heuristics=Heuristics(),
            )
            state, _ = engine.apply(state, me, action)
            move += 1
        wins += engine.returns(state)[me] > 0
    assert wins > 62


def test_no_tavern_strength_or_advisor_can_see_all():
    """The tavern reaches the bots only through ``choose_action`` and ``advise``: neither takes
    the flag, the strengths are the three fair ones, and outside the search itself only the
    measurement command names it."""
    assert STRENGTHS == ("random", "heuristic", "search")
    assert "sees_all" not in inspect.signature(choose_action).parameters
    assert "sees_all" not in inspect.signature(advise).parameters
    package = Path(minigames.__file__).parent
    naming = {
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if "sees_all" in path.read_text(encoding="utf-8")
    }
    assert naming == {"bots/search.py", "bots/measure.py"}


def test_only_the_search_bot_can_be_measured_seeing_all():
    with pytest.raises(ValueError, match="Only the search bot"):
        measure(
            "spirit_war",
            strength="heuristic",
            opponent="random",
            games=1,
            settings=SearchSettings(),
            progress=False,
            sees_all=True,
        )
