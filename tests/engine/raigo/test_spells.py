"""Token spells, answers and the Rules of the Spell ("The Effect of Token Spells", "RAIGO
BATTLE", "The Rules of the Spell", "Q&A" of ../shared/rules/raigo-rulebook-en.md)."""

from __future__ import annotations

from minigames.engines.raigo import ENGINE
from minigames.engines.raigo.board import player
from minigames.engines.raigo.tokens import kind
from tests.engine.raigo.helpers import bare, give, kinds, play, start, texts

DECLINE = {"type": "decline"}


def chants(state, seat, hand):
    return [
        a for a in ENGINE.legal_actions(state, seat) if a["type"] == "chant" and a["hand"] == hand
    ]


def effects(state, seat, hand):
    return {a["effect"] for a in chants(state, seat, hand)}


def thunder_table(**extra):
    """Seat 0 holds Thunder; seat 1's first tower (Five, Four, Three) is the highest."""
    state = bare(3, **extra)
    give(state, 0, left="thunder")
    give(state, 1, towers=[["five", "four", "three"]])
    give(state, 2, towers=[["two", "two"]])
    return state


# Thunder ------------------------------------------------------------------------------------


def test_discharge_resolves_the_highest_tower_for_its_owner():
    """Thunder 1. Discharge: one of the highest towers is resolved (Lotus + Silent = 2)."""
    state = start(thunder_table())
    options = chants(state, 0, "left")
    assert {(a["effect"], a["seat"], a["tower"]) for a in options} == {
        ("discharge", 1, 0),
        ("charge", 1, 0),
    }
    state, events = play(
        state, 0, {"type": "chant", "hand": "left", "effect": "discharge", "seat": 1, "tower": 0}
    )
    assert player(state, 1)["balls"] == 4
    assert player(state, 1)["towers"][0] == []
    assert "Lotus" in texts(events)


def test_thunder_needs_a_tower_of_two_stories():
    """Thunder: "they cannot choose a Tower lower than two stories"."""
    state = bare(3)
    give(state, 0, left="thunder")
    give(state, 1, towers=[["five"]])
    state = start(state)
    assert chants(state, 0, "left") == []


def test_charge_seals_until_the_end_of_the_owners_next_turn():
    """Thunder 2. Charge: the sealed tower is nonexistent (no Pile, no spells; the next highest
    becomes the highest) until its owner's next turn ends; then the Thunder goes to the Canyon."""
    state = start(thunder_table())
    give(state, 0, right="katana")
    state["turn"]["pending"].append("right")
    state, _ = play(
        state, 0, {"type": "chant", "hand": "left", "effect": "charge", "seat": 1, "tower": 0}
    )
    assert [(s["seat"], s["tower"], s["until_turn"]) for s in state["seals"]] == [(1, 0, 2)]
    katana_targets = {(a["seat"], a["tower"]) for a in chants(state, 0, "right")}
    assert (1, 0) not in katana_targets and (2, 0) in katana_targets
    view = ENGINE.view(state, 2)
    assert view["players"][1]["towers"][0]["sealed"] is True
    state, _ = play(state, 0, {"type": "keep", "hand": "right"})
    # seat 1's turn (turn 2): she cannot pile on the sealed tower
    give(state, 1, left="one")
    state = start(state, 1)
    piles = [a["tower"] for a in ENGINE.legal_actions(state, 1) if a["type"] == "pile"]
    assert piles == [1]
    thunder = state["seals"][0]["token"]
    state, events = play(state, 1, {"type": "keep", "hand": "left"})
    assert state["seals"] == [] and thunder in state["canyon"]
    assert "seal" in texts(events)


# Rules of the Spell -------------------------------------------------------------------------


def test_same_effect_not_twice_a_turn_but_thunder_both_ways():
    """Rules of the Spell 1, Examples 2 and 4."""
    state = bare(3)
    give(state, 0, left="katana", right="katana")
    give(state, 1, towers=[["five", "four"]])
    state = start(state)
    state, _ = play(
        state,
        0,
        {"type": "chant", "hand": "left", "effect": "katana", "seat": 1, "tower": 0, "end": "top"},
    )
    assert effects(state, 0, "right") == set()
    state = thunder_table()
    give(state, 0, right="thunder")
    state = start(state)
    state, _ = play(
        state, 0, {"type": "chant", "hand": "left", "effect": "charge", "seat": 1, "tower": 0}
    )
    assert effects(state, 0, "right") == {"discharge"}  # the sealed tower gone, seat 2's is highest
    assert {a["seat"] for a in chants(state, 0, "right")} == {2}


