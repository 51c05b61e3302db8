"""Thousands of bot-against-bot games of Dream Battle of SpellCard, every one checked at every
step (tests/engine/bot_games.py): every card in exactly one zone, no hidden hand, face-down
card or deck order in another seat's view or events, no legal move refused, no re-dealt world
in which a seat waited on has no move, and the log replays to the same final state (issue 13,
"Done when").

Random and heuristic bots on either seat, the four preset decks against each other, every house
rule. :data:`GAMES` (1,000: 1,500 took 86 s in the whole suite on this 2-core machine, and
the suite must stay under 15 minutes) take about 58 s. The
hypothesis strategies are fixed, so every xdist worker draws the same games.
"""

from __future__ import annotations

import os
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minigames.engines.dbs import ENGINE, card_locations, preset_decks
from tests.engine.bot_games import PAIRINGS, Tally, play_checked_game
from tests.engine.dbs.test_properties import options

GAMES = int(os.environ.get("WR_MANY_GAMES", "1000"))
DECKS = {d["key"]: d["cards"] for d in preset_decks()}


def assert_zones(state):
    """Every card instance in exactly one zone (card_locations lists the zones)."""
    ids = [iid for _, _, iid in card_locations(state)]
    seen = set(ids)
    assert seen == set(state["instances"]), "a card left the game or came from nowhere"
    if len(seen) != len(ids):
        twice = Counter(ids)
        assert max(twice.values()) == 1, [i for i, n in twice.items() if n > 1]


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
        decks=st.tuples(st.sampled_from(sorted(DECKS)), st.sampled_from(sorted(DECKS))),
        pairing=st.sampled_from(PAIRINGS),
        opts=options,
    )
    def one_game(seed, decks, pairing, opts):
        play_checked_game(
            ENGINE,
            seed=seed,
            strengths=dict(enumerate(pairing)),
            check_zones=assert_zones,
            tally=tally,
            config={"decks": [DECKS[decks[0]], DECKS[decks[1]]]},
            options=opts,
        )

    one_game()
    assert tally.games >= GAMES * 0.95, tally.games
    assert tally.probes > 3 * GAMES and tally.all_moves_tried > GAMES, tally
    # the probes reached every part of the game, not only its opening
    assert {"change", "set", "battle"} < tally.phases, tally.phases
    assert tally.outcomes.get("decided", 0) > GAMES // 2
