"""The battle engine as a game of the one protocol (westernroses/battle/game.py, ``ENGINE``):
what the table core relies on, checked over random battles."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import westernroses.battle as battle
from tests.engine.battle.random_play import apply_random, as_sent, random_action
from tests.engine.battle.samples import demo_battle
from tests.engine.conformance import check_shapes
from westernroses import protocol

ENGINE = battle.ENGINE


def canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def test_the_battle_engine_has_the_protocols_shape():
    assert ENGINE.slug == "battle" and ENGINE.title
    assert issubclass(battle.IllegalAction, protocol.IllegalAction)
    rules = {r.key: r for r in ENGINE.house_rules()}
    # Ruling 1 (docs/rulings.md): a die per 3 stat points unless a campaign says otherwise.
    assert rules["stat_per_die"].default == 3


def test_setup_waits_on_the_gm_and_start_is_the_only_move():
    state = demo_battle(1)
    assert ENGINE.waiting_on(state) == ("gm",)
    assert ENGINE.legal_actions(state, "gm") == [{"type": "start", "player": "gm"}]
    assert ENGINE.legal_actions(state, "p1") == []
    assert ENGINE.summary(state) == "Setting up the arena"
    with pytest.raises(protocol.IllegalAction):
        ENGINE.apply(state, "p1", {"type": "start"})


def test_start_is_offered_only_when_it_would_be_taken():
    """``start`` refuses a board without two sides ("a battle needs combatants of at least two
    sides"), so with the only monster removed it is not offered either: no legal move is ever
    refused (found by the random-battle property, seed 46483)."""
    state = demo_battle(1, heroes=["alice"], monsters=1)
    monster = next(c.id for c in state.combatants.values() if c.side != "heroes")
    alone, _ = ENGINE.apply(state, "gm", {"type": "gm_remove_combatant", "combatant": monster})
    assert ENGINE.legal_actions(alone, "gm") == []
    with pytest.raises(protocol.IllegalAction, match="two sides"):
        ENGINE.apply(alone, "gm", {"type": "start"})


def test_a_new_game_from_configuration_seats_and_seed():
    sample = demo_battle(5)
    config = {
        "arena": sample.arena.to_dict(),
        "combatants": [c.to_dict() for c in sample.combatants.values() if c.kind != "doll"],
        "battle_id": "7",
    }
    a = ENGINE.new_game(seats=3, seed=5, config=config)
    b = ENGINE.new_game(seats=3, seed=5, config=config)
    assert canonical(ENGINE.to_json(a)) == canonical(ENGINE.to_json(b))
    assert a.battle_id == "7" and set(a.combatants) == set(sample.combatants)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_random_battles_keep_the_protocols_promises(seed):
    rng = random.Random(seed)
    shaped = random.Random(seed + 1)  # the shape checks' own source: the battle is unchanged
    initial = demo_battle(seed)
    state, _ = ENGINE.apply(initial, "gm", {"type": "start"})
    log: list[tuple[str, dict]] = [("gm", {"type": "start"})]
    for _ in range(120):
        if ENGINE.is_terminal(state):
            assert ENGINE.waiting_on(state) == ()
            assert len(ENGINE.returns(state)) == len(battle.game.sides(state))
            break
        waiting = ENGINE.waiting_on(state)
        assert waiting, "a running battle waits on somebody"
        for seat in waiting:
            assert ENGINE.legal_actions(state, seat), seat
        # Every world the search bot could sample keeps a legal move for each seat waited on.
        for viewer in ["gm", "p1", "p2"]:
            world = ENGINE.determinize(state, viewer, rng.randrange(2**53))
            assert ENGINE.waiting_on(world) == waiting
            for seat in waiting:
                assert ENGINE.legal_actions(world, seat), (viewer, seat)
        # Nobody sees another controller's hand; a spectator sees none, and never the seed.
        for seat in ["gm", "p1", "p2", None]:
            shown = ENGINE.view(state, seat)
            assert '"seed"' not in canonical(shown)
            for cid, c in state.combatants.items():
                mine = seat == "gm" or (seat is not None and c.controller == seat)
                if not mine:
                    assert shown["combatants"][cid]["hand"] is None
        action = random_action(state, rng)
        if action is None:
            break
        seat = action.pop("player")
        assert seat in waiting
        before = canonical(ENGINE.to_json(state))
        new, _, applied = apply_random(state, {**action, "player": seat})
        applied = {k: v for k, v in applied.items() if k != "player"}
        check_shapes(ENGINE, [as_sent(applied)], shaped)
        state, _ = ENGINE.apply(state, seat, applied)
        assert canonical(ENGINE.to_json(state)) == canonical(ENGINE.to_json(new))
        assert canonical(ENGINE.to_json(ENGINE.from_json(ENGINE.to_json(state)))) == canonical(
            ENGINE.to_json(state)
        )
        log.append((seat, applied))
        del before
    replayed = protocol.replay(ENGINE, initial, log)
    assert canonical(ENGINE.to_json(replayed)) == canonical(ENGINE.to_json(state))


def test_a_refused_action_leaves_the_state_unchanged():
    state, _ = ENGINE.apply(demo_battle(2), "gm", {"type": "start"})
    before = canonical(ENGINE.to_json(state))
    with pytest.raises(protocol.IllegalAction) as refused:
        ENGINE.apply(state, "p2", {"type": "__not_an_action__"})
    assert str(refused.value)
    assert canonical(ENGINE.to_json(state)) == before


def test_a_reaction_times_out_to_declining_and_a_turn_never_does():
    state, _ = ENGINE.apply(demo_battle(3), "gm", {"type": "start"})
    current = state.current
    seat = state.combatants[current].controller
    assert not state.pending and ENGINE.timeout_action(state, seat) is None


def test_hidden_cards_are_named_per_viewer():
    state, _ = ENGINE.apply(demo_battle(4), "gm", {"type": "start"})  # the opening draw
    hero = next(c for c in state.combatants.values() if c.controller == "p1" and c.deck.hand)
    mine = ENGINE.hidden_from(state, "p1")
    theirs = ENGINE.hidden_from(state, "p2")
    card = f"card:{hero.id}:{hero.deck.hand[0]}"
    assert card not in mine and card in theirs and card in ENGINE.hidden_from(state, None)


def test_the_state_stores_profiles_without_their_defaults_and_reads_them_back():
    """A profile's passives at their defaults are left out of the stored state (a 4-vs-4
    battle's 13 KB of state was 9 KB of profiles, written and read on every move); reading
    puts them back, a state stored in full before still reads the same, and views keep
    every field of an attack."""
    import dataclasses
    from dataclasses import replace

    from westernroses.battle.player_view import view
    from westernroses.battle.state import AttackProfile, Profile, _without_defaults

    state = demo_battle(1)
    stored = ENGINE.to_json(state)
    for cid, data in stored["combatants"].items():
        profile = state.combatants[cid].profile
        full = profile._full_dict()
        assert "damage_reduction" not in data["profile"] or profile.damage_reduction != 0
        assert len(json.dumps(data["profile"])) < len(json.dumps(full))
        assert Profile.from_dict(data["profile"]) == profile
        assert Profile.from_dict(full) == profile  # the full form of earlier states
        assert all(set(a) >= {"slug", "name", "kind", "range"} for a in data["profile"]["attacks"])
    again = ENGINE.from_json(stored)
    assert canonical(ENGINE.to_json(again)) == canonical(stored)
    # values away from their defaults are kept, and so is one of another type (False is 0)
    assert _without_defaults({"a": False, "b": 0}, {"a": 0, "b": 0}) == {"a": False}
    one = next(iter(state.combatants.values()))
    odd = replace(one.profile, sp_multiplier=2, level=1, charge_hp=5)
    assert {"sp_multiplier": 2, "charge_hp": 5}.items() <= odd.to_dict().items()
    assert "level" not in odd.to_dict()
    # worked out once per profile (every move writes every profile out), the same as a fresh
    # copy of the profile works out; a changed copy (odd, above) works out its own
    assert one.profile.to_dict() is one.profile.to_dict()
    assert one.profile.to_dict() == Profile.from_dict(one.profile._full_dict()).to_dict()
    assert odd == replace(one.profile, sp_multiplier=2, charge_hp=5) and odd != one.profile
    shown = view(state, "gm")
    attacks = [a for c in shown["combatants"].values() for a in (c.get("attacks") or [])]
    every_field = {f.name for f in dataclasses.fields(AttackProfile)}
    assert attacks and all(set(a) == every_field for a in attacks)
