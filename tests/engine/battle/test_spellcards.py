"""Spellcards in battle: cost, targets and AOE, to-hit, dodging, durations, bombs and the
special skills ("Spellcards", "Use an Spell Card", "Dodging for spellcards", RULINGS 5-10).
Every caster here has 12 in each stat, so the dodge target is 12 unless a test says so."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.engine.battle.helpers import act, act_events, battle, events_of, fighter, scripted
from westernroses.battle import IllegalAction, legal_actions
from westernroses.spellcards import (
    AttackPower,
    CardType,
    Duration,
    SkillChoice,
    SpellcardDraft,
    Targets,
    ToHit,
)

A, D, S = CardType.ATTACK, CardType.DEFENSIVE, CardType.SPECIAL


def card(name="Card", kind=A, **fields):
    return SpellcardDraft(name=name, type=kind, **fields)


def skill(slug, **params):
    return (SkillChoice.of(slug, **params),)


def caster(c, *, id="a", pos=(0, 0), speed=9, **kw):
    return fighter(id, pos, speed=speed, deck=[("x", c, 1)], hand=["x"], **kw)


def cast(state, targets=(), player="gm", **kw):
    return act_events(
        state,
        "use_spellcard",
        player=player,
        combatant="a",
        card="x",
        targets=[list(t) for t in targets],
        **kw,
    )


def test_a_card_costs_its_price_with_efficiency_and_is_discarded():
    """Spellcards: "Expend the marked amount of power and discard a spell card"; Efficiency:
    "All spell cards cost 10 less" (Single Target 10 + 3d 15 = 25, −10 = 15)."""
    a = caster(card(attack_power=AttackPower(3)), shot_type="magic_missile")
    state = battle(a, fighter("b", (1, 0), side="b"))
    option = next(o for o in legal_actions(state, "gm") if o["type"] == "use_spellcard")
    assert option["cost"] == 15
    with scripted(2, 2, 2, 1, 1, 1, 2):
        state, _ = cast(state, [(1, 0)])
    a = state.combatants["a"]
    assert (a.spell_power, a.deck.hand, a.deck.discard) == (62 - 15, (), ("x",))
    assert state.combatants["b"].hp == 94


def test_targets_must_be_different_squares_within_the_range_stat():
    """RULINGS 9: targets within the range stat (Manhattan); "The user chooses two spaces"."""
    a = caster(card(targets=Targets.TWO, attack_power=AttackPower(1)))
    state = battle(a, fighter("b", (4, 1), side="b"))
    with pytest.raises(IllegalAction, match="not a target"):
        cast(state, [(4, 1), (1, 0)])
    with pytest.raises(IllegalAction, match="2 different"):
        cast(state, [(1, 0), (1, 0)])
    with pytest.raises(IllegalAction, match="2 different"):
        cast(state, [(1, 0)])


def test_an_aoe_covers_every_square_within_n_of_the_target_and_hits_all_there():
    """Spellcards: "AOE 1 effects the target space and the four spaces adjacent to it"; damage
    is rolled once and each one in the area dodges against the caster's INT or PWR."""
    a = caster(card(aoe=1, attack_power=AttackPower(2)))
    state = battle(a, fighter("b", (2, 1), side="b"), fighter("c", (2, 2), side="b", speed=2))
    option = next(o for o in legal_actions(state, "gm") if o["type"] == "use_spellcard")
    assert len(option["area"]) == 5 and option["cost"] == 50
    with scripted(3, 3, 1, 1, 1, 2, 1, 1, 1, 2):
        state, events = cast(state, [(2, 1)])
    assert sorted(events_of(events, "spellcard")[0]["covered"]) == [
        [1, 1],
        [2, 0],
        [2, 1],
        [2, 2],
        [3, 1],
    ]
    assert (state.combatants["b"].hp, state.combatants["c"].hp) == (94, 94)
    assert len(events_of(events, "damage_roll")) == 1


def test_a_failed_to_hit_roll_means_the_card_does_not_hit():
    """To-Hit: "Roll against intelligence – A failed roll means the card does not hit
    regardless of the target's roll" (target 12, ruling)."""
    a = caster(card(to_hit=ToHit.ROLL_VS_INT, attack_power=AttackPower(2)))
    state = battle(a, fighter("b", (1, 0), side="b"))
    with scripted(2, 2, 2, 2):
        state, events = cast(state, [(1, 0)])
    assert events_of(events, "card_missed")
    assert state.combatants["b"].hp == 100
    assert state.combatants["a"].deck.discard == ("x",)


