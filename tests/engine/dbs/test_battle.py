"""The Battle phase (rulebook §六 ④, RULES lines 60-68; footnote 1 of the source for the
declaration conditions)."""

from __future__ import annotations

from minigames.engines.dbs import ENGINE

from .helpers import act, call, clear_hand, give, kinds, opened, set_item, texts, to_battle


def battle_ready(**kwargs):
    """Seat 0 (Reimu, Support) in her Battle phase; seat 1 (Youmu, Support) with an empty hand
    and Item Area, so every answer must come from what a test gives her."""
    state = opened(**kwargs)
    clear_hand(state, 0)
    clear_hand(state, 1)
    return to_battle(state)


def test_declaring_pays_and_always_opens_the_defenders_window():
    """RULES line 63: the attacker pays and puts the card into the Duel Zone; the defender may
    answer. The window opens even when she holds nothing (the pause reveals nothing)."""
    state = battle_ready()
    drizzle = give(state, 0, "DBS-102")
    state, events = act(state, 0, "declare", "DBS-102")
    assert state["players"][0]["beads"] == ["empty", "full", "full", "full", "full"]
    assert state["clash"]["attack"] == drizzle
    assert state["phase"] == "reaction"
    assert ENGINE.waiting_on(state) == (1,)
    assert ENGINE.legal_actions(state, 1) == [{"type": "no_counter"}]
    assert ENGINE.legal_actions(state, 0) == []
    assert ENGINE.timeout_action(state, 1) == {"type": "no_counter"}
    assert "Player 1 declares Needle Drizzle (Level 2, attack 1600)." in texts(events)


def test_an_unanswered_attack_deals_its_attack_and_goes_onto_the_spell_chain():
    """RULES line 64: damage equal to the difference (against nothing: the whole attack), and
    the card goes on top of its owner's Spell Chain (a hit)."""
    state = battle_ready()
    drizzle = give(state, 0, "DBS-102")
    state, _ = act(state, 0, "declare", "DBS-102")
    state, events = act(state, 1, "no_counter")
    assert state["players"][1]["lp"] == 10000 - 1600
    assert state["players"][0]["chain"] == [drizzle]
    assert state["phase"] == "battle" and state["clash"] is None
    assert "Player 2 takes 1600 damage (LP 8400)" in texts(events)
    # in words: nothing was beaten, so the log says no counter came rather than "beats 0"
    assert "Needle Drizzle (1600) is not countered: Player 2 takes 1600" in texts(events)


def test_a_weaker_counter_attack_takes_the_difference_and_goes_to_the_grave():
    """RULES line 64: damage = attacker's attack - defender's; the defender's card to the grave.
    Youmu's Support skill gives her own Spellcards +300 when counter-attacking."""
    state = battle_ready()
    seal = give(state, 0, "DBS-103")  # 2200, Level 3, on a hit breaks a bead
    cut = give(state, 1, "DBS-116")  # 1200 + 300 = 1500
    state, _ = act(state, 0, "declare", "DBS-103")
    state, _ = act(state, 1, "counter", "DBS-116")
    assert state["players"][1]["lp"] == 10000 - 700
    assert state["players"][0]["chain"] == [seal]
    assert state["players"][1]["grave"][-1] == cut
    # the hit's own effect: one of the defender's beads breaks (a full one first)
    assert state["players"][1]["beads"].count("broken") == 1


def test_a_tie_or_a_stronger_counter_sends_both_to_the_grave():
    """RULES lines 65-66: attack less than or equal to the defender's: both to the grave."""
    state = battle_ready()
    call(state, 1, "DBS-003")  # Sakuya in play for seat 1
    charm = give(state, 0, "DBS-101")  # 1000
    knives = give(state, 1, "DBS-111")  # 1000: a tie
    state, _ = act(state, 0, "declare", "DBS-101")
    state, events = act(state, 1, "counter", "DBS-111")
    assert state["players"][1]["lp"] == 10000
    assert state["players"][0]["chain"] == []
    assert charm in state["players"][0]["grave"] and knives in state["players"][1]["grave"]
    assert "does not beat" in texts(events)


