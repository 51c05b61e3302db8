"""Bot-against-bot games of Rumbling Spell Orchestra, every one checked as it is played
(tests/engine/many_games.py): every card in exactly one zone, no hidden hand or deck order in
another seat's view or events, no legal move refused and no illegal one applied, no re-dealt
world in which a seat waited on has no move, and the log replays to the same final state.

Random and heuristic bots on either seat, all preset decks against each other, every house
rule's every value: 300 games in the suite, 3,000 in ``make soak``.
"""

from __future__ import annotations

from hypothesis import strategies as st

from minigames.engines.rso import ENGINE, preset_decks
from tests.engine.many_games import PAIRINGS, Tally, house_rules, play_checked_game, play_many
from tests.engine.rso.test_properties import assert_zones

DECKS = sorted(d["key"] for d in preset_decks())


def test_bot_games_keep_every_promise():
    tally = Tally()

    def one_game(seed, decks, pairing, options):
        play_checked_game(
            ENGINE,
            seed=seed,
            bots=pairing,
            check_places=assert_zones,
            tally=tally,
            config={"decks": list(decks)},
            options=options,
        )

    games = play_many(
        300,
        one_game,
        seed=st.integers(0, 2**40),
        decks=st.tuples(st.sampled_from(DECKS), st.sampled_from(DECKS)),
        pairing=st.sampled_from(PAIRINGS),
        options=house_rules(ENGINE),
    )
    assert tally.games >= games * 0.95, tally.games
    assert tally.probes > 3 * games and tally.all_moves_tried > games, tally
    # the probes reached every phase of the game, not only its opening
    assert {"leader", "mulligan"} < tally.phases and len(tally.phases) >= 5, tally.phases
    assert tally.outcomes.get("decided", 0) > games // 2
