"""The bots' public API (minigames/bots/choose.py): three strengths that each return a legal
move, deterministically for a seed, and the advisor's estimate for every legal move."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest

from minigames.bots import (
    STRENGTHS,
    Heuristics,
    SearchSettings,
    advise,
    choose_action,
    heuristics_for,
)
from minigames.bots.adapter import load_game
from minigames.bots.search import STRONG, make_bot, strongest
from tests.games import bids, duel

FAST = SearchSettings(simulations=60)
GAMES = [duel.ENGINE, bids.ENGINE]


def positions(engine, seed, count=12):
    """(state, seat) pairs along a random game: every seat waited on, both orders of a
    simultaneous choice."""
    rng = random.Random(seed)
    state = engine.new_game(seats=2, seed=seed)
    found = []
    while not engine.is_terminal(state) and len(found) < count:
        waiting = engine.waiting_on(state)
        found.extend((state, seat) for seat in waiting)
        seat = rng.choice(waiting)
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return found


@pytest.mark.parametrize("engine", GAMES, ids=lambda e: e.slug)
@pytest.mark.parametrize("strength", STRENGTHS)
def test_every_strength_returns_a_legal_move(engine, strength):
    for n, (state, seat) in enumerate(positions(engine, seed=7)):
        action = choose_action(engine, state, seat, strength, n, settings=FAST)
        assert action in engine.legal_actions(state, seat)


@pytest.mark.parametrize("engine", GAMES, ids=lambda e: e.slug)
@pytest.mark.parametrize("strength", STRENGTHS)
def test_the_same_seed_gives_the_same_move(engine, strength):
    for n, (state, seat) in enumerate(positions(engine, seed=3, count=6)):
        first = choose_action(engine, state, seat, strength, n, None, settings=FAST)
        again = choose_action(engine, state, seat, strength, n, None, settings=FAST)
        assert first == again


def test_seeds_matter_for_the_random_bot():
    state = bids.ENGINE.new_game(seats=2, seed=1)
    moves = {
        bids.ENGINE.describe_action(state, 0, choose_action(bids.ENGINE, state, 0, "random", s))
        for s in range(40)
    }
    assert len(moves) == 5


def test_the_search_is_a_pure_function_of_its_seed_and_settings():
    """Two searches with one seed build the same tree (same visits per move)."""
    state = bids.ENGINE.new_game(seats=2, seed=9)
    visits = []
    for _ in range(2):
        advice = advise(bids.ENGINE, state, 1, seed=4, time_limit=None, settings=FAST)
        visits.append([a["visits"] for a in advice])
    assert visits[0] == visits[1]
    other = advise(bids.ENGINE, state, 1, seed=5, time_limit=None, settings=FAST)
    assert [a["visits"] for a in other] != visits[0]


def test_a_seat_that_is_not_asked_gets_no_move():
    state = bids.ENGINE.new_game(seats=2, seed=1)
    state, _ = bids.ENGINE.apply(state, 0, bids.ENGINE.legal_actions(state, 0)[0])
    with pytest.raises(ValueError, match="not asked"):
        choose_action(bids.ENGINE, state, 0, "random", 1)


def test_an_unknown_strength_is_refused_in_words():
    state = bids.ENGINE.new_game(seats=2, seed=1)
    with pytest.raises(ValueError, match="Unknown bot strength"):
        choose_action(bids.ENGINE, state, 0, "grandmaster", 1)  # type: ignore[arg-type]


def test_the_heuristic_strength_plays_the_engines_heuristic():
    """Prize Bids' greedy rule: the biggest prize gets the biggest card."""
    own = Heuristics.from_module(bids)
    for n, (state, seat) in enumerate(positions(bids.ENGINE, seed=5)):
        chosen = choose_action(bids.ENGINE, state, seat, "heuristic", n, heuristics=own)
        assert chosen == bids.heuristic_action(state, seat, random.Random(0))


def test_an_engine_without_a_heuristic_module_gets_the_generic_fallback():
    assert heuristics_for(duel.ENGINE) == Heuristics()
    state = bids.ENGINE.new_game(seats=2, seed=2)
    move = choose_action(bids.ENGINE, state, 0, "heuristic", 1, heuristics=Heuristics())
    assert move in bids.ENGINE.legal_actions(state, 0)


def test_a_heuristic_that_answers_an_illegal_move_is_refused():
    broken = Heuristics(action=lambda state, seat, rng: {"type": "bid", "card": 99})
    state = bids.ENGINE.new_game(seats=2, seed=2)
    with pytest.raises(ValueError, match="illegal move"):
        choose_action(bids.ENGINE, state, 0, "heuristic", 1, heuristics=broken)


