"""Properties over random legal-action battles (hypothesis).

Every step picks a legal action of whoever must act and checks that: HP never exceeds the
maximum and spell power stays within 0 and the cap (RULINGS 8); no card is lost or duplicated
across draw pile, hand and discard ("Spellcards", deck rules); ``apply`` never mutates its
input; every state survives a JSON round trip exactly; and replaying the action log from the
initial state gives the final state byte for byte; no two standing combatants share a square
(issue 9, rule 1); no seat's view holds another seat's hand, draw pile, unrevealed card
designs or the seed (issue 9, the brief's secrets bar); and every action played, as a client
sends it, fits the engine's action shapes (tests/engine/conformance.py, ``check_shapes``).
Two runs: mixed battles between the sample characters with occasional GM overrides (thorough
checks at every step), and many tiny duels (cheap checks) so thousands of battles run in a
few seconds.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.engine.battle.helpers import battle, fighter
from tests.engine.battle.random_play import apply_random, as_sent, random_action
from tests.engine.battle.samples import CHARACTERS, demo_battle
from tests.engine.conformance import check_shapes
from tests.soak import size
from westernroses.battle import ENGINE, BattleState, IllegalAction, apply, dumps, replay, view
from westernroses.battle.fog import hidden_ids
from westernroses.battle.player_view import PUBLIC_COMBATANT_FIELDS
from westernroses.battle.state import Json
from westernroses.battle.stats import hp_max, sp_cap
from westernroses.battle.status import STATUSES
from westernroses.house_rules import HouseRules
from westernroses.spellcards import AttackPower, CardType, SpellcardDraft

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
    """Every player's view is JSON, never holds the seed, and holds no other seat's hand."""
    for player in {c.controller for c in state.combatants.values()} | {"gm"}:
        shown = view(state, player, since=max(state.version - 3, 0))
        text = json.dumps(shown)
        assert '"seed"' not in text and shown["rng"] is None
        for c in shown["combatants"].values():
            own = player == "gm" or c["controller"] == player
            assert (c["hand"] is not None) == own


def check_squares(state: BattleState) -> None:
    """Issue 9, rule 1: "you never stop on someone else's square" (docs/battle.md, ruling 1);
    fallen combatants lie on the ground and block nobody, the standing never share."""
    taken: dict[tuple[int, int], str] = {}
    for c in state.combatants.values():
        if c.conscious and c.position is not None:
            assert c.position not in taken, (c.id, taken[c.position], c.position)
            taken[c.position] = c.id


def _revealed_names(state: BattleState) -> set[str]:
    """Card designs shown to everyone so far: every card used (its design goes face up)."""
    names = {
        str(e["name"])
        for entry in state.log
        for e in entry["events"]
        if e["type"] == "card_used" and e.get("name")
    }
    for c in state.combatants.values():
        names |= {str(c.cards[k]["name"]) for k in c.deck.discard if k in c.cards}
    return names


def check_secrets(state: BattleState) -> None:
    """Every seat (each player, the GM, a member without combatants): no other seat's hand,
    draw pile or unrevealed card designs, and no seed while the battle runs - in the view,
    its log (reinforcements and undos included) and its legal actions."""
    revealed = _revealed_names(state)
    seed = int(state.rng["seed"])
    seats = {c.controller for c in state.combatants.values()} | {"gm", "onlooker"}
    for player in seats:
        shown = view(state, player)
        text = json.dumps(shown)
        if state.phase != "ended":
            assert '"seed"' not in text and (seed < 10**6 or str(seed) not in text), player
        if player == "gm":  # she sees hands, and the reinforcements she made, in full
            continue
        assert '"draw_pile"' not in text, player  # counts only
        mine = [c for c in state.combatants.values() if c.controller == player]
        allowed = revealed | {str(c.cards[k]["name"]) for c in mine for k in c.deck.hand}
        for c in state.combatants.values():
            if c.controller == player:
                continue
            if c.id not in shown["combatants"]:  # in fog, or off the board (fog.py)
                assert c.id in hidden_ids(state, player), (player, c.id)
                continue
            seen = shown["combatants"][c.id]
            assert seen["hand"] is None and seen["attacks"] is None, (player, c.id)
            assert set(seen["cards"]) <= set(c.deck.discard), (player, c.id)
            face_down = set(c.deck.hand) | set(c.deck.draw_pile)
            for name in {str(c.cards[k]["name"]) for k in face_down} - allowed:
                assert name not in text, (player, c.id, name)
        for entry in shown["log"]:
            if entry["action"]["type"] == "gm_add_combatant":
                assert set(entry["action"]["combatant"]) <= set(PUBLIC_COMBATANT_FIELDS)
            for e in entry["events"]:
                owner = state.combatants.get(str(e.get("combatant")))
                if e["type"] == "draw" and (owner is None or owner.controller != player):
                    assert "cards" not in e, (player, e)


SECRET = SpellcardDraft(name="Secret", type=CardType.ATTACK, attack_power=AttackPower(1))


def reinforcement(state: BattleState, rng: random.Random) -> Json | None:
    """A GM's reinforcement with a deck of her own (secret card designs, a bomb among them),
    for the GM or a random player, on a random open square."""
    arena = state.arena
    standing = {c.position for c in state.combatants.values() if c.conscious}
    free = [
        (x, y)
        for x in range(arena.width)
        for y in range(arena.height)
        if arena.open((x, y)) and (x, y) not in standing
    ]
    if not free:
        return None
    cid = f"extra{state.version}"
    if cid in state.combatants:
        return None
    players = sorted({c.controller for c in state.combatants.values()})
    deck = [
        (f"{cid}-a", replace(SECRET, name=f"Secret Shot of {cid}."), 2),
        (f"{cid}-b", replace(SECRET, name=f"Secret Bomb of {cid}.", bomb=True), 1),
    ]
    newcomer = fighter(
        cid,
        rng.choice(free),
        side=rng.choice(sorted({c.side for c in state.combatants.values()})),
        controller=rng.choice(players),
        speed=rng.randint(1, 8),
        hp=rng.randint(10, 60),
        deck=deck,
        hand=[f"{cid}-a"],
    )
    return {"type": "gm_add_combatant", "player": "gm", "combatant": newcomer.to_dict()}


def gm_override(state: BattleState, rng: random.Random) -> Json | None:
    """Now and then the GM steps in: undo, adjust, a status effect, a target number, a
    reinforcement, moving or removing a piece."""
    ids = sorted(state.combatants)
    who = rng.choice(ids)
    choice = rng.randrange(9)
    if choice == 5 and state.phase != "ended":
        return reinforcement(state, rng)
    fallen = [c for c in state.combatants.values() if not c.conscious and c.position]
    if choice == 6:  # often onto someone lying on the ground, who may get up later
        x, y = rng.randrange(state.arena.width), rng.randrange(state.arena.height)
        if fallen and rng.random() < 0.7:
            x, y = rng.choice(fallen).position or (x, y)
        return {"type": "gm_move", "player": "gm", "combatant": who, "to": [x, y]}
    if choice == 8 and fallen:  # wake someone up (or bring her back)
        c = rng.choice(fallen)
        if c.alive:
            return {
                "type": "gm_remove_status",
                "player": "gm",
                "combatant": c.id,
                "status": "unconscious",
            }
        return {"type": "gm_adjust", "player": "gm", "combatant": c.id, "hp": 40 - c.hp}
    if choice == 7 and state.phase != "ended" and len(ids) > 2:
        return {"type": "gm_remove_combatant", "player": "gm", "combatant": who}
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


@settings(max_examples=size(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
# the GM removes the only monster during setup: "start" must not be offered then
@example(seed=46483, heroes=["alice"], monsters=1, width=5, height=4)
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
    shaped = random.Random(seed + 1)  # the shape checks' own source: the battle is unchanged
    first = demo_battle(seed % 2**53, heroes=heroes, monsters=monsters, size=(width, height))
    state = first
    actions: list[Json] = []
    for _ in range(150):
        if rng.random() < 0.06:
            action = gm_override(state, rng)
            if action is None:
                continue
        else:
            action = random_action(state, rng)
        if action is None:
            break
        before_json = dumps(state) if len(actions) % 10 == 0 else None
        before_cards = cards(state)
        try:
            new, _, action = apply_random(state, action)
        except IllegalAction:
            assert action["type"].startswith("gm_"), action  # only overrides may be refused
            continue
        check_shapes(ENGINE, [as_sent(action)], shaped)
        if before_json is not None:
            assert dumps(state) == before_json  # apply never mutates its input
        check_bounds(new)
        check_round_trip(new)
        check_squares(new)
        if len(actions) % 7 == 0:
            check_views(new)
        if len(actions) % 20 == 0 or action["type"].startswith("gm_"):
            check_secrets(new)
        if not action["type"].startswith("gm_"):
            after = cards(new)
            for cid, held in before_cards.items():
                assert after.get(cid, held) == held, (cid, action)
        actions.append(action)
        state = new
    assert dumps(replay(first, actions)) == dumps(state)
    full = json.loads(dumps(state))
    assert dumps(BattleState.from_dict(full)) == dumps(state)


@settings(max_examples=size(600), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), hp=st.integers(6, 20), width=st.integers(3, 6))
def test_hundreds_of_tiny_duels(seed, hp, width):
    """Quick duels to the end ("Death and Dying" decides them; 600 in the suite, 6,000 in
    ``make soak``): bounds hold and the action fits its shape at every step, and a quarter of
    them are replayed byte for byte."""
    rng = random.Random(seed)
    shaped = random.Random(seed + 1)
    first = battle(
        fighter("a", (0, 0), speed=rng.randint(2, 7), hp=hp, traits=("lucky",)),
        fighter("b", (width - 1, width - 1), side="b", speed=rng.randint(2, 7), hp=hp),
        size=(width, width),
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
        check_shapes(ENGINE, [as_sent(action)], shaped)
        actions.append(action)
    assert state.phase == "ended" or len(actions) == 40
    if seed % 4 == 0:  # replaying costs as much as playing: a quarter of the duels
        assert dumps(replay(first, actions)) == dumps(state)
