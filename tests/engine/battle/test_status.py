"""Status effects, wounds and death ("Status Effects", "Death and Dying", races' Hardy and
Short-term Memory). Stats are 12 everywhere: checks roll 4d, will is 12 (4d)."""

from __future__ import annotations

from dataclasses import replace

from tests.engine.battle.helpers import act, act_events, battle, events_of, fighter, scripted
from westernroses.battle import legal_actions
from westernroses.battle.arena import manhattan


def three(b=None, **kw):
    """a (fast) at (0,0), b at (3,0), and c, b's slow ally, far away so the battle goes on."""
    return battle(
        fighter("a", (0, 0), speed=9),
        b or fighter("b", (3, 0), side="b", **kw),
        fighter("c", (7, 7), side="b", speed=1),
    )


def pass_round(state):
    """a and c end their turns (b's turn is lost or handled by the caller)."""
    for cid in ("a", "c"):
        if state.current == cid:
            state = act(state, "end_turn", combatant=cid)
    return state


def test_blind_is_minus_six_to_to_hit_rolls_but_not_to_danmaku():
    """Blind: "-6 to all to-hit rolls. Standard danmaku (and other guaranteed hit attacks) are
    not effected by this penalty."""
    state = battle(fighter("a", (0, 0), speed=9), fighter("b", (1, 0), side="b"))
    state = act(state, "gm_add_status", combatant="a", status="blind", turns=1)
    with scripted(4, 4, 4, 4, 4, 4, 4, 4):  # 16 - 6 = 10 against 16: a miss
        _, events = act_events(state, "attack", combatant="a", attack="bare_fists", target="b")
    mods = events_of(events, "versus")[0]["modifiers"]["a"]
    assert {"label": "Blind", "amount": -6} in mods
    with scripted(1, 1, 1, 2, 1, 1, 1, 2):
        _, events = act_events(state, "attack", combatant="a", attack="danmaku", target="b")
    assert "Blind" not in str(events)


def test_fear_makes_her_flee_then_faint_after_two_failures_in_a_row():
    """Fear: a will roll, "if failed ... must make a will check at the beginning of each turn
    ... she must run as far as she can from the source of her fear taking no other actions ...
    On two consecutive failures, the character faints"; fear drops drink to sober."""
    b = fighter("b", (3, 0), side="b")
    b.drunkenness = "tipsy"
    state = three(b)
    with scripted(1, 1, 1, 2):
        state = act(state, "gm_add_status", combatant="b", status="fear", source="a", save=True)
    assert state.combatants["b"].drunkenness == "sober"
    with scripted(2, 2, 2, 2):
        state = act(state, "end_turn", combatant="a")
    options = legal_actions(state, "gm")
    assert {o["type"] for o in options} == {"move", "end_turn"}
    reach = next(o for o in options if o["type"] == "move")["reach"]
    distances = {manhattan(tuple(r["square"]), (0, 0)) for r in reach}
    assert len(distances) == 1 and distances.pop() > 3
    state = act(state, "end_turn", combatant="b")
    state = pass_round(state)
    with scripted(2, 2, 2, 2):
        state = act(state, "end_turn", combatant="a")
    assert state.combatants["b"].has("unconscious")


def test_a_critical_failure_paralyses_the_terrified():
    """Fear: "On a critical failure, the character is paralyzed in place, doing nothing."""
    state = three()
    state = act(state, "gm_add_status", combatant="b", status="fear", source="a")
    with scripted(1, 1, 1, 1):
        state, events = act_events(state, "end_turn", combatant="a")
    assert events_of(events, "turn_lost")[0]["reason"] == "paralysed by fear"
    assert state.current == "c"


def test_knockdown_costs_the_next_turn_and_2d_but_not_the_spell_power():
    """Knockdown: "must make a charisma save or else hits the ground on her next turn, losing
    all her actions for that turn ... taking 2d damage ... still gains spell power"."""
    state = three()
    with scripted(1, 1, 1, 2):
        state = act(state, "gm_add_status", combatant="b", status="knockdown", save=True)
    with scripted(3, 4):
        state = act(state, "end_turn", combatant="a")
    b = state.combatants["b"]
    assert (b.hp, b.spell_power, state.current) == (93, 62, "c")
    assert b.has("returning")


