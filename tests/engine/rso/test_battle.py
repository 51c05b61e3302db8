"""The Battle phase and the basic abilities (rulebook rumbling-spell-orchestra-gameplay.txt,
"Battle Phase" lines 180-204, "Basic Abilities" lines 272-284, "Ability Stacking" 258-260)."""

from __future__ import annotations

import pytest

from minigames.engines.rso import ENGINE
from minigames.engines.rso.battle import battle_damage, evasion_bonus, faith_threshold, hit_result
from tests.engine.rso.helpers import character, deck, pass_window, put, spell, started, texts


def battle_game(p1_spell, p2_spell, *, p1=None, p2=None, cards=()):
    """Player 1 (seat 0) attacks with ``p1_spell``; Player 2 (seat 1) may intercept with
    ``p2_spell``. Both spells are Active; we stand at the attack declaration."""
    p1 = p1 or character("T-P1", "Pia", ev=3, bv=2)
    p2 = p2 or character("T-P2", "Quin", ev=2, bv=2)
    extra = [p1, p2, p1_spell, *([p2_spell] if p2_spell else []), *cards]
    decks = [
        deck([p1["number"]] * 4, {p1_spell["number"]: 1}),
        deck([p2["number"]] * 4, {p2_spell["number"]: 1} if p2_spell else {}),
    ]
    state = started(extra, first=0, decks=decks)
    x = put(state, 0, p1_spell["number"], "active")
    y = put(state, 1, p2_spell["number"], "active") if p2_spell else None
    state, _ = pass_window(state)  # Replenish plays: both pass
    assert state["phase"] == "battle" and state["step"] == "declare"
    return state, x, y


def fight(state, x, y, *, border=None):
    state, _ = ENGINE.apply(state, 0, {"type": "attack", "spell": x})
    if y:
        state, _ = ENGINE.apply(state, 1, {"type": "intercept", "spell": y})
    else:
        state, _ = ENGINE.apply(state, 1, {"type": "no_intercept"})
    state, events = pass_window(state)
    while state["step"] == "border":
        seat = ENGINE.waiting_on(state)[0]
        state, more = ENGINE.apply(state, seat, {"type": border or "take_hit"})
        events += more
    return state, events


def test_worked_example_first_half_hv_above_ev_hits_for_the_attack_value():
    """Line 196: Player 1's spell HV 3 against Player 2's EV 2: hit, Player 2 loses 3 HP (AV)."""
    x = spell("T-X", "Example Shot A", av=3, iv=1, hv=3)
    y = spell("T-Y", "Example Shot B", av=1, iv=2, hv=3)
    state, xi, yi = battle_game(x, y)
    p2_hp = state["players"][1]["hp"]
    state["players"][0]["sp"] = 0  # Player 1 cannot pay her Border Value
    state, events = fight(state, xi, yi)
    assert state["players"][1]["hp"] == p2_hp - 3
    assert "HV 3 against EV 2" in texts(events)


def test_worked_example_second_half_border_value_paid_or_not():
    """Line 198: Player 2's HV 3 against Player 1's EV 3: the Border Value decides; paying
    escapes, not paying loses 2 HP (the IV of Player 2's spell)."""
    x = spell("T-X", "Example Shot A", av=3, iv=1, hv=3)
    y = spell("T-Y", "Example Shot B", av=1, iv=2, hv=3)
    for choice, loss, sp_spent in (("pay_border", 0, 2), ("take_hit", 2, 0)):
        state, xi, yi = battle_game(x, y)
        state["players"][0]["sp"] = 5
        hp = state["players"][0]["hp"]
        state, _ = ENGINE.apply(state, 0, {"type": "attack", "spell": xi})
        state, _ = ENGINE.apply(state, 1, {"type": "intercept", "spell": yi})
        state, _ = pass_window(state)
        assert state["step"] == "border" and ENGINE.waiting_on(state) == (0,)
        assert ENGINE.legal_actions(state, 0) == [{"type": "pay_border"}, {"type": "take_hit"}]
        state, _ = ENGINE.apply(state, 0, {"type": choice})
        assert state["players"][0]["hp"] == hp - loss
        assert state["players"][0]["sp"] == 5 - sp_spent