def test_mist_twice_with_different_effects_and_katana_via_mist_counts():
    """Rules of the Spell 1, Examples 3 and 5."""
    state = bare(3)
    give(state, 0, left="mist", right="mist")
    give(state, 1, body=["one"], towers=[["five", "four"]])
    state = start(state)
    assert effects(state, 0, "left") == {"discharge", "charge", "snake", "katana"}
    state, _ = play(
        state,
        0,
        {
            "type": "chant",
            "hand": "left",
            "effect": "katana",
            "seat": 1,
            "tower": 0,
            "end": "bottom",
        },
    )
    assert kinds(player(state, 1)["towers"][0]) == ["four"]
    assert effects(state, 0, "right") == {"snake"}  # Katana used; the towers are too low to Thunder


def two_katanas_at_seat_1(**options):
    """Seat 0 chants Katana (left) and then Mist as Snake (right), both at seat 1, who holds a
    Shield and a Mist (either may answer as a Shield)."""
    state = bare(3, **options)
    give(state, 0, left="katana", right="mist")
    give(state, 1, body=["eight"], left="shield", right="mist", towers=[["six", "five"]])
    state = start(state)
    katana = {"type": "chant", "hand": "left", "effect": "katana", "seat": 1, "tower": 0}
    state, _ = play(state, 0, {**katana, "end": "top"})
    state, _ = play(state, 1, {"type": "shield", "hand": "left"})
    assert kinds(player(state, 1)["towers"][0]) == ["six", "five"]
    snake = {"type": "chant", "hand": "right", "effect": "snake", "seat": 1, "space": "body0"}
    state, _ = play(state, 0, snake)
    return state


def test_the_rules_of_the_spell_bind_the_turn_player_so_a_target_shields_twice():
    """Rules of the Spell 1: "During your turn, you cannot apply the effect of the same Spell
    twice" binds the player whose turn it is (its five examples are all hers). Seat 1, who
    Shielded seat 0's Katana, is asked again when seat 0's Snake comes, and Shields it too."""
    state = two_katanas_at_seat_1()
    assert ENGINE.waiting_on(state) == (1,)
    assert {"type": "shield", "hand": "right"} in ENGINE.legal_actions(state, 1)
    state, _ = play(state, 1, {"type": "shield", "hand": "right"})
    assert kinds(player(state, 1)["body"]) == ["eight"] and player(state, 0)["right"] is None


def test_house_rule_everyone_limits_the_answers_too():
    """The house rule "Every player": seat 1 has used a Shield this turn, so the Snake takes
    her Eight without asking her (the reading the tavern used before)."""
    state = two_katanas_at_seat_1(spell_limit="everyone")
    assert ENGINE.waiting_on(state) == (0,) and state["prompt"]["kind"] == "act"
    assert kind(player(state, 0)["right"]).key == "eight"


def test_a_game_saved_before_the_house_rule_keeps_the_reading_it_began_with():
    """A stored game whose options predate the house rule limited every player: it goes on
    (and replays) that way."""
    state = bare(3)
    del state["options"]["spell_limit"]
    give(state, 0, left="katana", right="mist")
    give(state, 1, body=["eight"], left="shield", right="mist", towers=[["six", "five"]])
    state = start(state)
    katana = {"type": "chant", "hand": "left", "effect": "katana", "seat": 1, "tower": 0}
    state, _ = play(state, 0, {**katana, "end": "top"})
    state, _ = play(state, 1, {"type": "shield", "hand": "left"})
    snake = {"type": "chant", "hand": "right", "effect": "snake", "seat": 1, "space": "body0"}
    state, _ = play(state, 0, snake)
    assert 1 not in ENGINE.waiting_on(state)


