"""Fog of war (issue 14): the GM hides squares; whoever stands in them is absent from every
player's view and log until she steps out or the GM reveals the square; the GM sees all.
Also the numbering of duplicate names (docs/battle.md, "Fog of war" and "Names")."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.battle.helpers import act, battle, fighter
from tests.engine.battle.random_play import apply_random, random_action
from tests.engine.battle.samples import demo_battle
from westernroses.battle import ENGINE, apply, legal_actions, summary, view, visible_events
from westernroses.battle.errors import IllegalAction
from westernroses.battle.fog import hidden_ids, in_fog
from westernroses.battle.state import BattleState, Json


def strings(value: Any) -> set[str]:
    """Every string in a JSON value, dict keys included (ids and names are whole strings)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value) | {s for v in value.values() for s in strings(v)}
    if isinstance(value, list | tuple):
        return {s for v in value for s in strings(v)}
    return set()


def ambush() -> BattleState:
    """p1's hero at (0, 0); the GM's ogre at (5, 0) and imp at (6, 3)."""
    hero = fighter("hero", (0, 0), speed=9, controller="p1", side="heroes")
    ogre = fighter("ogre", (5, 0), side="monsters", speed=1)
    imp = fighter("imp", (6, 3), side="monsters", speed=2)
    return battle(hero, ogre, imp, size=(8, 5))


def fogged(state: BattleState, a: tuple[int, int], b: tuple[int, int]) -> BattleState:
    return act(state, "gm_fog", **{"from": list(a), "to": list(b)})


def test_fog_and_reveal_are_the_gms_rectangles_and_the_squares_are_public():
    state = fogged(ambush(), (4, 0), (7, 1))
    assert sorted(map(tuple, view(state, "p1")["arena"]["fog"])) == [
        (x, y) for x in range(4, 8) for y in range(2)
    ]
    state = act(state, "gm_reveal", **{"from": [4, 0], "to": [4, 1]})
    assert len(state.arena.fog) == 6
    with pytest.raises(IllegalAction):
        apply(state, {"type": "gm_fog", "player": "p1", "from": [0, 0], "to": [1, 1]})
    with pytest.raises(IllegalAction, match="inside"):
        fogged(state, (0, 0), (8, 0))


def test_a_fogged_enemy_is_absent_for_players_and_present_for_the_gm():
    state = fogged(ambush(), (4, 0), (7, 1))
    seen = view(state, "p1")
    assert set(seen["combatants"]) == {"hero", "imp"}
    assert "ogre" not in strings(seen) and "Ogre" not in strings(seen)
    assert "ogre" not in seen["turn"]["order"]
    assert set(view(state, "gm")["combatants"]) == {"hero", "ogre", "imp"}
    # revealed: she is back
    state = act(state, "gm_reveal", **{"from": [5, 0], "to": [5, 0]})
    assert "ogre" in view(state, "p1")["combatants"]


def test_players_neither_walk_nor_aim_into_fog():
    """Rule: a player's piece never enters fog and never targets what hides in it, so an unseen
    enemy cannot shape her options (nothing in her legal actions points at it)."""
    state = fogged(ambush(), (4, 0), (7, 1))
    options = legal_actions(state, "p1")
    reach = {tuple(r["square"]) for o in options if o["type"] == "move" for r in o["reach"]}
    assert reach and not reach & state.arena.fog
    targets = {t for o in options if o["type"] == "attack" for t in o["targets"]}
    assert "ogre" not in targets
    with pytest.raises(IllegalAction):
        act(state, "attack", player="p1", combatant="hero", attack="danmaku", target="ogre")


def test_moving_into_fog_is_not_shown_and_a_hidden_turn_names_nobody():
    state = ambush()
    # The imp's turn comes after the hero's (speed): the hero passes, the imp walks into fog.
    while state.current != "imp":
        state = act(state, "end_turn", combatant=state.current)
    state = fogged(state, (4, 0), (7, 1))
    state = act(state, "move", combatant="imp", to=[6, 1])
    seen = view(state, "p1")
    assert "imp" not in strings(seen)
    assert seen["turn"]["current"] is None and seen["turn"]["current_hidden"] is True
    assert summary(state).endswith("the GM is acting")
    assert view(state, "gm")["turn"]["current"] == "imp"
    for entry in state.log:
        assert "imp" not in strings(visible_events(state, "p1", entry["events"]))
    # She steps out: seen again from then on, but her move into the fog stays unseen.
    state = act(state, "gm_move", combatant="imp", to=[3, 3])
    seen = view(state, "p1")
    assert "imp" in seen["combatants"]
    moves = [e for entry in seen["log"] for e in entry["events"] if e["type"] == "moved"]
    assert [(m["frm"], m["to"]) for m in moves if m["combatant"] == "imp"] == [([6, 1], [3, 3])]