def test_border_value_unaffordable_means_hit_without_asking():
    """Line 188: if she cannot pay enough SP, her leader is hit."""
    x = spell("T-X", "Example Shot A", av=3, iv=1, hv=3)
    y = spell("T-Y", "Example Shot B", av=1, iv=2, hv=3)
    state, xi, yi = battle_game(x, y)
    state["players"][0]["sp"] = 1  # Border Value 2
    hp = state["players"][0]["hp"]
    state, _ = fight(state, xi, yi)
    assert state["phase"] == "preparation"
    assert state["players"][0]["hp"] == hp - 2


def test_hit_spells_go_back_to_reserve_and_missed_ones_stay_active():
    """Line 202 (and 95): a spell whose user is hit goes to the Reserve, even for 0 damage."""
    x = spell("T-X", "Example Shot A", av=3, iv=0, hv=9)
    y = spell("T-Y", "Example Shot B", av=1, iv=0, hv=9)
    state, xi, yi = battle_game(x, y)
    hp0 = state["players"][0]["hp"]
    state, _ = fight(state, xi, yi)
    # Both are hit: Player 1 takes IV 0 damage and still loses her spell to the Reserve.
    assert state["players"][0]["hp"] == hp0
    assert xi in state["players"][0]["reserve"] and yi in state["players"][1]["reserve"]
    x2 = spell("T-X", "Example Shot A", av=3, iv=0, hv=9)
    y2 = spell("T-Y", "Example Shot B", av=1, iv=0, hv=0)
    state, xi, yi = battle_game(x2, y2)
    state, _ = fight(state, xi, yi)
    assert xi in state["players"][0]["active"]
    assert yi in state["players"][1]["reserve"]


def test_zero_or_negative_power_hits_without_damage():
    """Line 200: AV/IV 0 or below: hit, but no damage."""
    assert battle_damage(0) == 0
    assert battle_damage(-2) == 0
    assert battle_damage(1, protection=3) == 0


def test_attack_without_intercept_and_no_attack():
    """Line 180: Player 2 may decline to intercept; Player 1 may decline to attack."""
    x = spell("T-X", "Example Shot A", av=4, iv=1, hv=5)
    state, xi, _ = battle_game(x, None)
    hp1 = state["players"][1]["hp"]
    state, _ = fight(state, xi, None)
    assert state["players"][1]["hp"] == hp1 - 4
    state, xi, _ = battle_game(x, None)
    assert {"type": "no_attack"} in ENGINE.legal_actions(state, 0)
    # the public summary names whoever must move: the attacker, then the one who may intercept
    assert str(ENGINE.summary(state)) == "Turn 1, Battle phase: Player A attacks."
    attacked, _ = ENGINE.apply(state, 0, {"type": "attack", "spell": xi})
    assert ENGINE.waiting_on(attacked) == (1,)
    assert (
        str(ENGINE.summary(attacked))
        == "Turn 1, Battle phase: Player A attacks; Player B to answer."
    )
    state, _ = ENGINE.apply(state, 0, {"type": "no_attack"})
    assert state["phase"] == "preparation"


def test_only_active_spells_attack():
    """Line 180: she chooses one of her Active spells; a Reserve spell cannot attack."""
    x = spell("T-X", "Example Shot A")
    state, xi, _ = battle_game(x, None)
    state["players"][0]["active"].remove(xi)
    state["players"][0]["reserve"].append(xi)
    assert ENGINE.legal_actions(state, 0) == [{"type": "no_attack"}]


@pytest.mark.parametrize(
    ("own", "shot", "incoming", "bonus"),
    [
        ({"focused": 1}, "spread", {}, 1),  # line 276
        ({"focused": 1}, "concentration", {}, 0),
        ({"unfocused": 2}, "concentration", {}, 2),  # line 274
        ({"unfocused": 2}, "spread", {}, 0),
        ({"focused": 1, "unfocused": 1}, "normal", {}, 0),
        ({"focused": 3}, "spread", {"guided": 1}, 0),  # line 280: Guided Bullets
    ],
)
def test_movement_and_guided_bullets(own, shot, incoming, bonus):
    assert evasion_bonus(own, shot, incoming) == bonus


def test_protection_and_penetration():
    """Line 278: Protection (X) gives AV/IV -X; line 282: Penetration ignores it."""
    assert battle_damage(4, protection=1) == 3
    assert battle_damage(4, protection=1, penetration=True) == 4


