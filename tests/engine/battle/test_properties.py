"""Properties over random legal-action battles (hypothesis).

Every step picks a legal action of whoever must act and checks that: HP never exceeds the
maximum and spell power stays within 0 and the cap (RULINGS 8); no card is lost or duplicated
across draw pile, hand and discard ("Spellcards", deck rules); ``apply`` never mutates its
input; every state survives a JSON round trip exactly; and replaying the action log from the
initial state gives the final state byte for byte. Two runs: mixed battles between the sample
characters with occasional GM overrides (thorough checks at every step), and many tiny duels
(cheap checks) so thousands of battles run in a few seconds.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.battle.helpers import battle, fighter
from tests.engine.battle.random_play import apply_random, random_action
from tests.engine.battle.samples import CHARACTERS, demo_battle
from westernroses.battle import BattleState, IllegalAction, apply, dumps, replay, view
from westernroses.battle.state import Json
from westernroses.battle.stats import hp_max, sp_cap
from westernroses.battle.status import STATUSES
from westernroses.house_rules import HouseRules

RULES = HouseRules()


def cards(state: BattleState) -> dict[str, Counter[str]]:
    return {cid: c.deck.cards() for cid, c in state.combatants.items()}


def check_bounds(state: BattleState) -> None:
    for c in state.combatants.values():
        assert c.hp <= hp_max(c), (c.id, c.hp)
        assert 0 <= c.spell_power <= sp_cap(c, RULES), (c.id, c.spell_power)
        assert c.meter >= 0 and c.actions_left >= 0
        assert all(v >= 0 for v in c.ammo.values())


def check_round_trip(state: BattleState) -> None:
    data = json.loads(json.dumps(state.to_dict(history=False)))
    assert BattleState.from_dict(data).to_dict(history=False) == data
    json.dumps(state.log[-1])  # every log entry is JSON


def check_views(state: BattleState) -> None:
    """Every player's view is JSON, holds no seed while the battle runs and no other hand."""
    for player in {c.controller for c in state.combatants.values()} | {"gm"}:
        shown = view(state, player, since=max(state.version - 3, 0))
        text = json.dumps(shown)
        assert ('"seed"' in text) == (state.phase == "ended" and shown["rng"] is not None)
        for c in shown["combatants"].values():
            own = player == "gm" or c["controller"] == player
            assert (c["hand"] is not None) == own


def gm_override(state: BattleState, rng: random.Random) -> Json | None:
    """Now and then the GM steps in: undo, adjust, a status effect or a target number."""
    ids = sorted(state.combatants)
    who = rng.choice(ids)
    choice = rng.randrange(5)
    if choice == 0 and state.log:
        return {"type": "gm_undo", "player": "gm"}
    if choice == 1:
        return {
            "type": "gm_adjust",
            "player": "gm",
            "combatant": who,
            "hp": rng.randint(-30, 20),
            "spell_power": rng.randint(-50, 50),
        }
    if choice == 2 and state.phase != "ended":
        return {
            "type": "gm_add_status",
            "player": "gm",
            "combatant": who,
            "status": rng.choice(STATUSES),
            "turns": rng.randint(1, 2),
            "source": rng.choice(ids),
            "save": rng.random() < 0.5,
        }
    if choice == 3 and state.phase != "ended":
        return {
            "type": "gm_set_target",
            "player": "gm",
            "name": "dodge",
            "target": rng.choice([None, 10, 14]),
        }
    return None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    heroes=st.lists(st.sampled_from(sorted(CHARACTERS)), min_size=1, max_size=4, unique=True),
    monsters=st.integers(1, 4),
    width=st.integers(5, 10),
    height=st.integers(4, 8),
)
def test_random_battles_keep_every_invariant(seed, heroes, monsters, width, height):
    """Mixed battles of the sample characters: RULINGS 8 bounds, the deck rules ("Spellcards":
    no card lost or duplicated), no mutation, exact JSON, replay; GM overrides now and then."""
    rng = random.Random(seed)
    first = demo_battle(seed % 2**53, heroes=heroes, monsters=monsters, size=(width, height))
    state = first
    actions: list[Json] = []
    for _ in range(150):
        action = gm_override(state, rng) if rng.random() < 0.04 else random_action(state, rng)
        if action is None:
            break
        before_json = dumps(state) if len(actions) % 10 == 0 else None
        before_cards = cards(state)
        try:
            new, _, action = apply_random(state, action)
        except IllegalAction:
            assert action["type"].startswith("gm_"), action  # only overrides may be refused
            continue
        if before_json is not None:
            assert dumps(state) == before_json  # apply never mutates its input
        check_bounds(new)
        check_round_trip(new)
        if len(actions) % 7 == 0:
            check_views(new)
        if not action["type"].startswith("gm_"):
            after = cards(new)
            for cid, held in before_cards.items():
                assert after.get(cid, held) == held, (cid, action)
        actions.append(action)
        state = new
    assert dumps(replay(first, actions)) == dumps(state)
    full = json.loads(dumps(state))
    assert dumps(BattleState.from_dict(full)) == dumps(state)


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), hp=st.integers(6, 20), size=st.integers(3, 6))
def test_thousands_of_tiny_duels(seed, hp, size):
    """Many quick duels to the end ("Death and Dying" decides them): bounds hold at every step
    and a quarter of them are replayed byte for byte."""
    rng = random.Random(seed)
    first = battle(
        fighter("a", (0, 0), speed=rng.randint(2, 7), hp=hp, traits=("lucky",)),
        fighter("b", (size - 1, size - 1), side="b", speed=rng.randint(2, 7), hp=hp),
        size=(size, size),
        seed=seed % 2**53,
    )
    state = first
    actions: list[Json] = []
    for _ in range(40):
        action = random_action(state, rng)
        if action is None:
            break
        state, _ = apply(state, action)
        check_bounds(state)
        actions.append(action)
    assert state.phase == "ended" or len(actions) == 40
    if seed % 4 == 0:  # replaying costs as much as playing: a quarter of the duels
        assert dumps(replay(first, actions)) == dumps(state)