def two_thunders_roared_by_seat_2(**options):
    """Seat 0 discharges with Thunder (left), seat 2 Roars onto her Two-Two; then seat 0
    charges with Mist (right) at seat 1's tower, and seat 2 holds a second Roar."""
    state = thunder_table(**options)
    give(state, 0, right="mist")
    give(state, 2, left="roar", right="roar", towers=[[], ["three", "three"]])
    state = start(state)
    thunder = {"type": "chant", "hand": "left", "effect": "discharge", "seat": 1, "tower": 0}
    state, _ = play(state, 0, thunder)
    assert ENGINE.waiting_on(state) == (2,)
    state, _ = play(state, 2, {"type": "roar", "hand": "left", "tower": 0})
    assert player(state, 2)["towers"][0] == []  # Raigo Discharge of Two, Two: no hand
    charge = {"type": "chant", "hand": "right", "effect": "charge", "seat": 1, "tower": 0}
    state, _ = play(state, 0, charge)
    return state


def test_a_player_who_roared_once_may_roar_a_second_thunder():
    """Rules of the Spell 1 binds the turn player; Rules of the Spell 4 forbids two Roars
    against one Thunder, not one Roar against each of two. Seat 2 roars again and the Charge
    seals her own tower instead."""
    state = two_thunders_roared_by_seat_2()
    assert 2 in ENGINE.waiting_on(state)
    assert {"type": "roar", "hand": "right", "tower": 1} in ENGINE.legal_actions(state, 2)
    state, _ = play(state, 2, {"type": "roar", "hand": "right", "tower": 1})
    while ENGINE.waiting_on(state) and state["prompt"]["kind"] == "react":
        state, _ = play(state, ENGINE.waiting_on(state)[0], DECLINE)
    assert [(s["seat"], s["tower"]) for s in state["seals"]] == [(2, 1)]


def test_house_rule_everyone_allows_one_roar_a_turn():
    state = two_thunders_roared_by_seat_2(spell_limit="everyone")
    assert 2 not in ENGINE.waiting_on(state)


def test_snake_takes_a_token_into_that_hand_and_it_may_be_piled_not_snaked_again():
    """Snake, and Rules of the Spell 1 Example 1."""
    state = bare(3)
    give(state, 0, left="snake")
    give(state, 1, body=["snake"])
    state = start(state)
    targets = {(a["seat"], a["space"]) for a in chants(state, 0, "left")}
    assert targets == {(1, "body0")}
    state, events = play(
        state, 0, {"type": "chant", "hand": "left", "effect": "snake", "seat": 1, "space": "body0"}
    )
    assert kind(player(state, 0)["left"]).key == "snake"
    assert player(state, 1)["body"] == []
    assert effects(state, 0, "left") == set()
    assert {"type": "pile", "hand": "left", "tower": 0} in ENGINE.legal_actions(state, 0)
    secret = [e for e in events if e["type"] == "snake_token"]
    assert secret and secret[0]["visible_to"] == [0, 1]


def test_katana_cuts_top_or_bottom_to_the_canyon():
    state = bare(3)
    give(state, 0, left="katana")
    give(state, 2, towers=[["six", "five", "four"]])
    state = start(state)
    ends = {a["end"] for a in chants(state, 0, "left")}
    assert ends == {"top", "bottom"}
    state, _events = play(
        state,
        0,
        {"type": "chant", "hand": "left", "effect": "katana", "seat": 2, "tower": 0, "end": "top"},
    )
    assert kinds(player(state, 2)["towers"][0]) == ["six", "five"]
    assert kind(state["canyon"][-1]).key == "four"


# Shield ------------------------------------------------------------------------------------


def test_shield_blocks_katana_and_both_go_to_the_canyon():
    """Shield: placed in the Canyon face up to disable Thunder, Snake or Katana."""
    state = bare(3)
    give(state, 0, left="katana")
    give(state, 2, right="shield", towers=[["six", "five", "four"]])
    state = start(state)
    state, _ = play(
        state,
        0,
        {"type": "chant", "hand": "left", "effect": "katana", "seat": 2, "tower": 0, "end": "top"},
    )
    assert ENGINE.waiting_on(state) == (2,)
    assert {"type": "shield", "hand": "right"} in ENGINE.legal_actions(state, 2)
    assert ENGINE.timeout_action(state, 2) == DECLINE
    state, _events = play(state, 2, {"type": "shield", "hand": "right"})
    assert kinds(player(state, 2)["towers"][0]) == ["six", "five", "four"]
    assert kinds(state["canyon"][-2:]) == ["katana", "shield"]
    assert player(state, 2)["right"] is None