def test_the_dodge_difficulty_is_the_casters_higher_of_int_and_power():
    """Dodging for spellcards: "if the caster has a power of 10 and an intelligence of 15, then
    the base difficulty to dodge their spellcard would be 15"."""
    a = caster(card(attack_power=AttackPower(1)), stats={"pwr": 10, "int": 15})
    state = battle(a, fighter("b", (1, 0), side="b"))
    with scripted(3, 4, 4, 4, 3):
        _, events = cast(state, [(1, 0)])
    dodge = events_of(events, "roll")[0]["result"]
    assert (dodge["target"], dodge["total"], dodge["success"]) == (15, 15, False)


def test_a_three_round_card_triggers_three_times_then_dissipates():
    """Duration / RULINGS 10: "a 3 round spellcard would carry out its effects 3 times (first
    when it is cast, then again on the caster's next turn. Then, when the caster's turn comes
    around again the spellcard activates again and then dissipates)"."""
    a = caster(card(duration=Duration.SINGLE_SPACE_3, attack_power=AttackPower(1)), spell_power=100)
    state = battle(a, fighter("b", (1, 0), side="b"))
    with scripted(2, 1, 1, 1, 2, 2, 1, 1, 1, 2, 2, 1, 1, 1, 2):
        state, _ = cast(state, [(1, 0)])
        assert state.field_effects[0].triggers_left == 2
        state = act(state, "end_turn", combatant="a")
        state = act(state, "end_turn", combatant="b")
        assert state.field_effects[0].triggers_left == 1
        state = act(state, "end_turn", combatant="a")
        state = act(state, "end_turn", combatant="b")
    assert state.field_effects == []
    assert state.combatants["b"].hp == 94


def test_a_single_space_card_hits_whoever_stands_there_not_who_left():
    """Duration: a card that "stays on the same space" affects that space, not the character."""
    a = caster(card(duration=Duration.SINGLE_SPACE_2, attack_power=AttackPower(1)), spell_power=100)
    state = battle(a, fighter("b", (1, 0), side="b"))
    with scripted(2, 1, 1, 1, 2):
        state, _ = cast(state, [(1, 0)])
    state = act(state, "end_turn", combatant="a")
    state = act(state, "move", combatant="b", to=[3, 0])
    state = act(state, "end_turn", combatant="b")
    assert state.combatants["b"].hp == 98 and state.field_effects == []


def test_a_homing_card_follows_its_target_who_rolls_insight_each_turn():
    """Duration: homing cards follow a character; "that character gets an insight roll to avoid
    damage every turn the spellcard lasts"."""
    a = caster(card(duration=Duration.HOMING_2, attack_power=AttackPower(1)), spell_power=100)
    state = battle(a, fighter("b", (1, 0), side="b"))
    with scripted(2, 1, 1, 1, 2, 3, 1, 1, 1, 2):
        state, _ = cast(state, [(1, 0)])
        assert state.field_effects[0].follows == ("b",)
        state = act(state, "end_turn", combatant="a")
        state = act(state, "move", combatant="b", to=[4, 0])
        state, events = act_events(state, "end_turn", combatant="b")
    assert "dodge" in events_of(events, "roll")[0]["purpose"]
    assert state.combatants["b"].hp == 95


def test_a_bomb_is_a_reaction_that_cancels_the_hit_and_strikes_the_attacker():
    """Type: Bomb "can only be activated when the potential caster has been successfully hit
    ... cancels out any damage ... and targets the opponent who would have dealt damage";
    "twice the original cost" (20 minimum, ×2 = 40)."""
    bomb = card("Burst", bomb=True, attack_power=AttackPower(1))
    b = fighter("b", (1, 0), side="b", controller="p2", deck=[("burst", bomb, 1)], hand=["burst"])
    state = battle(fighter("a", (0, 0), speed=9), b)
    with pytest.raises(IllegalAction):
        act(state, "use_spellcard", combatant="b", card="burst", targets=[[0, 0]])
    with scripted(3, 3, 3, 3, 1, 1, 1, 2):
        state = act(state, "attack", combatant="a", attack="danmaku", target="b")
    options = legal_actions(state, "p2")
    assert [(o["choice"], o.get("card"), o.get("cost")) for o in options] == [
        ("take", None, None),
        ("bomb", "burst", 40),
    ]
    with scripted(4, 1, 1, 1, 2):
        state, _ = act_events(
            state, "react", player="p2", combatant="b", choice="bomb", card="burst"
        )
    b = state.combatants["b"]
    assert (b.hp, b.spell_power, b.meter, b.deck.discard) == (100, 10, 1, ("burst",))
    assert state.combatants["a"].hp == 96
    assert state.pending == []