def test_an_attack_from_the_fog_shows_the_hit_but_not_the_attacker():
    state = ambush()
    state = act(state, "gm_move", combatant="ogre", to=[4, 0])
    state = fogged(state, (4, 0), (7, 1))
    while state.current != "ogre":
        state = act(state, "end_turn", combatant=state.current)
    state = act(state, "attack", combatant="ogre", attack="danmaku", target="hero")
    entry = view(state, "p1")["log"][-1]
    assert entry["action"] == {"type": "fogged", "player": "gm"}
    assert "ogre" not in strings(entry)
    assert any(e.get("combatant") == "hero" or e.get("defender") is None for e in entry["events"])


def all_fogged(*hidden: tuple[str, int]) -> BattleState:
    """The tester's battle: p1's Reimu (speed 4) at (1, 1) and pieces she cannot see, each
    ``(id, speed)``, the whole 6 × 6 board fogged before the start."""
    reimu = fighter("reimu", (1, 1), speed=4, controller="p1", side="heroes")
    others = [
        fighter(
            cid,
            (i, 4),
            speed=s,
            side="heroes" if cid == "marisa" else "monsters",
            controller="p2" if cid == "marisa" else "gm",
        )
        for i, (cid, s) in enumerate(hidden)
    ]
    state = battle(reimu, *others, size=(6, 6), start=False)
    return act(fogged(state, (0, 0), (5, 5)), "start")


def test_pieces_in_the_fog_roll_for_the_turn_order_unseen():
    """Fog rule 1 (docs/battle.md, "Fog of war"; turn order ties, RULINGS 11): the turn-order
    versus between Reimu and three unseen pieces of her speed told her they were there and
    their speed (participants with a null id). Two battles identical in what she can see, with
    different numbers and speeds of fogged pieces, give her byte-identical views and logs."""
    ties = all_fogged(("marisa", 4), ("lurker", 4), ("visible", 6))
    none = all_fogged(("marisa", 9), ("lurker", 2))
    tied_log = [e for entry in ties.log for e in entry["events"] if e["type"] == "versus"]
    assert any(len(e["result"]["participants"]) == 3 for e in tied_log)  # she was in the tie
    assert dumps_json(view(ties, "p1")) == dumps_json(view(none, "p1"))
    for a, b in zip(ties.log, none.log, strict=True):
        assert dumps_json(visible_events(ties, "p1", a["events"])) == dumps_json(
            visible_events(none, "p1", b["events"])
        )
    assert view(ties, "p1")["turn"]["order"] == ["reimu"]
    # the GM still sees every roll
    assert [
        e for entry in view(ties, "gm")["log"] for e in entry["events"] if e["type"] == "versus"
    ]


def test_a_versus_with_an_unseen_side_is_not_shown_and_one_between_seen_pieces_is():
    """An opposed roll is about all its sides: with one of them in the fog it is dropped whole
    (her own dice alone would still show a tie with someone unseen); in the open it shows."""
    reimu = fighter("reimu", (1, 1), speed=4, controller="p1", side="heroes")
    ally = fighter("ally", (2, 1), speed=4, side="heroes")
    lurker = fighter("lurker", (5, 5), speed=4, side="monsters")
    state = act(
        fogged(battle(reimu, ally, lurker, size=(6, 6), start=False), (5, 5), (5, 5)), "start"
    )
    assert any(e["type"] == "versus" for entry in state.log for e in entry["events"])
    shown = [e for entry in view(state, "p1")["log"] for e in entry["events"]]
    sides = [{p["id"] for p in e["result"]["participants"]} for e in shown if e["type"] == "versus"]
    assert all(s <= {"reimu", "ally"} for s in sides)  # the three-sided tie is not shown
    assert len(sides) < len(
        [e for entry in state.log for e in entry["events"] if e["type"] == "versus"]
    )
    state = act(state, "gm_reveal", **{"from": [5, 5], "to": [5, 5]})
    shown = [e for entry in view(state, "p1")["log"] for e in entry["events"]]
    assert any(e["type"] == "versus" for e in shown)


def test_a_players_rolls_do_not_show_their_place_in_the_random_stream_until_the_end():
    """The place of a roll in the random stream counts the dice rolled before it, in the fog
    too: a player sees it (and the seed) only once the battle is over."""
    reimu = fighter("reimu", (1, 1), speed=4, controller="p1", side="heroes")
    state = battle(reimu, fighter("ogre", (4, 4), speed=4, side="monsters"), size=(6, 6))
    assert "versus" in dumps_json(view(state, "p1"))  # the turn-order tie, in the open
    assert "sequence_start" not in dumps_json(view(state, "p1"))
    assert "sequence_start" in dumps_json(view(state, "gm"))
    state = act(state, "gm_end_battle", winner=None)
    assert "sequence_start" in dumps_json(view(state, "p1"))