def test_a_spell_on_her_own_things_reads_her_and_your():
    """Q&A 1's case told in words: Katana on her own tower and her own Shield against it. Her
    buttons say "your", the log "her" and a Shield raised as itself is "her Shield"; the
    seat's name never comes twice in one sentence ("Reimu chants ... of Reimu's tower")."""
    state = bare(3)
    give(state, 0, left="katana", right="shield", towers=[["six", "five"]])
    state = start(state)
    name = state["names"][0]
    chant = {"type": "chant", "hand": "left", "effect": "katana", "seat": 0, "tower": 0}
    chant["end"] = "top"
    assert str(ENGINE.describe_action(state, 0, chant)) == (
        "Chant the Katana in your left hand as Katana on the top of your first tower"
    )
    state, events = play(state, 0, chant)
    assert f"{name} chants Katana on the top of her first tower." in texts(events)
    shield = {"type": "shield", "hand": "right"}
    assert str(ENGINE.describe_action(state, 0, shield)) == (
        "Block the spell with the Shield in your right hand"
    )
    state, events = play(state, 0, shield)
    assert f"{name} raises her Shield: the Katana has no effect." in texts(events)
    assert f"{name}'s" not in texts(events)


def test_qa_shield_against_your_own_katana():
    """Q&A 1: Katana on yourself can be defended by your own Shield."""
    state = bare(3)
    give(state, 0, left="katana", right="shield", towers=[["six", "five"]])
    state = start(state)
    state, _ = play(
        state,
        0,
        {"type": "chant", "hand": "left", "effect": "katana", "seat": 0, "tower": 0, "end": "top"},
    )
    assert ENGINE.waiting_on(state) == (0,)
    state, _ = play(state, 0, {"type": "shield", "hand": "right"})
    assert kinds(player(state, 0)["towers"][0]) == ["six", "five"]


def test_shield_blocks_a_snake_chanted_through_mist():
    """Shield "includes the effect of Thunder, Snake or Katana chanted by Mist Token"."""
    state = bare(3)
    give(state, 0, left="mist")
    give(state, 1, body=["eight"], right="shield")
    state = start(state)
    state, _ = play(
        state, 0, {"type": "chant", "hand": "left", "effect": "snake", "seat": 1, "space": "body0"}
    )
    state, events = play(state, 1, {"type": "shield", "hand": "right"})
    assert kinds(player(state, 1)["body"]) == ["eight"] and player(state, 0)["left"] is None
    assert "Shield" in texts(events)


def test_everyone_who_might_answer_is_asked_whatever_she_holds():
    """Answers wait on every seat that by public information may answer: a seat holding only a
    Silent token is asked too (asking only token holders would reveal them); a seat with
    empty hands is not."""
    state = thunder_table()
    give(state, 1, left="one")  # target, holds no Shield
    give(state, 2, right="two")  # holds no Roar, but has a tower
    state = start(state)
    state, _ = play(
        state, 0, {"type": "chant", "hand": "left", "effect": "discharge", "seat": 1, "tower": 0}
    )
    assert ENGINE.waiting_on(state) == (1, 2)
    assert ENGINE.legal_actions(state, 1) == [DECLINE]
    assert ENGINE.legal_actions(state, 2) == [DECLINE]
    state, _ = play(state, 2, DECLINE)
    assert ENGINE.waiting_on(state) == (1,)
    state, _ = play(state, 1, DECLINE)
    assert player(state, 1)["balls"] == 4


# Roar and Raigo Battle -----------------------------------------------------------------------


def test_roar_calls_the_discharge_onto_her_tower_with_the_raigo_bonus():
    """Roar: the Thunder moves to the Roar player's tower of any height; a Raigo Discharge of a
    tower with a hand gains two more Yang balls."""
    state = thunder_table()
    give(state, 2, right="roar", towers=[[], ["three", "three", "three"]])
    state = start(state)
    state, _ = play(
        state, 0, {"type": "chant", "hand": "left", "effect": "discharge", "seat": 1, "tower": 0}
    )
    roars = [a for a in ENGINE.legal_actions(state, 2) if a["type"] == "roar"]
    assert {a["tower"] for a in roars} == {0, 1}
    state, events = play(state, 2, {"type": "roar", "hand": "right", "tower": 1})
    assert player(state, 2)["balls"] == 2 + 3 + 2  # Sakura 2 + Silent 1, + 2 Raigo Discharge
    assert kinds(player(state, 1)["towers"][0]) == ["five", "four", "three"]
    assert "Raigo Discharge" in texts(events)