def test_knockback_moves_her_one_square_away_from_the_attacker():
    """Knockback: "moved one space in a straight line away from the attacker"."""
    state = three()
    state = act(state, "gm_add_status", combatant="b", status="knockback", source="a")
    assert state.combatants["b"].position == (4, 0)


def test_freeze_needs_a_power_roll_and_then_two_more_turns_to_thaw():
    """Freeze: "cannot act and must roll against her power every turn in order to thaw. After a
    successful roll has been made, she loses her next 2 turns while she thaws."""
    state = three()
    state = act(state, "gm_add_status", combatant="b", status="freeze")
    with scripted(1, 1, 1, 2):
        state = act(state, "end_turn", combatant="a")  # b: fails to thaw
    state = pass_round(state)
    with scripted(5, 5, 5, 5):
        state = act(state, "end_turn", combatant="a")  # b: thaws, turn lost
    assert state.combatants["b"].has("thawing")
    for _ in range(2):  # "she loses her next 2 turns while she thaws"
        state = act(state, "end_turn", combatant="c")
        state = act(state, "end_turn", combatant="a")
        assert state.current == "c"
    state = act(state, "end_turn", combatant="c")
    state = act(state, "end_turn", combatant="a")
    assert state.current == "b" and state.combatants["b"].actions_left == 2


def test_insanity_may_bring_berserk_and_an_insight_roll_each_turn_ends_it():
    """Insanity: "When a character first gains insanity she must make a roll against her
    insight ... A failed roll means she is berserking as long as she remains insane"; "must
    roll against her insight at the beginning of each of her turns to return to reality"."""
    state = three()
    with scripted(1, 1, 1, 2):
        state = act(state, "gm_add_status", combatant="b", status="insanity")
    assert state.combatants["b"].has("berserk")
    with scripted(5, 5, 5, 5):
        state = act(state, "end_turn", combatant="a")
    b = state.combatants["b"]
    assert not b.has("insanity") and not b.has("berserk")


def test_a_berserk_attacks_the_nearest_character_friend_or_foe():
    """Berserk: "attacks the nearest character to her regardless of ... affiliation"."""
    state = battle(
        fighter("a", (0, 0), speed=9),
        fighter("b", (4, 0), side="b"),
        fighter("c", (4, 1), side="b", speed=1),
    )
    state = act(state, "gm_add_status", combatant="b", status="berserk", turns=2)
    state = act(state, "end_turn", combatant="a")
    options = legal_actions(state, "gm")
    assert {o["type"] for o in options} == {"attack", "end_turn"}
    assert all(o["targets"] == ["c"] for o in options if o["type"] == "attack")


def test_hardy_adds_two_to_saves_against_status_effects():
    """Youkai Hardy: "+2 to all rolls to avoid status effects such as freeze, stun, etc."."""
    b = fighter("b", (3, 0), side="b")
    b.profile = replace(b.profile, status_resistance=2)
    state = three(b)
    with scripted(3, 3, 3, 3):
        state, events = act_events(state, "gm_add_status", combatant="b", status="stun", save=True)
    roll = events_of(events, "roll")[0]
    assert {"label": "Hardy", "amount": 2} in roll["modifiers"]
    assert roll["result"]["total"] == 14 and not state.combatants["b"].has("stun")


def test_a_fairy_holds_her_damage_until_her_turn_and_may_forget_it():
    """Fairies: Short-term Memory "do not apply that damage. When your next turn comes around,
    roll a d6. On a 1 or 2 you forget ... Otherwise, take all the damage"."""
    for die, hp in ((2, 100), (3, 88)):
        state = three(traits=("short_term_memory",))
        with scripted(3, 3, 3, 3, 1, 1, 1, 2):
            state = act(state, "attack", combatant="a", attack="danmaku", target="b")
        b = state.combatants["b"]
        assert (b.hp, b.memory, b.meter) == (100, 12, 3)
        with scripted(die):
            state = act(state, "end_turn", combatant="a")
        assert (state.combatants["b"].hp, state.combatants["b"].memory) == (hp, 0)