def test_a_piece_the_fog_walls_in_is_named_for_her_screen():
    """Rule 2 (players don't walk into fog): with every square around her fogged, Reimu's only
    options were Do nothing, Concentrate and End turn, and nothing said why. Her view names her
    pieces the fog walls in (``you.fogbound``), from public things only: the fog, the terrain
    and her own square, the same whoever hides there."""
    state = all_fogged(("marisa", 4), ("lurker", 4), ("visible", 6))
    assert view(state, "p1")["you"]["fogbound"] == ["reimu"]
    assert view(state, "gm")["you"]["fogbound"] == []  # the GM's pieces walk into fog
    state = act(state, "gm_reveal", **{"from": [1, 2], "to": [1, 2]})  # one way out
    assert view(state, "p1")["you"]["fogbound"] == []


def dumps_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def test_duplicate_names_are_numbered_once_and_stay():
    maids = [fighter(f"m{i}", (i, 4), side="b") for i in range(3)]
    for m in maids:
        m.name = "Fairy Maid"
    state = battle(fighter("hero", (0, 0), controller="p1"), *maids)
    names = [state.combatants[f"m{i}"].name for i in range(3)]
    assert names == ["Fairy Maid 1", "Fairy Maid 2", "Fairy Maid 3"]
    extra = fighter("m9", (6, 6), side="b")
    extra.name = "Fairy Maid"
    state = act(state, "gm_remove_combatant", combatant="m0")
    state = act(state, "gm_add_combatant", combatant=extra.to_dict())
    assert state.combatants["m9"].name == "Fairy Maid 4"  # after the highest, never reused
    assert state.combatants["m1"].name == "Fairy Maid 2"


def _secrets(state: BattleState, player: str) -> set[str]:
    return {s for cid in hidden_ids(state, player) for s in (cid, state.combatants[cid].name)}


def check_fog(state: BattleState) -> None:
    players = sorted({c.controller for c in state.combatants.values()} - {"gm"})
    for player in [*players, "spectator"]:
        secret = _secrets(state, player)
        assert hidden_ids(state, player) <= ENGINE.hidden_from(state, player)
        seen = view(state, player)
        assert not secret & strings(seen), (player, secret & strings(seen))
        assert not secret & strings(ENGINE.waiting_on(state))
        for entry in state.log:
            shown = visible_events(state, player, entry["events"])
            assert not secret & strings(shown)
            for e in shown:  # an unseen roller is left out, not shown nameless
                if e["type"] == "versus":
                    assert None not in [p["id"] for p in e["result"]["participants"]]
        if secret and state.current in secret:
            assert seen["turn"]["current"] is None
    assert not {c.name for c in state.combatants.values() if in_fog(state, c)} & {summary(state)}
    assert set(view(state, "gm")["combatants"]) == set(state.combatants)


def random_fog(state: BattleState, rng: random.Random) -> Json:
    w, h = state.arena.width, state.arena.height
    a = [rng.randrange(w), rng.randrange(h)]
    b = [min(w - 1, a[0] + rng.randrange(4)), min(h - 1, a[1] + rng.randrange(4))]
    roll = rng.random()
    if roll < 0.15:  # off the board (hidden like fog), shown, or back on a free square
        c = rng.choice(sorted(state.combatants))
        if roll < 0.05:
            return {"type": "gm_move", "player": "gm", "combatant": c, "to": None}
        if roll < 0.1:
            shown = rng.random() < 0.5
            return {"type": "gm_show", "player": "gm", "combatant": c, "shown": shown}
        taken = {x.position for x in state.combatants.values()}
        free = [
            [x, y]
            for x in range(w)
            for y in range(h)
            if state.arena.open((x, y)) and (x, y) not in taken
        ]
        return {"type": "gm_move", "player": "gm", "combatant": c, "to": rng.choice(free)}
    kind = "gm_fog" if roll < 0.7 else "gm_reveal"
    return {"type": kind, "player": "gm", "from": a, "to": b}


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), monsters=st.integers(2, 4))
def test_random_battles_with_random_fog_never_show_a_fogged_combatant(seed, monsters):
    """Random legal play with the GM fogging and revealing rectangles now and then, taking
    pieces off the board, showing them and putting them back: no player (nor a spectator) ever
    sees a hidden combatant's id or name in her view, her log, or whom the battle waits on;
    the GM always sees everyone; legal play never breaks on fog."""
    rng = random.Random(seed)
    state = demo_battle(seed % 2**53, heroes=("reimu", "marisa"), monsters=monsters)
    state = act(state, "start")
    for step in range(60):
        action = random_fog(state, rng) if rng.random() < 0.15 else random_action(state, rng)
        if action is None:
            break
        state, _, _ = apply_random(state, action)
        if step % 4 == 0 or action["type"].startswith("gm_"):
            check_fog(state)
    check_fog(state)
    assert json.loads(json.dumps(view(state, "p1")))  # plain JSON