def test_body_shield_lets_the_guardian_take_her_charges_damage():
    """Protection Skills: Body-shield "Used like a bomb, but only when the Guardian's charge
    would have taken damage ... the Guardian takes the damage her charge would have taken"."""
    shield = card("Body-shield", S, bomb=True, skills=skill("body_shield"))
    g = fighter(
        "g",
        (3, 3),
        side="b",
        controller="p3",
        deck=[("bs", shield, 1)],
        hand=["bs"],
        traits=("guardian",),
        speed=1,
    )
    g.profile = replace(g.profile, charge="b")
    state = battle(fighter("a", (0, 0), speed=9), fighter("b", (1, 0), side="b"), g)
    with scripted(3, 3, 3, 3, 1, 1, 1, 2):
        state = act(state, "attack", combatant="a", attack="danmaku", target="b")
    assert [o["choice"] for o in legal_actions(state, "p3")] == ["pass", "body_shield"]
    state = act(state, "react", player="p3", combatant="g", choice="body_shield", card="bs")
    assert (state.combatants["b"].hp, state.combatants["g"].hp) == (100, 88)
    # Body-shield "Cost: 20", its target in the printed cost (issue 9); "used like a bomb" by
    # default, so not doubled.
    assert state.combatants["g"].spell_power == 50 - 20


def test_healing_restores_hp_but_never_above_the_maximum():
    """Healing spellcards: "These spellcards restore HP to the target" (2d)."""
    heal = card("Heal", S, skills=skill("healing", dice=2))
    a = caster(heal, profession="shrine_maiden")
    state = battle(a, fighter("c", (1, 0), hp=100), fighter("b", (6, 6), side="b"))
    state.combatants["c"].hp = 50
    with scripted(3, 4):
        state, _ = cast(state, [(1, 0)])
    assert state.combatants["c"].hp == 57


def test_recover_removes_status_effects():
    """Healing spellcards: "Recover – Remove any status effects from the target"."""
    recover = card("Recover", S, skills=skill("recover"))
    state = battle(caster(recover), fighter("c", (1, 0)), fighter("b", (6, 6), side="b"))
    state = act(state, "gm_add_status", combatant="c", status="blind", turns=3)
    state, _ = cast(state, [(1, 0)])
    assert state.combatants["c"].effects == []


def test_shield_halves_the_damage_to_the_charge_until_the_casters_next_turn():
    """Defender: Shield "The Guardian's charge takes half damage from all attacks for the
    duration of this card" (instantaneous: until the caster's next turn, ruling)."""
    a = caster(card("Shield", S, skills=skill("shield")), traits=("guardian",))
    a.profile = replace(a.profile, charge="c")
    state = battle(a, fighter("c", (1, 1)), fighter("b", (2, 1), side="b", speed=5))
    state, _ = cast(state)
    assert state.combatants["c"].has("shield")
    state = act(state, "end_turn", combatant="a")
    with scripted(3, 3, 3, 3, 1, 1, 1, 2):
        state = act(state, "attack", combatant="b", attack="danmaku", target="c")
    assert state.combatants["c"].hp == 94
    state = act(state, "end_turn", combatant="b")
    state = act(state, "end_turn", combatant="c")
    assert not state.combatants["c"].has("shield")


def test_sturdy_raises_maximum_hp_for_its_duration():
    """Training: Sturdy "+50 maximum HP for the duration of this card" (ruling: current HP
    rises with it and is capped again when it ends)."""
    a = caster(card("Sturdy", S, targets=Targets.SELF, skills=skill("sturdy")))
    state = battle(a, fighter("b", (6, 6), side="b"))
    state, _ = cast(state)
    assert state.combatants["a"].hp == 150
    state = act(state, "end_turn", combatant="a")
    state = act(state, "end_turn", combatant="b")
    assert state.combatants["a"].hp == 100


def test_read_a_book_adds_six_intelligence_for_three_turns():
    """Study: Read a book "+6 intelligence for the next 3 turns" (INT 18: 6 danmaku dice)."""
    a = caster(card("Read", S, targets=None, skills=skill("read_a_book")), spell_power=100)
    state = battle(a, fighter("b", (1, 0), side="b"))
    state, _ = cast(state)
    with scripted(1, 1, 1, 1, 1, 1, 4, 4, 4, 4):
        _, events = act_events(state, "attack", combatant="a", attack="danmaku", target="b")
    assert events_of(events, "damage_roll")[0]["roll"]["notation"] == "6d"
    for _ in range(3):
        state = act(state, "end_turn", combatant="a")
        assert state.combatants["a"].has("stat")
        state = act(state, "end_turn", combatant="b")
    state = act(state, "end_turn", combatant="a")
    assert not state.combatants["a"].has("stat")


def test_stay_still_stuns_without_a_save():
    """Impulse: Stay still! "The target ... becomes stunned for 1-turn. This stun cannot be
    avoided unless the target is immune"."""
    a = caster(card("Stay still!", S, targets=None, skills=skill("stay_still")))
    state = battle(a, fighter("b", (2, 0), side="b"))
    state, events = cast(state, [(2, 0)])
    assert events_of(events, "roll") == []
    assert state.combatants["b"].has("stun")