def test_mortal_wounds_call_for_a_will_check_and_each_turn_after():
    """Mortal Wounds: "Once your HP drops below ¼ of your max ... you must make a will check
    ... You must make this roll at the beginning of each of your turns following this"."""
    state = three(hp=100)
    state.combatants["b"].hp = 30
    with scripted(3, 3, 3, 3, 1, 1, 1, 2, 5, 5, 5, 5):
        state, events = act_events(state, "attack", combatant="a", attack="danmaku", target="b")
    assert events_of(events, "mortally_wounded")[0]["below"] == 25
    with scripted(1, 1, 1, 2):
        state = act(state, "end_turn", combatant="a")
    b = state.combatants["b"]
    assert b.has("unconscious") and b.spell_power == 0
    assert state.drops[0].amount == 62


def test_unconscious_for_five_rounds_then_charisma_rolls_to_wake():
    """Unconsciousness: "unable to act for five full rounds. On your sixth turn after falling
    unconscious, make a roll against your charisma on each of your turns"."""
    state = three()
    state = act(state, "gm_add_status", combatant="b", status="unconscious")
    for _ in range(5):  # her turns 1-5 pass
        state = act(state, "end_turn", combatant="a")
        assert state.current == "c"
        state = act(state, "end_turn", combatant="c")
    with scripted(1, 1, 1, 2):  # sixth turn: the charisma roll fails
        state = act(state, "end_turn", combatant="a")
    assert state.current == "c"
    state = act(state, "end_turn", combatant="c")
    with scripted(5, 5, 5, 5):  # seventh turn: she wakes up
        state = act(state, "end_turn", combatant="a")
    assert state.current == "b" and not state.combatants["b"].has("unconscious")


def test_healing_above_the_mortal_wound_level_wakes_her_at_once():
    """Unconsciousness: "If you are healed above your mortally wounded level while unconscious
    you regain consciousness immediately."""
    state = three()
    state.combatants["b"].hp = 10
    state = act(state, "gm_add_status", combatant="b", status="unconscious")
    state = act(state, "gm_adjust", combatant="b", hp=20)
    assert not state.combatants["b"].has("unconscious")


def test_death_below_zero_and_utter_destruction_at_minus_100():
    """Death: "You die when your HP drops below 0"; Utter Destruction: "At -100 your body is
    completely and utterly destroyed"; "You cannot be healed once you are dead"."""
    state = three()
    state = act(state, "gm_adjust", combatant="b", hp=-100)
    assert (state.combatants["b"].hp, state.combatants["b"].life) == (0, "alive")
    state = act(state, "gm_adjust", combatant="b", hp=-1)
    assert state.combatants["b"].life == "dead"
    state = act(state, "gm_adjust", combatant="b", hp=-99)
    assert state.combatants["b"].life == "destroyed"


def test_a_stun_counts_the_stunned_combatants_own_turns_whatever_the_order_does():
    """Timers follow the affected combatant's own turns, so a combatant joining or leaving the
    order does not shorten or stretch a 2-turn stun."""
    state = three()
    state = act(state, "gm_add_status", combatant="b", status="stun", turns=2)
    state = act(state, "end_turn", combatant="a")
    newcomer = fighter("d", (6, 0), side="b", speed=5)
    state = act(state, "gm_add_combatant", combatant=newcomer.to_dict())
    state = act(state, "gm_remove_combatant", combatant="c")
    assert state.order == ["a", "d", "b"]
    assert state.combatants["b"].has("stun")
    state = act(state, "end_turn", combatant="a")
    state = act(state, "end_turn", combatant="d")
    assert state.current == "a" and not state.combatants["b"].has("stun")
    state = act(state, "end_turn", combatant="a")
    state = act(state, "end_turn", combatant="d")
    assert state.current == "b"
