"""Hidden information ("Inner Tokens", towers face down, Raizan) and what each seat is shown."""

from __future__ import annotations

import json
import random

from minigames.engines.raigo import ENGINE
from minigames.engines.raigo.board import player
from minigames.engines.raigo.tokens import name
from tests.engine.conformance import assert_no_leak, canonical
from tests.engine.raigo.helpers import bare, give, play, start


def position():
    state = bare(3)
    give(state, 0, body=["five", "two"], left="roar", towers=[["six", "five"]])
    give(state, 1, body=["eight"], right="shield", towers=[["three"]])
    return start(state)


def test_inner_tokens_are_seen_only_by_their_owner():
    state = position()
    mine = ENGINE.view(state, 0)["players"][0]
    assert [t["name"] for t in mine["body"]] == ["Five", "Two"]
    assert mine["hands"]["left"]["name"] == "Roar"
    theirs = ENGINE.view(state, 1)["players"][0]
    assert theirs["body"] == {"count": 2, "known": []}
    assert theirs["hands"]["left"] == {"hidden": True}
    assert ENGINE.view(state, None)["players"][1]["hands"]["right"] == {"hidden": True}
    for seat in (0, 1, 2, None):
        assert_no_leak(ENGINE, state, seat)


def test_a_seat_knows_what_she_piled_others_see_heights():
    state = position()
    own = ENGINE.view(state, 0)["players"][0]["towers"][0]
    assert [t["name"] for t in own["tokens"]] == ["Six", "Five"]
    other = ENGINE.view(state, 2)["players"][0]["towers"][0]
    assert other["height"] == 2 and other["tokens"] == [{"hidden": True}] * 2


def test_raizan_and_the_box_are_hidden_from_everyone():
    state = ENGINE.new_game(seats=2, seed=5)
    raizan = {t for pile in state["raizan"] for t in pile} | set(state["box"])
    for seat in (0, 1, None):
        assert raizan <= ENGINE.hidden_from(state, seat)
        text = json.dumps(ENGINE.view(state, seat))
        assert not any(f'"{t}"' in text for t in raizan)
        assert "seed" not in text


def test_private_draw_events_go_to_the_drawer_only():
    state = bare(3)
    give(state, 0, body=["five"])
    state = start(state, 0, "select")
    state, events = play(state, 0, {"type": "select", "count": 2})
    drawn = state["turn"]["drawn"]
    for ev in events:
        if any(t in canonical(ev) for t in drawn):
            assert ev["visible_to"] == [0]
    assert ENGINE.view(state, 1)["drawn"] == {"count": 2}
    assert [t["id"] for t in ENGINE.view(state, 0)["drawn"]] == drawn


def test_determinize_deals_the_unknown_anew_and_keeps_what_she_knows():
    state = position()
    seen = canonical(ENGINE.view(state, 0))
    others = set()
    for seed in range(8):
        det = ENGINE.determinize(state, 0, seed)
        assert canonical(ENGINE.view(det, 0)) == seen
        assert ENGINE.legal_actions(det, 0) == ENGINE.legal_actions(state, 0)
        assert det["rng"]["seed"] == seed
        others.add(player(det, 1)["right"])
    assert len(others) > 1  # seat 1's Shield is not where seat 0's deals always put it


def test_a_token_lost_to_snake_stays_known_to_its_old_owner():
    state = bare(3)
    give(state, 0, left="snake")
    give(state, 1, body=["seven"])
    state = start(state)
    state, _ = play(
        state, 0, {"type": "chant", "hand": "left", "effect": "snake", "seat": 1, "space": "body0"}
    )
    assert ENGINE.view(state, 1)["players"][0]["hands"]["left"]["name"] == "Seven"
    assert ENGINE.view(state, 2)["players"][0]["hands"]["left"] == {"hidden": True}
    det = ENGINE.determinize(state, 2, 3)
    assert canonical(ENGINE.view(det, 2)) == canonical(ENGINE.view(state, 2))


def test_answers_stay_secret_until_everyone_has_answered():
    state = bare(3)
    give(state, 0, left="thunder")
    give(state, 1, left="shield", towers=[["five", "four"]])
    give(state, 2, right="roar", towers=[["one"]])
    state = start(state)
    state, _ = play(
        state, 0, {"type": "chant", "hand": "left", "effect": "discharge", "seat": 1, "tower": 0}
    )
    state, events = play(state, 1, {"type": "shield", "hand": "left"})
    assert all("shield" not in canonical(e).lower() or e["type"] == "answered" for e in events)
    assert "your_answer" not in ENGINE.view(state, 2)["prompt"]
    assert ENGINE.view(state, 1)["prompt"]["your_answer"] == {"type": "shield", "hand": "left"}
    det = ENGINE.determinize(state, 2, 1)
    assert det["prompt"]["answers"] == {"1": {"type": "decline"}}
    assert ENGINE.waiting_on(det) == ENGINE.waiting_on(state) == (2,)


def test_words_for_people():
    state = position()
    for action in ENGINE.legal_actions(state, 0):
        text = str(ENGINE.describe_action(state, 0, action))
        assert text and "_" not in text and "raigo-token" not in text
    assert str(ENGINE.summary(state)) == "Turn 1: Player 1 to play"
    assert ENGINE.timeout_action(state, 0) is None
    assert name(player(state, 0)["left"]) in str(
        ENGINE.describe_action(state, 0, {"type": "keep", "hand": "left"})
    )


def test_illegal_moves_are_refused_in_words_and_change_nothing():
    import pytest

    from westernroses.protocol import IllegalAction

    state = position()
    before = canonical(state)
    for seat, action in [
        (1, {"type": "keep", "hand": "left"}),
        (0, {"type": "pile", "hand": "left", "tower": 7}),
        (0, {"type": "chant", "hand": "left", "effect": "roar"}),
        (0, "keep"),
    ]:
        with pytest.raises(IllegalAction) as exc:
            ENGINE.apply(state, seat, action)
        assert str(exc.value)
    assert canonical(state) == before


def test_state_round_trips_through_json():
    state = ENGINE.new_game(seats=4, seed=random.Random(1).randrange(2**40))
    data = json.loads(json.dumps(ENGINE.to_json(state)))
    assert canonical(ENGINE.to_json(ENGINE.from_json(data))) == canonical(state)
