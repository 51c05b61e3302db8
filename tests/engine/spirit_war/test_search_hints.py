"""What Spirit War's heuristic module tells the search bot: which moves play alike
(``fold_actions``) and how a position stands (``evaluate``).

The search tries one move of each set that ``fold_actions`` folds together, so a fold must only
join moves that the rules make alike (or a move that is never better than the one it joins),
and the move kept must be one the seat would pick from what she sees.
"""

from __future__ import annotations

import random

from minigames.engines.spirit_war import ENGINE
from minigames.engines.spirit_war.heuristic import (
    _support,
    evaluate,
    fold_actions,
    heuristic_action,
)
from tests.engine.spirit_war.helpers import (
    EARTH,
    FIRE,
    WATER,
    battle_at_support,
    card_in_hand,
    key_of,
    new,
    play,
    rig,
)


def summon_position(hand: list[str]) -> dict:
    """Seat 0 attacks seat 1 with ``hand`` (plus the card drawn): seat 0 to summon."""
    s = rig(
        new(),
        hands={0: hand, 1: ["mist_carp"]},
        prep_top=["paper_doll_ward"],
        encounter_top=["challenge_down_the_road"],
    )
    s, _ = play(s, 0, {"type": "draw"})
    s, _ = play(s, 0, {"type": "attack", "target": 1})
    return s


def kept(state: dict, seat: int) -> list[str]:
    """The keys of the cards of the moves the search tries ("pass" for the pass)."""
    actions = ENGINE.legal_actions(state, seat)
    folded = fold_actions(state, seat, actions)
    assert all(folded[f] == f for f in folded), "a move is folded into a folded one"
    return [
        key_of(state, actions[i]["card"]) if "card" in actions[i] else actions[i]["type"]
        for i in sorted(set(folded))
    ]


def test_spirits_of_one_element_fold_into_one_summon():
    """Fire beats Earth, Earth beats Water, Water beats Fire: only the element counts in a
    battle, so three Fire Spirits and two Earth Spirits are two different summons."""
    s = summon_position([FIRE[0], FIRE[1], FIRE[2], EARTH[0], EARTH[1]])
    assert len(ENGINE.legal_actions(s, 0)) == 5
    tried = kept(s, 0)
    assert len(tried) == 2 and {k in FIRE for k in tried} == {True, False}
    assert all(k in FIRE or k in EARTH for k in tried)


def test_a_spirit_everyone_has_seen_stands_for_its_element():
    """Rulings 7: a winner's Spirit stays known; summoning it gives nothing away."""
    s = summon_position([FIRE[0], FIRE[1], WATER[0]])
    shown = card_in_hand(s, 0, FIRE[1])
    s["known"] = [shown]
    actions = ENGINE.legal_actions(s, 0)
    chosen = {actions[i]["card"] for i in fold_actions(s, 0, actions)}
    assert shown in chosen and card_in_hand(s, 0, FIRE[0]) not in chosen


def test_support_cards_fold_by_what_they_do():
    """Each kind of Spell (Disintegrate, an Imbue of each element, Swap, Safeguard) and each
    element of Spirit is its own Support move; two copies of one are one."""
    s = battle_at_support(
        ["moss_tortoise", "bedrock_charm", "bedrock_charm", "kindling_charm", "clay_golem"],
        ["cinder_fox"],
        "moss_tortoise",
        "cinder_fox",
    )
    # pass, and the five cards in hand (the Paper Doll Ward drawn at the start of the turn)
    assert len(ENGINE.legal_actions(s, 0)) == 6
    assert sorted(kept(s, 0)) == [
        "bedrock_charm",
        "clay_golem",
        "kindling_charm",
        "paper_doll_ward",
        "pass_support",
    ]


def test_once_the_loser_passed_a_card_that_changes_nothing_folds_into_the_pass():
    """Fire beats Earth and the Earth side passed: any card of the Fire side that leaves the
    battle won (all of them) is thrown away for nothing, so only the pass is tried."""
    s = battle_at_support(
        ["moss_tortoise"],
        ["cinder_fox", "wellspring_charm", "unmaking_lantern", "lantern_wisp"],
        "moss_tortoise",
        "cinder_fox",
    )
    s, _ = play(s, 0, {"type": "pass_support"})
    assert kept(s, 1) == ["pass_support"]


def test_after_a_face_down_card_the_search_answers_as_the_greedy_policy():
    """The search deals the other side's face-down card at random from the unseen cards, while
    a player puts one down to turn the battle: so it plays the greedy answer there (Disintegrate
    when winning)."""
    s = battle_at_support(
        ["moss_tortoise", "bedrock_charm"],
        ["cinder_fox", "unmaking_lantern", "wellspring_charm"],
        "moss_tortoise",
        "cinder_fox",
    )
    s, _ = play(s, 0, {"type": "support", "card": card_in_hand(s, 0, "bedrock_charm")})
    actions = ENGINE.legal_actions(s, 1)
    assert set(fold_actions(s, 1, actions)) == {actions.index(_support(s, 1, actions))}
    assert kept(s, 1) == ["unmaking_lantern"]


def test_every_folded_move_stands_for_a_legal_move_along_random_games():
    for seed in range(20):
        rng = random.Random(seed)
        state = ENGINE.new_game(seats=2 + seed % 3, seed=seed)
        while not ENGINE.is_terminal(state):
            seat = ENGINE.waiting_on(state)[0]
            actions = ENGINE.legal_actions(state, seat)
            folded = fold_actions(state, seat, actions)
            assert len(folded) == len(actions)
            assert all(folded[f] == f for f in folded)
            state, _ = ENGINE.apply(state, seat, heuristic_action(state, seat, rng))


def test_evaluate_is_zero_sum_in_two_player_games_and_favours_more_spirits():
    even = rig(new(), hands={0: [FIRE[0], WATER[0]], 1: [FIRE[1], WATER[1]]})
    assert evaluate(even, 0) == -evaluate(even, 1)
    ahead = rig(new(), hands={0: [FIRE[0], WATER[0], EARTH[0]], 1: [FIRE[1]]})
    assert evaluate(ahead, 0) > evaluate(even, 0) > evaluate(ahead, 1)
    assert evaluate(ahead, 0) == -evaluate(ahead, 1)
    assert -0.95 <= evaluate(ahead, 1) < 0 < evaluate(ahead, 0) <= 0.95
