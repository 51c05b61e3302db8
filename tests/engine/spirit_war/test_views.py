"""What each seat sees, determinize, descriptions, timeouts and storage.

The protocol's promises (westernroses/protocol.py): a view holds nothing hidden from its seat
and never the seed; determinize deals the hidden cards anew keeping the seat's view and legal
actions. Spirit War's hidden information (issue "Spirit War"): hands and face-down choices until
revealed, and the deck orders.
"""

from __future__ import annotations

import json

import pytest

from minigames.engines.spirit_war import ENGINE
from minigames.engines.spirit_war.piles import is_spirit, locations
from tests.engine.conformance import assert_no_leak, canonical
from tests.engine.spirit_war.helpers import battle_at_support, card_in_hand, new, play, rig


def test_a_seat_sees_her_hand_and_only_the_size_of_others():
    s = new(3)
    v = ENGINE.view(s, 1)
    assert [c["id"] for c in v["hand"]] == s["hands"][1]
    assert [p["cards_in_hand"] for p in v["players"]] == [5, 5, 5]
    text = canonical(v)
    for cid in s["hands"][0] + s["hands"][2] + s["prep_deck"] + s["encounter_deck"]:
        assert canonical(cid) not in text
    assert v["preparation_deck"] == 54 - 15 and v["encounter_deck"] == 32
    assert '"seed"' not in text and "rng" not in v


def test_a_spectator_sees_no_hand():
    s = new(2)
    v = ENGINE.view(s, None)
    assert v["hand"] == []
    assert ENGINE.hidden_from(s, None) >= set(s["hands"][0]) | set(s["hands"][1])
    assert_no_leak(ENGINE, s, None)


def test_a_kept_spirit_is_public_while_it_stays_in_hand():
    s = battle_at_support(["cinder_fox"], ["moss_tortoise"], "cinder_fox", "moss_tortoise")
    fox = s["battle"]["summon"][0]
    s, _ = play(s, 1, {"type": "pass_support"})
    s, _ = play(s, 0, {"type": "pass_support"})
    shown = ENGINE.view(s, 1)["players"][0]["shown_cards"]
    assert [c["id"] for c in shown] == [fox]
    assert fox not in ENGINE.hidden_from(s, 1)


def test_determinize_keeps_what_the_seat_knows_and_deals_the_rest_anew():
    s = battle_at_support(
        ["moss_tortoise", "bedrock_charm"], ["cinder_fox"], "moss_tortoise", "cinder_fox"
    )
    s, _ = play(s, 0, {"type": "support", "card": card_in_hand(s, 0, "bedrock_charm")})
    changed = False
    for seed in range(10):
        d = ENGINE.determinize(s, 1, seed)
        assert canonical(ENGINE.view(d, 1)) == canonical(ENGINE.view(s, 1))
        assert ENGINE.legal_actions(d, 1) == ENGINE.legal_actions(s, 1)
        assert ENGINE.waiting_on(d) == ENGINE.waiting_on(s)
        assert sorted(locations(d)) == sorted(locations(s))
        changed |= (
            d["hands"][0] != s["hands"][0] or d["battle"]["support"] != s["battle"]["support"]
        )
    assert changed


def test_determinize_deals_from_what_the_seat_sees_alone():
    """Two states that look the same to a seat deal the same world for one seed: the true
    state and any world dealt for her (the search bot's paired worlds rest on this, and it
    means the hidden order of the cards never steers a deal)."""
    s = battle_at_support(
        ["moss_tortoise", "bedrock_charm"], ["cinder_fox"], "moss_tortoise", "cinder_fox"
    )
    s, _ = play(s, 0, {"type": "support", "card": card_in_hand(s, 0, "bedrock_charm")})
    for other in range(5):
        world = ENGINE.determinize(s, 1, 100 + other)
        assert world["prep_deck"] != s["prep_deck"]
        for seed in range(5):
            assert canonical(ENGINE.determinize(world, 1, seed)) == canonical(
                ENGINE.determinize(s, 1, seed)
            )


def test_determinize_deals_a_spirit_into_a_face_down_summon():
    s = rig(new(2), hands={0: ["cinder_fox"]}, encounter_top=["challenge_down_the_road"])
    s, _ = play(s, 0, {"type": "draw"})
    s, _ = play(s, 0, {"type": "attack", "target": 1})
    s, _ = play(s, 0, {"type": "summon", "card": card_in_hand(s, 0, "cinder_fox")})
    seen = set()
    for seed in range(30):
        d = ENGINE.determinize(s, 1, seed)
        summon = d["battle"]["summon"][0]
        assert is_spirit(d, summon)
        seen.add(summon)
    assert len(seen) > 1


def test_describe_action_in_words_and_never_for_a_card_you_do_not_hold():
    s = rig(new(2), hands={0: ["cinder_fox"]}, encounter_top=["challenge_down_the_road"])
    assert str(ENGINE.describe_action(s, 0, {"type": "draw"})) == (
        "Draw a Preparation card and an Encounter card"
    )
    fox = s["hands"][0][0]
    assert str(ENGINE.describe_action(s, 0, {"type": "summon", "card": fox})) == (
        "Summon Cinder Fox (a Fire Spirit) face down"
    )
    assert str(ENGINE.describe_action(s, 1, {"type": "summon", "card": fox})) == (
        "Play a card you do not hold"
    )
    assert str(ENGINE.describe_action(s, 0, {"type": "attack", "target": 1})) == "Attack Player 2"


def test_timeouts_pass_the_support_and_summon_the_first_spirit():
    s = rig(
        new(2), hands={1: ["mist_carp", "rain_frog"]}, encounter_top=["challenge_down_the_road"]
    )
    s, _ = play(s, 0, {"type": "draw"})
    s, _ = play(s, 0, {"type": "attack", "target": 1})
    assert ENGINE.timeout_action(s, 1) == {"type": "summon", "card": s["hands"][1][0]}
    assert ENGINE.timeout_action(s, 0) == ENGINE.legal_actions(s, 0)[0]
    s = battle_at_support(["cinder_fox"], ["moss_tortoise"], "cinder_fox", "moss_tortoise")
    assert ENGINE.timeout_action(s, 1) == {"type": "pass_support"}
    assert ENGINE.timeout_action(s, 0) == {"type": "pass_support"}  # both at once
    s = battle_at_support(
        ["cinder_fox"],
        ["moss_tortoise"],
        "cinder_fox",
        "moss_tortoise",
        support_order="loser_first",
    )
    assert ENGINE.timeout_action(s, 1) == {"type": "pass_support"}
    assert ENGINE.timeout_action(s, 0) is None  # not asked yet: the losing side first


def test_json_round_trip_and_a_foreign_state_is_refused():
    s = new(4, 5)
    data = json.loads(json.dumps(ENGINE.to_json(s)))
    assert ENGINE.to_json(ENGINE.from_json(data)) == ENGINE.to_json(s)
    with pytest.raises(ValueError, match="not a Spirit War game"):
        ENGINE.from_json({"format": 99})