def test_the_heuristic_never_sees_the_real_hidden_cards():
    """It is handed a world re-dealt for the seat: the other hand differs from the real one
    for some seed (and the seat's own hand never does)."""
    state = bids.ENGINE.new_game(seats=2, seed=2)
    seen = []

    def spy(world, seat, rng):
        seen.append((world["hands"][0], world["hands"][1]))
        return bids.heuristic_action(world, seat, rng)

    for seed in range(10):
        choose_action(bids.ENGINE, state, 0, "heuristic", seed, heuristics=Heuristics(spy))
    assert {tuple(mine) for mine, _ in seen} == {tuple(state["hands"][0])}
    assert any(theirs != state["hands"][1] for _, theirs in seen)


def test_the_search_evaluator_follows_what_the_engine_offers():
    """Heuristic move and evaluation: playouts guided by the heuristic, its move favoured by the
    prior (PUCT); evaluation only: scored at the leaf; neither: random playouts (UCT)."""
    from open_spiel.python.algorithms import ismcts

    game = load_game(bids.ENGINE, 2)
    guided = make_bot(
        game, settings=FAST, heuristics=Heuristics.from_module(bids), seed=1, time_limit=None
    )
    leaf = make_bot(
        game, settings=FAST, heuristics=Heuristics(evaluate=bids.evaluate), seed=1, time_limit=None
    )
    plain = make_bot(game, settings=FAST, heuristics=Heuristics(), seed=1, time_limit=None)
    assert type(guided._evaluator).__name__ == "RolloutEvaluator"
    assert guided._child_selection_policy == ismcts.ChildSelectionPolicy.PUCT
    assert type(leaf._evaluator).__name__ == "HeuristicEvaluator"
    assert type(plain._evaluator).__name__ == "RolloutEvaluator"
    assert plain._child_selection_policy == ismcts.ChildSelectionPolicy.UCT

    state = game.state_from_engine(bids.ENGINE.new_game(seats=2, seed=1))
    prior = dict(guided._evaluator.prior(state))
    favourite = game.action_id(bids.heuristic_action(state.engine_state, 0, random.Random(0)))
    share = (1 - FAST.prior_weight) / 5
    assert prior == {
        a: pytest.approx(share + (FAST.prior_weight if a == favourite else 0))
        for a in state.legal_actions()
    }
    assert dict(plain._evaluator.prior(state)) == dict.fromkeys(state.legal_actions(), 0.2)
    for bot in (guided, leaf, plain):
        assert bot.step(state) in state.legal_actions()


def test_the_time_limit_stops_the_search_early():
    """With no time at all the bot's search runs two simulations (the first scores the root, the
    second gives it a move to play); the advisor's tries each of the five moves once, plus the
    root's first visit; without a limit the simulation count alone ends it."""
    game = load_game(bids.ENGINE, 2)
    state = game.state_from_engine(bids.ENGINE.new_game(seats=2, seed=1))
    bot = make_bot(game, settings=STRONG_ISH, heuristics=Heuristics(), seed=1, time_limit=0.0)
    bot.run_search(state)
    assert bot.simulations_run == 2
    advisor = make_bot(
        game, settings=STRONG_ISH, heuristics=Heuristics(), seed=1, time_limit=0.0, advisor=True
    )
    advisor.run_search(state)
    assert advisor.simulations_run == 5 + 1
    assert len(advisor.root.child_info) == 5
    unbounded = make_bot(game, settings=FAST, heuristics=Heuristics(), seed=1, time_limit=None)
    unbounded.run_search(state)
    assert unbounded.simulations_run == FAST.simulations


def test_advice_under_no_time_still_covers_every_move():
    state = bids.ENGINE.new_game(seats=2, seed=4)
    advice = advise(bids.ENGINE, state, 0, seed=1, time_limit=0.0)
    assert [a["visits"] for a in advice] == [1] * 5
    assert all(0.0 <= a["win_chance"] <= 1.0 for a in advice)


def test_advice_covers_every_move_even_when_the_settings_allow_fewer_simulations():
    """An engine's own settings may search with fewer simulations than a seat has moves
    (Spirit War's paired-worlds search runs 16); the advisor still owes each move an estimate."""
    state = bids.ENGINE.new_game(seats=2, seed=4)
    few = SearchSettings(simulations=2)
    advice = advise(bids.ENGINE, state, 0, seed=1, time_limit=None, settings=few)
    assert len(advice) == 5
    assert [a["visits"] for a in advice] == [1] * 5


STRONG_ISH = SearchSettings(simulations=1000)