def test_a_players_card_never_reaches_into_fog():
    """Rule 2: a player's AOE card that covers a fogged square leaves whoever hides there
    alone (nothing it does, such as a hit waiting for a hidden defender, may reveal her)."""
    from westernroses.spellcards import AttackPower, CardType, SpellcardDraft

    shot = SpellcardDraft(name="Shot", type=CardType.ATTACK, aoe=1, attack_power=AttackPower(2))
    hero = fighter(
        "hero", (0, 1), speed=9, controller="p1", side="heroes", deck=[("x", shot, 1)], hand=["x"]
    )
    seen = fighter("seen", (2, 1), side="monsters")
    unseen = fighter("unseen", (3, 1), side="monsters", speed=1)
    state = fogged(battle(hero, seen, unseen, size=(6, 3)), (3, 0), (5, 2))
    option = next(o for o in legal_actions(state, "p1") if o["type"] == "use_spellcard")
    assert [3, 1] not in option["target_squares"]  # she can't aim into the fog
    state, events = apply(
        state,
        {
            "type": "use_spellcard",
            "player": "p1",
            "combatant": "hero",
            "card": "x",
            "targets": [[2, 1]],
        },
    )
    assert [3, 1] in events[[e["type"] for e in events].index("spellcard")]["covered"]
    assert state.combatants["unseen"].hp == 100  # the area stops at the fog
    assert not state.pending or state.pending[0]["defender"] != "unseen"
    assert "unseen" not in strings(view(state, "p1"))


def test_an_npc_off_the_board_is_hidden_like_one_in_fog():
    """docs/battle.md, "Fog of war": a combatant with no square is hidden from the players
    exactly like one in fog (no entry, no name, no HP, no turn, no log line about her), even
    when the whole board is fogged; the GM sees her; a player still sees her own piece."""
    state = fogged(ambush(), (0, 0), (7, 4))  # the whole board
    state = act(state, "gm_move", combatant="ogre", to=None)
    assert state.combatants["ogre"].position is None
    for player in ("p1", "spectator"):
        seen = view(state, player)
        assert "ogre" not in strings(seen) and "Ogre" not in strings(seen), player
        assert "ogre" in hidden_ids(state, player) and "ogre" in ENGINE.hidden_from(state, player)
    assert "ogre" in view(state, "gm")["combatants"]
    # with no fog at all too: off the board is out of sight
    clear = act(state, "gm_reveal", **{"from": [0, 0], "to": [7, 4]})
    assert "ogre" not in strings(view(clear, "p1"))
    assert "imp" in view(clear, "p1")["combatants"]
    # her own piece off the board: its controller sees it, the other players do not
    off = act(clear, "gm_move", combatant="hero", to=None)
    assert "hero" in view(off, "p1")["combatants"]
    assert "hero" not in strings(view(off, "p2"))


def test_the_gm_shows_a_combatant_off_the_board_and_hides_her_again():
    state = act(ambush(), "gm_move", combatant="ogre", to=None)
    assert "ogre" not in view(state, "p1")["combatants"]
    shown = act(state, "gm_show", combatant="ogre", shown=True)
    seen = view(shown, "p1")["combatants"]["ogre"]
    assert seen["name"] == "Ogre" and seen["position"] is None
    assert json.loads(json.dumps(shown.to_dict()))["combatants"]["ogre"]["shown"] is True
    hidden = act(shown, "gm_show", combatant="ogre", shown=False)
    assert "ogre" not in strings(view(hidden, "p1"))
    with pytest.raises(IllegalAction, match="true or false"):
        act(state, "gm_show", combatant="ogre", shown="yes")
    with pytest.raises(IllegalAction):
        apply(state, {"type": "gm_show", "player": "p1", "combatant": "ogre", "shown": True})
    # placed on a clear square she is seen whatever she was; on fog she is hidden
    placed = act(hidden, "gm_move", combatant="ogre", to=[5, 0])
    assert "ogre" in view(placed, "p1")["combatants"]


def test_what_an_npc_does_off_the_board_stays_unseen_once_she_is_placed():
    """Rule 3 for the wings: the log of what happened to her while off the board (the GM
    moved her off, healed her) shows no player anything about her, even once she is back."""
    state = act(ambush(), "gm_move", combatant="ogre", to=None)
    state = act(state, "gm_adjust", combatant="ogre", hp=-3)
    state = act(state, "gm_move", combatant="ogre", to=[5, 0])
    entries = [visible_events(state, "p1", e["events"]) for e in state.log]
    adjusted = entries[-2]
    assert not {"ogre", "Ogre"} & strings(adjusted)