def test_the_attacker_may_attack_again_until_she_ends_the_turn():
    """RULES line 68: repeat attacks without limit while conditions permit."""
    state = battle_ready()
    for number in ("DBS-101", "DBS-102", "DBS-103"):
        give(state, 0, number)
    for number in ("DBS-101", "DBS-102", "DBS-103"):
        state, _ = act(state, 0, "declare", number)
        state, _ = act(state, 1, "no_counter")
    assert state["players"][1]["lp"] == 10000 - 1000 - 1600 - 2200
    assert len(state["players"][0]["chain"]) == 3
    state, _ = act(state, 0, "end_turn")
    assert state["active"] == 1


def test_the_attackers_level_must_reach_her_spell_chains_top_but_the_defenders_need_not():
    """Source footnote 1 (the Chinese text decides: Level greater than or equal to the top of
    the attacker's Spell Chain); RULES line 63: the defender is spared the Level rule."""
    state = battle_ready()
    give(state, 0, "DBS-103", "chain")  # Level 3 on top
    low = give(state, 0, "DBS-102")  # Level 2
    same = give(state, 0, "DBS-103")  # Level 3
    declarable = [a["card"] for a in ENGINE.legal_actions(state, 0) if a["type"] == "declare"]
    assert declarable == [same]
    assert low not in declarable
    give(state, 1, "DBS-120", "chain")  # the defender's own chain tops at Level 5
    give(state, 1, "DBS-116")  # Level 1 counter still allowed
    state, _ = act(state, 0, "declare", "DBS-103")
    assert "counter" in kinds(state, 1)


def test_a_spellcard_needs_sp_to_be_declared():
    state = battle_ready()
    state["players"][0]["beads"] = ["full", "empty", "empty", "empty", "empty"]
    give(state, 0, "DBS-103")  # costs 2
    assert "declare" not in kinds(state, 0)


def test_a_trap_springs_before_damage_and_rules_out_a_counter():
    """RULES line 67: without a counter-attack the defender may spring Traps or use Instants
    before taking damage."""
    state = battle_ready()
    wall = set_item(state, 1, "DBS-301", face_down=True)  # -1000 to the attack
    give(state, 1, "DBS-116")
    give(state, 0, "DBS-103")
    state, _ = act(state, 0, "declare", "DBS-103")
    assert kinds(state, 1) == ["counter", "trap", "no_counter"]
    state, _ = act(state, 1, "trap", "DBS-301")
    assert wall in state["players"][1]["grave"] and state["players"][1]["items"] == []
    assert kinds(state, 1) == ["no_counter"]
    state, _ = act(state, 1, "no_counter")
    assert state["players"][1]["lp"] == 10000 - 1200


def test_a_negating_trap_sends_the_attack_to_the_grave_without_damage():
    state = battle_ready()
    set_item(state, 1, "DBS-302", face_down=True)  # costs 2
    attack = give(state, 0, "DBS-103")
    state, _ = act(state, 0, "declare", "DBS-103")
    state, _ = act(state, 1, "trap", "DBS-302")
    assert state["phase"] == "battle" and state["clash"] is None
    assert attack in state["players"][0]["grave"]
    assert state["players"][1]["lp"] == 10000 and state["players"][0]["chain"] == []
    assert state["players"][1]["beads"].count("empty") == 2


def test_a_defence_instant_from_hand():
    state = battle_ready()
    give(state, 1, "DBS-401")  # Smoke Ball: -700
    give(state, 0, "DBS-102")
    state, _ = act(state, 0, "declare", "DBS-102")
    state, _ = act(state, 1, "instant", "DBS-401")
    state, _ = act(state, 1, "no_counter")
    assert state["players"][1]["lp"] == 10000 - 900


def test_damage_reduction_and_attack_bonuses_from_skills_and_items():
    """Reimu's Support skill cuts hit damage by 200; Red Mist gives attacks +300."""
    state = battle_ready()
    # seat 1 attacks seat 0 in this test: hand the turn over
    state, _ = act(state, 0, "end_turn")
    state = to_battle(state)
    clear_hand(state, 1)
    set_item(state, 1, "DBS-502", face_down=False)
    give(state, 1, "DBS-117")  # 1700 + 300
    state, _ = act(state, 1, "declare", "DBS-117")
    state, _ = act(state, 0, "no_counter")
    assert state["players"][0]["lp"] == 10000 - (2000 - 200)


