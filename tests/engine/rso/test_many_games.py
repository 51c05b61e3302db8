"""Thousands of bot-against-bot games of Rumbling Spell Orchestra, every one checked at every
step (tests/engine/bot_games.py): every card in exactly one zone, no hidden hand or deck order
in another seat's view or events, no legal move refused, no re-dealt world in which a seat
waited on has no move, and the log replays to the same final state (issue 13, "Done when").

Random and heuristic bots on either seat, all four preset decks against each other, both
deck-out rules. :data:`GAMES` (1,000: 1,500 took 97 s in the whole suite on this 2-core machine,
and the suite must stay under 15 minutes) take about 65 s. The hypothesis strategies are fixed,
so every xdist worker draws the same games.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minigames.engines.rso import ENGINE, preset_decks
from tests.engine.bot_games import PAIRINGS, Tally, play_checked_game
from tests.engine.rso.test_properties import assert_zones

GAMES = int(os.environ.get("WR_MANY_GAMES", "1000"))
DECKS = sorted(preset_decks())


def test_thousands_of_bot_games_keep_every_promise():
    tally = Tally()

    @settings(
        max_examples=GAMES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(
        seed=st.integers(0, 2**40),
        decks=st.tuples(st.sampled_from(DECKS), st.sampled_from(DECKS)),
        pairing=st.sampled_from(PAIRINGS),
        deck_out=st.sampled_from(["draw", "empty"]),
    )
    def one_game(seed, decks, pairing, deck_out):
        play_checked_game(
            ENGINE,
            seed=seed,
            strengths=dict(enumerate(pairing)),
            check_zones=assert_zones,
            tally=tally,
            config={"decks": list(decks)},
            options={"deck_out": deck_out},
        )

    one_game()
    assert tally.games >= GAMES * 0.95, tally.games
    assert tally.probes > 3 * GAMES and tally.all_moves_tried > GAMES, tally
    # the probes reached every phase of the game, not only its opening
    assert {"leader", "mulligan"} < tally.phases and len(tally.phases) >= 5, tally.phases
    assert tally.outcomes.get("decided", 0) > GAMES // 2
