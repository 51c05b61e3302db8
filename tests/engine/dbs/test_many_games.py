"""Bot-against-bot games of Dream Battle of SpellCard, every one checked as it is played
(tests/engine/many_games.py): every card in exactly one zone, no hidden hand, face-down card or
deck order in another seat's view or events, no legal move refused and no illegal one applied,
no re-dealt world in which a seat waited on has no move, and the log replays to the same final
state.

Random and heuristic bots on either seat, the preset decks against each other, every house rule:
300 games in the suite, 3,000 in ``make soak``.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import strategies as st

from minigames.engines.dbs import ENGINE, card_locations, preset_decks
from tests.engine.dbs.test_properties import options
from tests.engine.many_games import PAIRINGS, Tally, play_checked_game, play_many

DECKS = {d["key"]: d["cards"] for d in preset_decks()}


def assert_zones(state):
    """Every card instance in exactly one zone (card_locations lists the zones)."""
    ids = [iid for _, _, iid in card_locations(state)]
    seen = set(ids)
    assert seen == set(state["instances"]), "a card left the game or came from nowhere"
    if len(seen) != len(ids):
        twice = Counter(ids)
        assert max(twice.values()) == 1, [i for i, n in twice.items() if n > 1]


def test_bot_games_keep_every_promise():
    tally = Tally()

    def one_game(seed, decks, pairing, opts):
        play_checked_game(
            ENGINE,
            seed=seed,
            bots=pairing,
            check_places=assert_zones,
            tally=tally,
            config={"decks": [DECKS[decks[0]], DECKS[decks[1]]]},
            options=opts,
        )

    games = play_many(
        300,
        one_game,
        seed=st.integers(0, 2**40),
        decks=st.tuples(st.sampled_from(sorted(DECKS)), st.sampled_from(sorted(DECKS))),
        pairing=st.sampled_from(PAIRINGS),
        opts=options,
    )
    assert tally.games >= games * 0.95, tally.games
    assert tally.probes > 3 * games and tally.all_moves_tried > games, tally
    # the probes reached every part of the game, not only its opening
    assert {"change", "set", "battle"} < tally.phases, tally.phases
    assert tally.outcomes.get("decided", 0) > games // 2