def test_roar_beats_shield_and_the_shield_stays_in_hand():
    """Rules of the Spell 3, Example 1."""
    state = thunder_table()
    give(state, 1, left="shield")
    give(state, 2, right="roar")
    state = start(state)
    state, _ = play(
        state, 0, {"type": "chant", "hand": "left", "effect": "discharge", "seat": 1, "tower": 0}
    )
    state, _ = play(state, 1, {"type": "shield", "hand": "left"})
    state, events = play(state, 2, {"type": "roar", "hand": "right", "tower": 0})
    assert kind(player(state, 1)["left"]).key == "shield"
    assert ENGINE.view(state, 0)["players"][1]["hands"]["left"]["name"] == "Shield"  # shown
    assert player(state, 2)["towers"][0] == []  # Two, Two: no hand, no Raigo bonus
    assert player(state, 2)["balls"] == 2
    assert kinds(player(state, 1)["towers"][0]) == ["five", "four", "three"]
    assert "Roar beats Shield" in texts(events)


def test_roar_against_your_own_thunder_and_only_one_roar_each():
    """Roar: "when a player including themselves applies Thunder"; Rules of the Spell 4: one
    player answers with one Roar only, the other stays in her hand."""
    state = thunder_table()
    give(state, 0, right="roar", towers=[["four", "four", "four"]])
    give(state, 2, left="roar", right="roar")
    state = start(state)
    state, _ = play(
        state, 0, {"type": "chant", "hand": "left", "effect": "discharge", "seat": 1, "tower": 0}
    )
    assert ENGINE.waiting_on(state) == (0, 2)
    state, _ = play(state, 2, {"type": "roar", "hand": "right", "tower": 0})
    assert ENGINE.waiting_on(state) == (0,)
    state, events = play(state, 0, {"type": "roar", "hand": "right", "tower": 0})
    # Raigo Battle: Four (seat 0) against Two (seat 2): seat 0's Sakura is discharged
    assert player(state, 0)["balls"] == 2 + 3 + 2
    assert kind(player(state, 2)["left"]).key == "roar"
    assert "Raigo Battle" in texts(events)


def raigo_battle(tops):
    """Three Roars answer seat 0's Discharge on seat 1's tower; ``tops`` are the top tokens of
    the roaring towers of seats 1, 2, 0 (seat 1 roars onto her second tower)."""
    state = thunder_table()
    give(state, 1, right="roar", towers=[[], ["nine" if False else "eight", tops[0]]])
    give(state, 2, right="mist", towers=[[], ["eight", tops[1]]])
    give(state, 0, right="roar", towers=[["eight", tops[2]]])
    state = start(state)
    state, _ = play(
        state, 0, {"type": "chant", "hand": "left", "effect": "discharge", "seat": 1, "tower": 0}
    )
    assert ENGINE.waiting_on(state) == (0, 1, 2)
    state, _ = play(state, 1, {"type": "roar", "hand": "right", "tower": 1})
    state, _ = play(state, 2, {"type": "roar", "hand": "right", "tower": 1})
    state, events = play(state, 0, {"type": "roar", "hand": "right", "tower": 0})
    return state, events


def test_raigo_battle_a_single_heaviest_top_token_wins():
    """RAIGO BATTLE (a)."""
    state, events = raigo_battle(["seven", "six", "five"])
    assert player(state, 1)["towers"][1] == []  # Eight, Seven: no hand
    assert len(player(state, 2)["towers"][1]) == 2 and len(player(state, 0)["towers"][0]) == 2
    assert "heaviest" in texts(events)
    assert all(kind(t).key not in ("roar", "thunder") for t in state["in_play"])


def test_raigo_battle_b_single_second_heaviest_wins():
    """RAIGO BATTLE (b): two reveal the heaviest, one the second heaviest."""
    state, events = raigo_battle(["seven", "seven", "six"])
    assert player(state, 0)["towers"][0] == []
    assert "second heaviest" in texts(events)


