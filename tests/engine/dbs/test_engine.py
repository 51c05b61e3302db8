"""The protocol surface of the DBS engine: registry, views and hidden cards, determinize,
house rules, words for actions and results."""

from __future__ import annotations

import json

from minigames.engines.dbs import ENGINE
from minigames.engines.registry import get_engine

from .helpers import act, clear_hand, give, opened, set_item, to_battle


def test_the_registry_finds_the_engine():
    engine = get_engine("dbs")
    assert engine is ENGINE
    assert (engine.slug, engine.title, engine.min_seats, engine.max_seats) == (
        "dbs",
        "Dream Battle of SpellCard",
        2,
        2,
    )
    rules = [rule.to_json() for rule in engine.house_rules()]
    assert [r["key"] for r in rules] == [
        "first_player",
        "pay_order",
        "level_rule",
        "defence",
        "smack_down_tie",
    ]
    assert all(r["label"] and r["choices"] for r in rules)
    json.dumps(rules)


def test_hands_face_down_cards_and_deck_order_are_hidden():
    state = opened()
    trap = set_item(state, 1, "DBS-301", face_down=True)
    spare = give(state, 1, "DBS-201", "extra_sp")
    hand = [i for i in state["players"][1]["hand"] if i not in state["players"][1]["known"]]
    hidden_for_0 = ENGINE.hidden_from(state, 0)
    assert {trap, spare, *hand, *state["players"][1]["deck"]} <= hidden_for_0
    assert set(state["players"][0]["deck"]) <= hidden_for_0  # her own deck order too
    assert not set(state["players"][0]["hand"]) & hidden_for_0
    spectator = ENGINE.hidden_from(state, None)
    assert set(state["players"][0]["hand"]) - set(state["players"][0]["known"]) <= spectator
    text = json.dumps(ENGINE.view(state, 0))
    for iid in hidden_for_0:
        assert f'"{iid}"' not in text
    assert '"seed"' not in text and "Warding Paper Wall" not in text
    assert "Warding Paper Wall" in json.dumps(ENGINE.view(state, 1))


def test_determinize_redeals_only_what_she_cannot_see():
    state = opened()
    set_item(state, 1, "DBS-301", face_down=True)
    for seed in range(5):
        det = ENGINE.determinize(state, 0, seed)
        assert det["players"][0]["hand"] == state["players"][0]["hand"]
        assert sorted(det["players"][0]["deck"]) == sorted(state["players"][0]["deck"])
        foe, real = det["players"][1], state["players"][1]
        assert len(foe["hand"]) == len(real["hand"]) and len(foe["deck"]) == len(real["deck"])
        # a face-down item is known to be a Trap, so it stays one
        assert det["cards"][det["instances"][foe["items"][0]["card"]]]["kind"] == "trap"
        # the shown retrieval is among her cards: in her hand, or a card she put face down
        face_down = [item["card"] for item in foe["items"] if item["face_down"]]
        assert set(real["known"]) <= {*foe["hand"], *foe["extra_sp"], *face_down}
        assert ENGINE.view(det, 0) == ENGINE.view(state, 0)
    assert any(
        ENGINE.determinize(state, 0, seed)["players"][1]["hand"] != state["players"][1]["hand"]
        for seed in range(5)
    )


def test_json_round_trip_and_words_for_actions():
    state = opened()
    assert ENGINE.from_json(json.loads(json.dumps(ENGINE.to_json(state)))) == state
    clear_hand(state, 0)
    give(state, 0, "DBS-102")
    descriptions = [
        str(ENGINE.describe_action(state, 0, a)) for a in ENGINE.legal_actions(state, 0)
    ]
    assert "Change nothing this turn" in descriptions
    state = to_battle(state)
    words = [str(ENGINE.describe_action(state, 0, a)) for a in ENGINE.legal_actions(state, 0)]
    assert words == ["Declare Needle Drizzle (Level 2, attack 1600, 1 SP)", "End your turn"]
    assert str(ENGINE.summary(state)) == (
        "Turn 1, Battle phase: Player 1 attacks (LP: Player 1 10000, Player 2 10000)."
    )
    state, _ = act(state, 0, "declare", "DBS-102")
    assert str(ENGINE.summary(state)) == (
        "Turn 1, Battle phase (defence): Player 1 attacks; Player 2 to answer "
        "(LP: Player 1 10000, Player 2 10000)."
    )
    assert str(ENGINE.describe_action(state, 1, {"type": "no_counter"})).startswith(
        "Do not counter"
    )
    assert ENGINE.timeout_action(state, 0) is None


def test_result_in_words():
    state = opened()
    assert ENGINE.result(state)["winners"] == []
    state = to_battle(state)
    state["players"][1]["lp"] = 100
    clear_hand(state, 0)
    give(state, 0, "DBS-101")
    state, _ = act(state, 0, "declare", "DBS-101")
    state, _ = act(state, 1, "no_counter")
    result = ENGINE.result(state)
    assert result["winners"] == [0]
    assert result["text"] == "Player 1 wins by Knock Out (LP below 0)."
    assert result["scores"][1]["text"] == "Player 2: -900 LP, Spell Chain Level 0."


def test_player_names_from_the_config():
    state = ENGINE.new_game(
        seats=2, seed=4, config={"names": ["Reimu's player", "Marisa's player"]}
    )
    state, events = ENGINE.apply(state, 0, {"type": "choose_character", "card": "DBS-001"})
    assert any(e["text"].startswith("Reimu's player has chosen") for e in events)