def test_faith_worked_example():
    """Line 284: my Faith (3) against the opponent's Faith (1): damage of 2 or less is ignored,
    3 or more is taken in full."""
    assert faith_threshold(3, 1) == 2
    assert battle_damage(2, faith=3, opposing_faith=1) == 0
    assert battle_damage(1, faith=3, opposing_faith=1) == 0
    assert battle_damage(3, faith=3, opposing_faith=1) == 3
    assert battle_damage(5, faith=3, opposing_faith=1) == 5
    # Without the opposing Faith, Faith (3) ignores 3 or less (line 284's first sentence).
    assert battle_damage(3, faith=3) == 0
    assert battle_damage(4, faith=3) == 4


def test_faith_in_a_real_battle():
    """Line 101/284: Faith on the intercepting spell cancels the attacker's small damage."""
    x = spell("T-X", "Example Shot A", av=2, iv=0, hv=9, basic={"faith": 1})
    y = spell("T-Y", "Example Shot B", av=0, iv=0, hv=0, basic={"faith": 3})
    state, xi, yi = battle_game(x, y)
    hp = state["players"][1]["hp"]
    state, events = fight(state, xi, yi)
    assert state["players"][1]["hp"] == hp  # 2 damage <= 3 - 1
    assert "loses 0 HP" in texts(events)
    x3 = spell("T-X", "Example Shot A", av=3, iv=0, hv=9, basic={"faith": 1})
    state, xi, yi = battle_game(x3, y)
    state, _ = fight(state, xi, yi)
    assert state["players"][1]["hp"] == hp - 3


def test_a_leader_at_0_hp_loses_before_a_hit_trigger_can_heal_her():
    """Line 61: "you lose the game when your Leader's HP drops to 0 or less": the loss is
    checked as the battle's damage lands, before any hit trigger. Player 1 is hit down to
    0 HP while her own spell hits too; its hit trigger would heal her 5, but she has lost."""
    heal = {"kind": "trigger", "when": "hit", "target": "own_leader"}
    heal["effects"] = [{"do": "heal", "amount": 5}]
    x = spell("T-X", "Example Shot A", av=3, iv=0, hv=9, abilities=[heal])
    y = spell("T-Y", "Example Shot B", av=0, iv=20, hv=9)
    state, xi, yi = battle_game(x, y)
    state, events = fight(state, xi, yi)
    assert state["players"][0]["hp"] == 0
    assert ENGINE.is_terminal(state) and ENGINE.returns(state) == [-1.0, 1.0]
    assert "recovers" not in texts(events)


def test_hit_value_comparison():
    """Lines 184-188: greater hits, less misses, equal goes to the Border Value."""
    assert hit_result(4, 3) == "hit"
    assert hit_result(2, 3) == "miss"
    assert hit_result(3, 3) == "tie"


def test_focused_movement_in_battle_and_stacking():
    """Lines 258-260: a granted Focused Movement (1) adds to the spell's own: (2). Reimu's
    Special grants it during the battle; the Spread attack then misses."""
    reimu = "RSO-001"
    x = spell("T-X", "Example Shot A", av=3, iv=0, hv=4, shot="spread")
    y = spell("T-Y", "Example Shot B", av=0, iv=0, hv=0, basic={"focused": 1})
    p2 = character("T-P2", "Reimu", ev=1, bv=9)
    # Bram's deck uses the starter Reimu card as Leader (her Special is the grant).
    decks_p2 = deck([reimu] * 4, {"T-Y": 1})
    state = started(
        [x, y, p2, character("T-P1", "Pia")],
        first=0,
        decks=[deck(["T-P1"] * 4, {"T-X": 1}), decks_p2],
    )
    xi = put(state, 0, "T-X", "active")
    yi = put(state, 1, "T-Y", "active")
    state["players"][1]["sp"] = 3
    state, _ = pass_window(state)
    state, _ = ENGINE.apply(state, 0, {"type": "attack", "spell": xi})
    state, _ = ENGINE.apply(state, 1, {"type": "intercept", "spell": yi})
    state, _ = ENGINE.apply(state, 0, {"type": "pass"})
    lead = state["players"][1]["leader"]
    special = {"type": "use_special", "card": lead, "ability": 0, "target": yi}
    assert special in ENGINE.legal_actions(state, 1)
    state, _ = ENGINE.apply(state, 1, special)
    from minigames.engines.rso.state import spell_stats

    assert spell_stats(state, yi)["basic"]["focused"] == 2
    hp = state["players"][1]["hp"]
    state, events = pass_window(state)
    # Reimu's EV 3 + Focused 2 = 5 against HV 4: evaded.
    assert state["players"][1]["hp"] == hp
    assert "evades (HV 4 against EV 5)" in texts(events)