def test_raigo_battle_c_the_thunder_keeps_its_target():
    """RAIGO BATTLE (c): no single heaviest and no single second heaviest: the Thunder's own
    target, without the Raigo bonus; Thunder and Roars go to the Canyon."""
    state, _events = raigo_battle(["seven", "seven", "seven"])
    assert player(state, 1)["towers"][0] == []
    assert player(state, 1)["balls"] == 4  # Lotus 1 + Silent 1, no Raigo bonus
    assert all(len(player(state, s)["towers"][t]) == 2 for s, t in ((1, 1), (2, 1), (0, 0)))
    spent = kinds(state["canyon"])
    assert spent.count("roar") == 2 and "mist" in spent and "thunder" in spent


# Switch, Purify, Destroy ---------------------------------------------------------------------


def test_switch_swaps_two_tokens_not_heavy_spells_from_the_canyon():
    """Switch: two tokens from the five spaces of any player or the Canyon, never a Spell over
    weight VII from the Canyon; a token switched into her hand may be piled (Q&A 2: the Body
    is sorted again)."""
    state = bare(3)
    give(state, 0, left="switch", body=["one"])
    give(state, 1, body=["seven", "two"])
    for key in ("purify", "destroy", "eight", "switch"):
        state["canyon"].append(
            next(t for pile in state["raizan"] for t in pile if kind(t).key == key)
        )
        for pile in state["raizan"]:
            if state["canyon"][-1] in pile:
                pile.remove(state["canyon"][-1])
    state = start(state)
    state, _ = play(state, 0, {"type": "chant", "hand": "left", "effect": "switch"})
    picks = ENGINE.legal_actions(state, 0)
    canyon_kinds = {kind(a["canyon"]).key for a in picks if "canyon" in a}
    assert canyon_kinds == {"eight", "switch"}  # the chanted Switch is in the Canyon too
    state, _ = play(state, 0, {"type": "switch_pick", "seat": 1, "space": "body1"})  # the Two
    state, _ = play(state, 0, {"type": "switch_pick", "seat": 0, "space": "body0"})  # the One
    assert kinds(player(state, 1)["body"]) == ["seven", "one"]
    assert kinds(player(state, 0)["body"]) == ["two"]


def test_switch_from_the_canyon_into_her_hand_lets_her_pile_it_and_all_see_it():
    state = bare(3)
    give(state, 0, left="switch", right="snake")
    eight = next(t for t in state["raizan"][1] if kind(t).key == "eight")
    state["raizan"][1].remove(eight)
    state["canyon"].append(eight)
    state = start(state)
    state, _ = play(state, 0, {"type": "chant", "hand": "left", "effect": "switch"})
    state, _ = play(state, 0, {"type": "switch_pick", "canyon": eight})
    state, _ = play(state, 0, {"type": "switch_pick", "seat": 0, "space": "right"})
    assert player(state, 0)["right"] == eight
    assert {"type": "pile", "hand": "right", "tower": 0} in ENGINE.legal_actions(state, 0)
    assert ENGINE.view(state, 2)["players"][0]["hands"]["right"]["name"] == "Eight"
    assert "snake" in kinds(state["canyon"])


def test_purify_discards_at_most_what_raizan_holds_and_redraws():
    """Purify: discard 0-4, draw as many, place anywhere; no more than Raizan holds."""
    state = bare(3)
    give(state, 0, left="purify", right="one", body=["two", "three", "four"])
    keep = [state["raizan"][0].pop(), state["raizan"][0].pop()]
    for pile in state["raizan"]:
        state["canyon"].extend(pile)
        pile.clear()
    state["raizan"][0].extend(keep)
    state = start(state)
    state, _ = play(state, 0, {"type": "chant", "hand": "left", "effect": "purify"})
    for _ in range(2):
        discards = [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "purify_discard"]
        assert discards
        state, _ = play(state, 0, discards[0])
    assert ENGINE.legal_actions(state, 0) == [{"type": "purify_done"}]  # Raizan holds two
    state, _events = play(state, 0, {"type": "purify_done"})
    assert sorted(state["turn"]["drawn"]) == sorted(keep)
    assert state["end_after_turn"] == 1 + 3
    arrange = ENGINE.legal_actions(state, 0)
    assert all(a["type"] == "arrange" for a in arrange)
    state, _ = play(state, 0, arrange[0])
    assert (
        len(player(state, 0)["body"])
        + (player(state, 0)["left"] is not None)
        + (player(state, 0)["right"] is not None)
        == 4
    )