def test_a_skills_attack_bonus_touches_only_her_own_spellcards():
    state = battle_ready()
    call(state, 1, "DBS-005")  # Mokou beside Youmu (Youmu: +300 to her own counters)
    give(state, 1, "DBS-121")  # Mokou's 1000
    give(state, 0, "DBS-102")  # 1600
    state, _ = act(state, 0, "declare", "DBS-102")
    state, _ = act(state, 1, "counter", "DBS-121")
    assert state["players"][1]["lp"] == 10000 - 600


def test_buffs_constants_and_attack_instants_in_the_battle_phase():
    """RULES line 62: Spellcards and Constants from hand without limit of times."""
    state = battle_ready()
    give(state, 0, "DBS-202")  # +500 attack this turn, refill a bead
    give(state, 0, "DBS-501")  # Constant: hit damage -300
    give(state, 0, "DBS-403")  # 500 damage
    give(state, 0, "DBS-101")
    state, _ = act(state, 0, "buff", "DBS-202")
    state, _ = act(state, 0, "constant", "DBS-501")
    state, _ = act(state, 0, "instant", "DBS-403")
    assert [i["face_down"] for i in state["players"][0]["items"]] == [False]
    state, _ = act(state, 0, "declare", "DBS-101")
    state, _ = act(state, 1, "no_counter")
    assert state["players"][1]["lp"] == 10000 - 500 - 1500
    state, _ = act(state, 0, "end_turn")
    assert state["players"][0]["turn_statics"] == []


def test_a_constant_replaces_an_item_when_the_area_is_full():
    state = battle_ready()
    old = set_item(state, 0, "DBS-301", face_down=True)
    set_item(state, 0, "DBS-303", face_down=True)
    new = give(state, 0, "DBS-502")
    options = [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "constant"]
    assert len(options) == 2 and options[0]["replace"] == old
    state, events = ENGINE.apply(state, 0, options[0])
    assert old in state["players"][0]["grave"]
    assert new in [i["card"] for i in state["players"][0]["items"]]
    assert "Warding Paper Wall" in texts(events)


def test_on_declare_boost_with_a_condition():
    """Rekindled Wings: +600 in its clash while its owner's LP are below 4000."""
    state = battle_ready(
        decks=("netherworld-and-bamboo", "shrine-and-stars"), characters=("DBS-005", "DBS-001")
    )
    state["players"][0]["characters"][0]["status"] = "center"
    state["players"][0]["lp"] = 3000
    give(state, 0, "DBS-124")
    state, _ = act(state, 0, "declare", "DBS-124")
    assert state["clash"]["boost"]["attack"] == 600
    state, _ = act(state, 1, "no_counter")
    assert state["players"][1]["lp"] == 10000 - (3600 - 200)  # Reimu's Support skill


def test_house_rule_level_at_most_follows_the_english_footnote():
    """RULES footnote (source line with "lower than or equal to"): a table may choose it."""
    state = battle_ready(options={"level_rule": "at_most"})
    give(state, 0, "DBS-103", "chain")  # Level 3 on top
    low = give(state, 0, "DBS-102")
    give(state, 0, "DBS-104")  # Level 4: too high under this rule (and needs Center anyway)
    high = give(state, 0, "DBS-103")
    declarable = [a["card"] for a in ENGINE.legal_actions(state, 0) if a["type"] == "declare"]
    assert declarable == [low, high]


def test_house_rule_traps_then_a_counter_attack():
    state = battle_ready(options={"defence": "both"})
    set_item(state, 1, "DBS-301", face_down=True)
    cut = give(state, 1, "DBS-116")  # 1500 when countering
    give(state, 0, "DBS-103")  # 2200 - 1000 = 1200
    state, _ = act(state, 0, "declare", "DBS-103")
    state, _ = act(state, 1, "trap", "DBS-301")
    assert kinds(state, 1) == ["counter", "no_counter"]
    state, _ = act(state, 1, "counter", "DBS-116")
    assert state["players"][1]["lp"] == 10000
    assert cut in state["players"][1]["grave"] and state["players"][0]["chain"] == []
