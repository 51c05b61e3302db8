"""Properties over random games (hypothesis): the protocol's promises through
tests/engine/conformance.py, every card in exactly one zone at every step, the greedy bot's
games, across preset deck pairings and house rules. Kept to about 30 seconds in all: the
expensive checks run every few steps (``check_every``)."""

from __future__ import annotations

import random
import re
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minigames.engines.dbs import ENGINE, card_locations, preset_decks
from minigames.engines.dbs.heuristic import evaluate, heuristic_action
from tests.engine.conformance import play_random_game

DECK_KEYS = [d["key"] for d in preset_decks()]
DECKS = {d["key"]: d["cards"] for d in preset_decks()}

options = st.fixed_dictionaries(
    {},
    optional={
        "first_player": st.sampled_from(["random", "first", "second"]),
        "pay_order": st.sampled_from(["beads", "extra"]),
        "smack_down_tie": st.sampled_from(["draw", "drawer_loses"]),
        "level_rule": st.sampled_from(["at_least", "at_most"]),
        "defence": st.sampled_from(["either", "both"]),
    },
)
pairings = st.tuples(st.sampled_from(DECK_KEYS), st.sampled_from(DECK_KEYS))
FAST = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(seed=st.integers(0, 2**40), decks=pairings, opts=options)
def test_random_games_keep_the_protocols_promises(seed, decks, opts):
    config = {"decks": [DECKS[decks[0]], DECKS[decks[1]]]}
    state = play_random_game(ENGINE, seats=2, seed=seed, options=opts, config=config, check_every=9)
    assert ENGINE.is_terminal(state)
    assert ENGINE.result(state)["victory"] in ("special", "knock_out", "smack_down")


def _assert_zones(state, total):
    places = card_locations(state)
    ids = Counter(iid for _, _, iid in places)
    assert len(ids) == total, "a card left the game or appeared from nowhere"
    assert all(n == 1 for n in ids.values()), [i for i, n in ids.items() if n > 1]
    for owner, _, iid in places:
        assert iid in state["instances"]
        assert owner in (0, 1)


#: what must never reach people: snake_case keys, card instance ids, Python reprs
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b|dbs-card-|\{|\[|None|True|False")


def _play(seed, opts, decks, policy):
    rng = random.Random(seed)
    state = ENGINE.new_game(
        seats=2, seed=seed, options=opts, config={"decks": [DECKS[decks[0]], DECKS[decks[1]]]}
    )
    total = len(state["instances"])
    for _ in range(5000):
        _assert_zones(state, total)
        if ENGINE.is_terminal(state):
            return state
        waiting = ENGINE.waiting_on(state)
        seat = waiting[rng.randrange(len(waiting))]
        # the hand and face-down cards of one seat never reach the other's view
        other_view = str(ENGINE.view(state, 1 - seat))
        for iid in state["players"][seat]["hand"]:
            if iid not in state["players"][seat]["known"]:
                assert f"'{iid}'" not in other_view
        action = policy(state, seat, rng)
        assert -1.0 <= evaluate(state, seat) <= 1.0
        words = str(ENGINE.describe_action(state, seat, action))
        state, events = ENGINE.apply(state, seat, action)
        for text in [words, str(ENGINE.summary(state))] + [e["text"] for e in events]:
            assert not IDENTIFIER.search(text), text
    raise AssertionError("the game did not end")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**40), decks=pairings, opts=options)
def test_every_card_is_in_exactly_one_zone_at_every_step(seed, decks, opts):
    _play(seed, opts, decks, lambda state, seat, rng: rng.choice(ENGINE.legal_actions(state, seat)))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**40), decks=pairings)
def test_greedy_bot_games_end_with_every_card_in_place(seed, decks):
    state = _play(seed, {}, decks, heuristic_action)
    assert ENGINE.is_terminal(state)
    assert evaluate(state, 0) == ENGINE.returns(state)[0]


def test_the_conformance_check_meets_hidden_choices_and_known_cards():
    """The hidden-choice check is not idle: in a fixed game it compares opening choices and
    cards put face down (Extra SP, Traps), the shown retrieval against unseen cards."""
    stats = Counter()
    config = {"decks": [DECKS[DECK_KEYS[0]], DECKS[DECK_KEYS[1]]]}
    play_random_game(ENGINE, seats=2, seed=0, config=config, check_every=3, stats=stats)
    assert stats["compared"] > 0 and stats["known_compared"] > 0