def test_destroy_gathers_spells_and_strikes_at_the_end_of_the_turn():
    """Destroy 1-5 with X = 5 (house rule): spells applied after it are laid beside it; once
    their weight is over X, one tower of the player whose turn it is goes to the Canyon at the
    end of her turn, chosen by Destroy's owner; then everything goes to the Canyon."""
    state = bare(3, destroy_threshold=5)
    give(state, 0, left="destroy", right="mist", towers=[["six", "six"], ["one"]])
    give(state, 1, towers=[["five", "four"]])
    state = start(state)
    state, _ = play(state, 0, {"type": "chant", "hand": "left", "effect": "destroy"})
    assert state["destroy"]["owner"] == 0
    assert kind(state["destroy"]["token"]).key == "destroy"
    katana = {"type": "chant", "hand": "right", "effect": "katana", "seat": 1, "tower": 0}
    state, events = play(state, 0, {**katana, "end": "top"})
    # the Mist (weight 6) lies beside Destroy: 6 is over 5, so Destroy strikes at turn end
    assert state["prompt"] == {"kind": "destroy", "seat": 0}
    assert kinds(state["destroy"]["row"]) == ["mist"] and state["destroy"]["victim"] == 0
    assert "destroys one of Player 1's towers" in texts(events)
    state, events = play(state, 0, {"type": "destroy", "tower": 1})
    assert player(state, 0)["towers"][1] == [] and len(player(state, 0)["towers"][0]) == 2
    assert state["destroy"] is None and state["turn"]["seat"] == 1
    assert {"destroy", "mist", "one"} <= set(kinds(state["canyon"]))
    assert "Destroy strikes" in texts(events)


def test_destroy_under_the_threshold_waits():
    """ "When the total weight ... reaches over X": 3 is not over the default 20."""
    state = bare(3)
    give(state, 0, left="destroy", right="katana", towers=[["six", "six"]])
    give(state, 1, towers=[["five", "four"]])
    state = start(state)
    state, _ = play(state, 0, {"type": "chant", "hand": "left", "effect": "destroy"})
    state, _ = play(
        state,
        0,
        {"type": "chant", "hand": "right", "effect": "katana", "seat": 1, "tower": 0, "end": "top"},
    )
    assert state["destroy"]["victim"] is None and kinds(state["destroy"]["row"]) == ["katana"]
    assert state["turn"]["seat"] == 1  # the turn passed, Destroy stays


def test_qa_seal_ends_before_destroy_and_its_thunder_is_gathered():
    """Q&A 3: at the end of the turn the Discharge/Charge effect ends first, its Thunder joins
    the active Destroy, and then Destroy strikes if the weight is over X."""
    state = bare(3, destroy_threshold=5)
    give(state, 0, left="one", towers=[["six", "six"], ["five"]])
    thunder = next(t for pile in state["raizan"] for t in pile if kind(t).key == "thunder")
    for pile in state["raizan"]:
        if thunder in pile:
            pile.remove(thunder)
    state["seals"].append({"seat": 0, "tower": 0, "token": thunder, "until_turn": 1})
    destroy = next(t for pile in state["raizan"] for t in pile if kind(t).key == "destroy")
    for pile in state["raizan"]:
        if destroy in pile:
            pile.remove(destroy)
    five = next(t for pile in state["raizan"] for t in pile if kind(t).key == "roar")
    for pile in state["raizan"]:
        if five in pile:
            pile.remove(five)
    state["destroy"] = {"owner": 2, "token": destroy, "row": [five], "victim": None}
    state = start(state)
    state, _events = play(state, 0, {"type": "keep", "hand": "left"})
    # 5 + Thunder 1 = 6 > 5: Destroy strikes; the seal ended first, so both towers could go
    assert state["prompt"] == {"kind": "destroy", "seat": 2}
    assert ENGINE.waiting_on(state) == (2,)
    assert thunder in state["destroy"]["row"]
    assert [a["tower"] for a in ENGINE.legal_actions(state, 2)] == [0, 1]


def test_qa_all_effects_end_and_every_tower_is_resolved_at_game_end():
    """Q&A 4: spells are deactivated at the end; a sealed tower is resolved too."""
    from minigames.engines.raigo.resolution import Ctx, finish

    state = bare(3)
    give(state, 1, towers=[["three", "three", "three"]])
    thunder = state["raizan"][0].pop()
    state["seals"].append({"seat": 1, "tower": 0, "token": thunder, "until_turn": 9})
    finish(Ctx(state), "a test")
    assert player(state, 1)["balls"] == 2 + 3
    assert state["seals"] == [] and thunder in state["canyon"]