@pytest.mark.parametrize("engine", GAMES, ids=lambda e: e.slug)
def test_advice_covers_every_legal_move_with_a_chance_in_0_1(engine):
    for n, (state, seat) in enumerate(positions(engine, seed=8, count=6)):
        advice = advise(engine, state, seat, seed=n, time_limit=None, settings=FAST)
        assert [a["action"] for a in advice] == engine.legal_actions(state, seat)
        for a in advice:
            assert 0.0 <= a["win_chance"] <= 1.0
            assert a["visits"] >= 1
        assert sum(a["visits"] for a in advice) == FAST.simulations - 1


def test_advice_matches_the_exact_chance_of_the_last_round_of_secret_duel():
    """Last round, one round each: the last card wins if the other's last card is lower; she
    holds one of the four cards this seat has not seen, each equally likely."""
    engine = duel.ENGINE
    state = engine.new_game(seats=2, seed=6)
    hands = [list(h) for h in state["hands"]]
    for a, b in ((max(hands[0]), min(hands[1])), (min(hands[0]), max(hands[1]))):
        state, _ = engine.apply(state, 0, {"type": "play", "card": a})
        state, _ = engine.apply(state, 1, {"type": "play", "card": b})
    assert state["won"] == [1, 1]
    for seat in (0, 1):
        (mine,) = state["hands"][seat]
        seen = set(hands[seat]) | {card for pair in state["played"] for card in pair}
        unseen = [c for c in range(1, 10) if c not in seen]
        exact = Fraction(sum(c < mine for c in unseen), len(unseen))
        (advice,) = advise(
            engine, state, seat, seed=2, time_limit=None, settings=SearchSettings(simulations=800)
        )
        assert advice["win_chance"] == pytest.approx(float(exact), abs=0.06)


def test_an_engines_own_search_settings_make_its_strongest_search():
    """An engine's heuristic module may set its strongest search (RAIGO does): the fields it
    names replace :data:`STRONG`'s. With one world the search deals once; with the best-mean
    final policy it plays the root move whose simulations returned the most, here not the most
    visited one."""
    own = Heuristics.from_module(bids)
    assert strongest(own) == STRONG
    changes = {"simulations": 40, "final_policy": "max_value", "max_world_samples": 1}
    table = strongest(dataclasses.replace(own, search_settings=changes))
    assert table == dataclasses.replace(STRONG, **changes)
    game = load_game(bids.ENGINE, 2)
    state = game.state_from_engine(bids.ENGINE.new_game(seats=2, seed=1))
    one_world = make_bot(game, settings=table, heuristics=own, seed=1, time_limit=None)
    one_world.run_search(state)
    assert one_world.simulations_run == 40
    assert len(one_world._root_samples) == 1

    by_value = dataclasses.replace(table, max_world_samples=-1)
    bot = make_bot(game, settings=by_value, heuristics=own, seed=3, time_limit=None)
    policy = dict(bot.run_search(state))
    children = bot.root.child_info
    best = max(children, key=lambda a: children[a].value())
    most_visited = max(children, key=lambda a: children[a].visits)
    assert best != most_visited
    assert policy[best] == 1.0


def test_the_search_tries_one_of_the_moves_that_play_alike():
    """Spirit War's heuristic module folds moves that play alike (three Fire Spirits summon the
    same): the search expands only the kept ones, the advisor still every move, and a position
    with one kept move is not searched at all."""
    from minigames.engines.spirit_war import ENGINE as SPIRIT_WAR
    from minigames.engines.spirit_war.heuristic import fold_actions
    from tests.engine.spirit_war.helpers import FIRE, WATER, new, play, rig

    found = heuristics_for(SPIRIT_WAR)
    assert found.fold is fold_actions
    state = rig(
        new(),
        hands={0: [FIRE[0], FIRE[1], FIRE[2], WATER[0]], 1: [WATER[1]]},
        prep_top=["cinder_fox"],
        encounter_top=["challenge_down_the_road"],
    )
    state, _ = play(state, 0, {"type": "draw"})
    state, _ = play(state, 0, {"type": "attack", "target": 1})
    game = load_game(SPIRIT_WAR, 2)
    root = game.state_from_engine(state, leader=0)
    kept = {root.legal_actions()[i] for i in fold_actions(state, 0, root.legal_json())}
    assert len(root.legal_actions()) == 5 and len(kept) == 2
    settings = SearchSettings(simulations=30)
    bot = make_bot(game, settings=settings, heuristics=found, seed=3, time_limit=None)
    assert bot.step(root) in kept
    assert set(bot.root.child_info) == kept
    assert sum(c.visits for c in bot.root.child_info.values()) == settings.simulations - 1
    advisor = make_bot(
        game, settings=settings, heuristics=found, seed=3, time_limit=None, advisor=True
    )
    advisor.run_search(root)
    assert set(advisor.root.child_info) == set(root.legal_actions())
    water_only = rig(
        new(),
        hands={0: [WATER[0], WATER[2]], 1: [FIRE[3]]},
        encounter_top=["challenge_down_the_road"],
        prep_top=["mist_carp"],
    )
    water_only, _ = play(water_only, 0, {"type": "draw"})
    water_only, _ = play(water_only, 0, {"type": "attack", "target": 1})
    lone = game.state_from_engine(water_only, leader=0)
    bot.step(lone)
    assert bot.simulations_run == 0