def test_die_rolls_ten_dice_that_cannot_be_dodged():
    """Impulse: DIE. "Roll 10d damage immediately. Your target takes this damage immediately
    with no chance to dodge."""
    a = caster(card("DIE.", S, targets=None, skills=skill("die")), spell_power=200)
    state = battle(a, fighter("b", (2, 0), side="b"))
    with scripted(*[1] * 10):
        state, events = cast(state, [(2, 0)])
    assert state.combatants["b"].hp == 90
    assert not [e for e in events if e["type"] == "roll"]


def test_i_wanna_be_over_there_moves_without_an_action():
    """Impulse: "Choose a space within 2x your speed. You are now on that space ... activating
    it does not cost an action."""
    a = caster(card("Over there", S, targets=None, skills=skill("i_wanna_be_over_there")), speed=3)
    state = battle(a, fighter("b", (7, 7), side="b", speed=1))
    option = next(o for o in legal_actions(state, "gm") if o["type"] == "use_spellcard")
    assert option["free"] and option["targeting"]["range"] == 6
    state, _ = cast(state, [(3, 3)])
    assert state.combatants["a"].position == (3, 3)
    assert state.combatants["a"].actions_left == 2


def test_power_transfer_gives_an_amount_to_a_target_in_range():
    """Other Stuff: Power Transfer "The target gains this amount of spellpower and the Guardian
    loses this amount"."""
    a = caster(card("Give", S, skills=skill("power_transfer")))
    state = battle(a, fighter("c", (2, 0)), fighter("b", (7, 7), side="b"))
    option = next(o for o in legal_actions(state, "gm") if o["type"] == "use_spellcard")
    assert option["amount"] == {"min": 1, "max": 62 - 20}  # Power Transfer "Cost: 20"
    with pytest.raises(IllegalAction, match="amount"):
        cast(state, [(2, 0)], amount=50)
    state, _ = cast(state, [(2, 0)], amount=40)
    assert (state.combatants["a"].spell_power, state.combatants["c"].spell_power) == (2, 90)


def test_taunt_forces_the_target_to_attack_the_guardian():
    """Other Stuff: Taunt "Those effected must make a will save. If they fail, they will do
    everything in their power to attack the Guardian on their next turn"."""
    a = caster(card("Taunt", S, skills=skill("taunt")))
    state = battle(a, fighter("c", (0, 1)), fighter("b", (1, 0), side="b", speed=5))
    with scripted(1, 1, 1, 2):
        state, _ = cast(state, [(1, 0)])
    state = act(state, "end_turn", combatant="a")
    options = legal_actions(state, "gm")
    kinds = {o["type"] for o in options}
    assert kinds <= {"attack", "move", "end_turn"}
    assert all(o["targets"] == ["a"] for o in options if o["type"] == "attack")
    with pytest.raises(IllegalAction):
        act(state, "attack", combatant="b", attack="danmaku", target="c")


def test_divine_fire_burns_three_squares_at_the_start_of_the_casters_turns():
    """Divine Wrath: Divine Fire "Choose 3 spaces within your range. These spaces catch on fire
    for the next 3 turns, dealing damage to anypony who is on them when your turn begins"."""
    fire = card("Fire", S, targets=None, attack_power=AttackPower(1), skills=skill("divine_fire"))
    a = caster(fire, spell_power=100)
    state = battle(a, fighter("b", (2, 0), side="b"))
    state, events = cast(state, [(2, 0), (3, 0), (2, 1)])
    assert events_of(events, "damage_roll") == []
    state = act(state, "end_turn", combatant="a")
    with scripted(3, 1, 1, 1, 2):
        state = act(state, "end_turn", combatant="b")
    assert state.combatants["b"].hp == 97
    assert state.field_effects[0].triggers_left == 2


def test_have_a_drink_raises_drunkenness_and_a_drunk_target_rolls_to_stay_conscious():
    """Drinking Skills: Have a drink! "Target immediately goes up one level"; Drinking: at drunk
    "Make a roll against your charisma" (−2) or fall unconscious."""
    a = caster(card("Drink!", S, targets=None, skills=skill("have_a_drink")))
    b = fighter("b", (2, 0), side="b")
    b.drunkenness = "tipsy"
    state = battle(a, b, fighter("c", (7, 7), side="b", speed=1))
    with scripted(1, 1, 1, 2):
        state, events = cast(state, [(2, 0)])
    b = state.combatants["b"]
    assert b.drunkenness == "drunk"
    assert b.has("unconscious")
    assert events_of(events, "roll")[0]["modifiers"] == [{"label": "Drink", "amount": -2}]