def test_qa_shield_also_blocks_thunder():
    """Q&A 1: "You can also defend against the effect of Thunder and Snake"."""
    state = thunder_table()
    give(state, 1, left="shield")
    state = start(state)
    state, _ = play(
        state, 0, {"type": "chant", "hand": "left", "effect": "discharge", "seat": 1, "tower": 0}
    )
    assert ENGINE.waiting_on(state) == (1,)
    state, _ = play(state, 1, {"type": "shield", "hand": "left"})
    assert kinds(player(state, 1)["towers"][0]) == ["five", "four", "three"]
    assert player(state, 1)["balls"] == 2 and kinds(state["canyon"][-2:]) == ["thunder", "shield"]


def test_qa_switch_sorts_the_body_again():
    """Q&A 2: after Switch the Inner Tokens are sorted, heaviest at the bottom."""
    state = bare(3)
    give(state, 0, left="switch", body=["eight"])
    give(state, 1, body=["four", "two"])
    state = start(state)
    state, _ = play(state, 0, {"type": "chant", "hand": "left", "effect": "switch"})
    state, _ = play(state, 0, {"type": "switch_pick", "seat": 1, "space": "body1"})
    state, _ = play(state, 0, {"type": "switch_pick", "seat": 0, "space": "body0"})
    assert kinds(player(state, 1)["body"]) == ["eight", "four"]
    assert kinds(player(state, 0)["body"]) == ["two"]


def test_raigo_battle_c_with_two_tied_pairs():
    """RAIGO BATTLE (c): two reveal the heaviest and two the second heaviest (four players)."""
    state = bare(4)
    give(state, 0, left="thunder", right="roar", towers=[["eight", "seven"]])
    give(state, 1, right="roar", towers=[["five", "four", "three"], ["eight", "seven"]])
    give(state, 2, right="roar", towers=[["eight", "six"]])
    give(state, 3, right="mist", towers=[["eight", "six"]])
    state = start(state)
    state, _ = play(
        state, 0, {"type": "chant", "hand": "left", "effect": "discharge", "seat": 1, "tower": 0}
    )
    assert ENGINE.waiting_on(state) == (0, 1, 2, 3)
    for seat, tower in ((1, 1), (2, 0), (3, 0)):
        state, _ = play(state, seat, {"type": "roar", "hand": "right", "tower": tower})
    state, events = play(state, 0, {"type": "roar", "hand": "right", "tower": 0})
    assert player(state, 1)["towers"][0] == [] and player(state, 1)["balls"] == 4
    assert all(len(player(state, s)["towers"][t]) == 2 for s, t in ((0, 0), (1, 1), (2, 0), (3, 0)))
    assert "keeps its target" in texts(events)


def test_rules_of_the_spell_3_example_2_and_nothing_else_during_answers():
    """Rules of the Spell 3 Example 2: A discharges her own tower, B calls it onto hers with
    Roar; B's Shield is no answer to that (she was not the target). Rules of the Spell 2:
    while the answers are open, nobody else may do anything."""
    state = bare(3)
    give(state, 0, left="thunder", right="katana", towers=[["five", "four", "three"]])
    give(state, 1, left="roar", right="shield", towers=[["two", "two", "two"]])
    state = start(state)
    state, _ = play(
        state, 0, {"type": "chant", "hand": "left", "effect": "discharge", "seat": 0, "tower": 0}
    )
    assert ENGINE.waiting_on(state) == (0, 1)
    assert all(a["type"] != "shield" for a in ENGINE.legal_actions(state, 1))
    assert ENGINE.legal_actions(state, 2) == []
    state, _ = play(state, 1, {"type": "roar", "hand": "left", "tower": 0})
    assert ENGINE.legal_actions(state, 0) == [DECLINE]  # no chanting her Katana meanwhile
    state, _ = play(state, 0, DECLINE)
    assert player(state, 1)["balls"] == 2 + 3 + 2
    assert kind(player(state, 1)["right"]).key == "shield"
    assert kinds(player(state, 0)["towers"][0]) == ["five", "four", "three"]