def test_nodes_named_by_what_the_searcher_sees_grow_a_tree_below_the_other_seat():
    """OpenSpiel names a node by the information state of the seat to move. The other seat's
    information state holds her hand as each dealt world has it, so her nodes are new in almost
    every world and the tree stays one move deep. ``node_key="searcher"`` names every node by
    what the searching seat sees (single-observer ISMCTS): the other seat's nodes are shared
    across worlds and visited again, and the searcher's own later decisions are searched. The
    names hold nothing the searcher cannot see: each is her own information state."""
    from minigames.engines.spirit_war import ENGINE as SPIRIT_WAR

    found = heuristics_for(SPIRIT_WAR)
    game = load_game(SPIRIT_WAR, 2)
    state = game.state_from_engine(SPIRIT_WAR.new_game(seats=2, seed=11))
    rng = random.Random(3)
    searched = 0
    totals = {"mover": 0, "searcher": 0}
    for step in range(40):
        if state.is_terminal():
            break
        seat = state.current_player()
        if len(state.legal_actions()) > 1:
            searched += 1
            revisited = {}
            for key in ("mover", "searcher"):
                # one playout a leaf (no paired worlds): what is named, not how leaves score
                settings = dataclasses.replace(
                    strongest(found), simulations=64, node_key=key, paired_worlds=0
                )
                bot = make_bot(
                    game, settings=settings, heuristics=found, seed=step, time_limit=None
                )
                assert bot.step(state) in state.legal_actions()
                revisited[key] = {k for k, n in bot._nodes.items() if n.total_visits > 0}
                totals[key] += len(revisited[key])
            mine = state.information_state_string(seat)
            assert all(k[0] == seat for k in revisited["mover"] if k[1] == mine)
            # the searcher's names are her own information states, seat by seat to move
            assert all(f'"seat":{seat}' in k[1] for k in revisited["searcher"])
            assert len(revisited["searcher"]) >= len(revisited["mover"])
        state.apply_action(game.action_id(found.action(state.engine_state, seat, rng)))
    assert searched >= 10
    # measured at 64 simulations: 56 nodes visited again over these searches with OpenSpiel's
    # names (about 3 a search: the root and a move or two), 336 with the searcher's
    assert totals["searcher"] > 4 * totals["mover"], totals


def test_paired_worlds_score_every_move_on_the_same_deals():
    """``paired_worlds``: a leaf is scored by playouts in worlds dealt anew for the searcher
    with seeds fixed for the whole search. Two leaves she cannot tell apart (here: one
    position in two different dealt worlds) get the same score, so two moves' scores differ
    by what the moves did, not by whose cards the simulation happened to deal; two moves of
    hers get different scores where they play differently."""
    import numpy as np

    from minigames.bots.search import RolloutEvaluator
    from minigames.engines.spirit_war import ENGINE as SPIRIT_WAR

    found = heuristics_for(SPIRIT_WAR)
    game = load_game(SPIRIT_WAR, 2)
    state = game.state_from_engine(SPIRIT_WAR.new_game(seats=2, seed=5))
    rng = random.Random(1)
    compared = differed = 0
    for _ in range(60):
        if state.is_terminal():
            break
        seat = state.current_player()

        def evaluator(seat: int = seat) -> RolloutEvaluator:
            made = RolloutEvaluator(
                np.random.RandomState(7),
                max_moves=8,
                evaluate=found.evaluate,
                policy=found.action,
                paired_worlds=6,
            )
            made.searcher = seat
            return made

        one, two = (state.resample_from_infostate(seat, random.Random(s).random) for s in (1, 2))
        if one.engine_state != two.engine_state:
            compared += 1
            assert list(evaluator().evaluate(one)) == list(evaluator().evaluate(two))
        scores = set()
        for action in state.legal_actions():
            after = one.clone()
            after.apply_action(action)
            scores.add(tuple(evaluator().evaluate(after)))
        differed += len(scores) > 1
        state.apply_action(game.action_id(found.action(state.engine_state, seat, rng)))
    assert compared >= 20
    assert differed >= 3
