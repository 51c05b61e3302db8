"""Basic attacks: "Attacking and Dodging", "Damage Rolls", "Items", "Elements Affinities",
shot-type and race passives, RULINGS 4, 8 and 9. Dice are scripted so every number is the
rulebook's arithmetic."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.engine.battle.helpers import act, act_events, battle, events_of, fighter, scripted
from tests.engine.battle.samples import character
from westernroses.battle import IllegalAction, legal_actions
from westernroses.battle.state import Effect


def duel(attacker=None, defender=None, **kw):
    a = attacker or fighter("a", (0, 0), speed=10, **kw)
    b = defender or fighter("b", (1, 0), side="b")
    return battle(a, b)


def test_physical_attack_is_pwr_versus_cha_then_weapon_dice_plus_half_pwr():
    """Attacking and Dodging: "a quick versus check ... attacker's power and the defender's
    charisma"; RULINGS 4: damage = weapon dice + floor(PWR / 2): a sword (3d) at PWR 12 is 3d+6."""
    state = duel(fighter("a", (0, 0), speed=10, weapons=("sword",)))
    with scripted(5, 5, 4, 4, 2, 3, 3, 2, 1, 2, 3):
        state, events = act_events(state, "attack", combatant="a", attack="sword", target="b")
    versus = events_of(events, "versus")[0]["result"]
    assert versus["winner"] == "a"
    roll = events_of(events, "damage_roll")[0]
    assert roll["roll"]["notation"] == "3d+6"
    assert roll["roll"]["total"] == 12
    assert state.combatants["b"].hp == 88
    assert state.combatants["a"].actions_left == 1


def test_losing_the_versus_misses_and_rolls_no_damage():
    """Attacking and Dodging: "If the attacker wins, roll for damage" - otherwise no damage."""
    state = duel()
    with scripted(1, 2, 3, 3, 4, 4, 4, 4):
        state, events = act_events(state, "attack", combatant="a", attack="bare_fists", target="b")
    assert events_of(events, "damage_roll") == []
    assert events_of(events, "missed")
    assert state.combatants["b"].hp == 100
    assert state.combatants["a"].meter == 1  # "Performing a basic attack – 1 point"


def test_diminutive_defender_gives_attackers_minus_two():
    """Races: Fairies - Diminutive: "All physical attacks against them suffer a -2 penalty"."""
    b = fighter("b", (1, 0), side="b")
    b.profile = replace(b.profile, attackers_physical_to_hit=-2)
    state = duel(defender=b)
    with scripted(4, 4, 4, 4, 4, 4, 4, 3):
        _, events = act_events(state, "attack", combatant="a", attack="bare_fists", target="b")
    rounds = events_of(events, "versus")[0]["result"]["rounds"][0]["results"]
    attacker = next(r["result"] for r in rounds if r["participant"] == "a")
    assert (attacker["dice"], attacker["modifier"], attacker["total"]) == (4, -2, 14)


def test_danmaku_rolls_int_over_three_dice_and_the_target_dodges_with_insight_against_12():
    """Attacking and Dodging: danmaku damage is rolled at once; "Base difficulty to dodge an
    attack is 12"; Damage Rolls: "roll 1d for every 3 points of intelligence" (INT 12: 4d)."""
    state = duel()
    with scripted(3, 3, 3, 3, 2, 2, 2, 2):
        state, events = act_events(state, "attack", combatant="a", attack="danmaku", target="b")
    assert events_of(events, "damage_roll")[0]["roll"]["notation"] == "4d"
    dodge = events_of(events, "roll")[0]["result"]
    assert (dodge["target"], dodge["total"], dodge["success"]) == (12, 8, False)
    b = state.combatants["b"]
    assert b.hp == 88
    assert b.meter == 3  # "Taking damage from an attack – 3 points"


def test_a_dodged_danmaku_waits_for_the_graze_decision():
    """Attacking and Dodging: "the target may then attempt to graze if she wishes" - the
    defender's controller chooses; nothing else can happen meanwhile."""
    state = duel(defender=fighter("b", (1, 0), side="b", controller="p2"))
    with scripted(3, 3, 3, 3, 4, 4, 4, 4):
        state = act(state, "attack", combatant="a", attack="danmaku", target="b")
    options = legal_actions(state, "p2")
    assert {o["choice"] for o in options} == {"graze", "no_graze"}
    assert legal_actions(state, "p1") == []
    with pytest.raises(IllegalAction, match="waiting for a reaction"):
        act(state, "do_nothing", combatant="a")
    state = act(state, "react", player="p2", combatant="b", choice="no_graze")
    assert state.pending == [] and state.combatants["b"].hp == 100


def test_homing_and_shoot_and_ill_move_change_the_dodge_roll():
    """Shot-types: Homing Danmaku "All attempts to dodge your danmaku attack suffer a -2";
    Abilities: Shoot and I'll Move "+2 to all attempts to dodge a danmaku attack"."""
    a = fighter("a", (0, 0), speed=10)
    a.profile = replace(a.profile, opponents_danmaku_dodge=-2)
    b = fighter("b", (1, 0), side="b")
    b.profile = replace(b.profile, danmaku_dodge_bonus=2)
    state = duel(a, b)
    with scripted(1, 1, 1, 1, 3, 3, 3, 3):
        _, events = act_events(state, "attack", combatant="a", attack="danmaku", target="b")
    dodge = events_of(events, "roll")[0]
    assert {m["label"]: m["amount"] for m in dodge["modifiers"]} == {
        "Dodge bonuses": 2,
        "Attacker (Homing)": -2,
    }


def test_danmaku_range_is_manhattan_within_the_range_stat_plus_options():
    """RULINGS 9: a danmaku target must be within the range stat (Manhattan); RULINGS 8:
    Options add +1 danmaku range and damage per 100 spell power held."""
    state = duel(defender=fighter("b", (2, 3), side="b"))  # distance 5, range 4
    assert "danmaku" not in [o.get("attack") for o in legal_actions(state, "gm")]
    a = fighter("a", (0, 0), speed=10, spell_power=100)
    state = duel(a, fighter("b", (2, 3), side="b"))
    option = next(o for o in legal_actions(state, "gm") if o.get("attack") == "danmaku")
    assert option["range"] == 5 and option["targets"] == ["b"]
    with scripted(1, 1, 1, 1, 1, 1, 1, 2):
        state, events = act_events(state, "attack", combatant="a", attack="danmaku", target="b")
    assert events_of(events, "damage_roll")[0]["roll"]["notation"] == "4d+1"


def test_options_are_capped_at_plus_four():
    """RULINGS 8: +1 per 100 spell power held, at most +4 (400 held: +4, not more)."""
    a = fighter("a", (0, 0), speed=10, spell_power=400)
    state = duel(a)
    with scripted(5, 5, 4, 4, 2, 3, 3, 2, 3):
        _, events = act_events(state, "attack", combatant="a", attack="bare_fists", target="b")
    assert events_of(events, "damage_roll")[0]["roll"]["notation"] == "1d+10"


@pytest.mark.parametrize(
    ("attack", "defend", "raw", "taken"),
    [("water", "fire", 12, 24), ("fire", "water", 13, 7), ("fire", "light", 12, 12)],
)
def test_elements_double_or_halve_danmaku_rounded_up(attack, defend, raw, taken):
    """Elements Affinities: "Water douses Fire" (×2), "Fire ... is doused by Water" (×½,
    rounded up per RULINGS 3); elements of the other cycle deal normal damage."""
    a = fighter("a", (0, 0), speed=10, element=attack)
    b = fighter("b", (1, 0), side="b", element=defend)
    state = duel(a, b)
    dice = {12: (3, 3, 3, 3), 13: (4, 3, 3, 3)}[raw]
    with scripted(*dice, 1, 1, 2, 2):
        state = act(state, "attack", combatant="a", attack="danmaku", target="b")
    assert state.combatants["b"].hp == 100 - taken


def test_resilience_takes_five_but_at_least_one_gets_through():
    """Shot-types: Resilience "you take 5 less damage from all attacks. You still take at least
    1 damage from any successful attack"."""
    b = fighter("b", (1, 0), side="b", damage_reduction=5)
    a = fighter("a", (0, 0), speed=10, stats={"int": 3})
    state = duel(a, b)
    with scripted(4, 1, 1, 2, 2):
        _, events = act_events(state, "attack", combatant="a", attack="danmaku", target="b")
    hit = events_of(events, "hit")[0]
    assert (hit["raw"], hit["damage"]) == (4, 1)


def test_armour_and_outfit_reduce_damage_from_a_sheet():
    """Items: Leather Armor "reduces all damage taken by 3" and -1 to dodge; Shrine Maiden
    Outfit "all damage is decreased by 1" - both read from the character sheet."""
    assert character("meiling").profile.damage_reduction == 3
    assert character("meiling").profile.physical_dodge_bonus == -1
    assert character("reimu").profile.damage_reduction == 1


def test_training_and_brute_force_add_to_physical_damage():
    """Shot-types: Training "+4 to damage"; Abilities: Brute Force "+5 to all power-based
    damage"; RULINGS 4: PWR 21 adds 10. Meiling's fists: 1d + 10 + 4 + 5 = 1d+19."""
    meiling = character("meiling", position=(0, 0), controller="p1")
    state = battle(meiling, fighter("b", (1, 0), side="b", speed=1))
    with scripted(4, 4, 4, 4, 4, 4, 4, 1, 1, 1, 1, 3):
        _, events = act_events(
            state, "attack", combatant="meiling", attack="bare_fists", target="b", player="p1"
        )
    assert events_of(events, "damage_roll")[0]["roll"]["notation"] == "1d+19"


def test_thrown_weapons_use_ammunition_and_combat_maids_add_a_die():
    """Throwing Weapons: knives have range ½ RANGE (Sakuya's 6: 3) and 2d; Combat-Maid: "all
    successful attacks with thrown weapons deal an additional 1d"; each throw uses a knife."""
    sakuya = character("sakuya", position=(0, 0), controller="p1")
    sakuya.ammo["throwing_knives"] = 1
    state = battle(sakuya, fighter("b", (3, 0), side="b", speed=1))
    option = next(o for o in legal_actions(state, "p1") if o.get("attack") == "throwing_knives")
    assert option["range"] == 3
    with scripted(4, 4, 4, 4, 1, 1, 1, 1, 2, 2, 2):
        state, events = act_events(
            state, "attack", combatant="sakuya", player="p1", attack="throwing_knives", target="b"
        )
    assert events_of(events, "damage_roll")[0]["roll"]["notation"] == "3d+6"
    assert state.combatants["sakuya"].ammo["throwing_knives"] == 0
    assert state.combatants["sakuya"].thrown_used == {"throwing_knives": 1}
    assert "throwing_knives" not in [o.get("attack") for o in legal_actions(state, "p1")]


def test_quick_strike_is_one_free_attack_per_turn():
    """Shot-types: Quick Strike "You may make an attack once per turn without taking an action"."""
    state = duel(fighter("a", (0, 0), speed=10, traits=("quick_strike",)))
    frees = [o for o in legal_actions(state, "gm") if o["type"] == "attack" and o["free"]]
    assert frees
    with scripted(1, 1, 1, 2, 4, 4, 4, 4):
        state = act(state, "attack", combatant="a", attack="bare_fists", target="b", free=True)
    assert state.combatants["a"].actions_left == 2
    assert not [o for o in legal_actions(state, "gm") if o["type"] == "attack" and o["free"]]
    with pytest.raises(IllegalAction, match="Quick Strike"):
        act(state, "attack", combatant="a", attack="bare_fists", target="b", free=True)


def test_improvised_weapons_have_penalties_ponies_do_not():
    """Improvised Weapons: "-2 on to-hit rolls and a -4 to damage rolls"; Pony Ingenuity: "no
    penalties from the use of improvised tools and weapons"."""
    aya = character("aya").profile.attack("basic_improvised_weapon")
    assert aya is not None and (aya.to_hit_bonus, aya.bonus) == (-2, -4)
    gohei = character("reimu").profile.attack("gohei")
    assert gohei is not None and (gohei.to_hit_bonus, gohei.bonus) == (0, 0)


def test_a_sober_drunken_master_cannot_dodge_danmaku():
    """Professions: Drunken Master - "When sober ... danmaku attacks automatically hit"."""
    suika = character("suika", position=(1, 0), side="b")
    suika.drunkenness = "sober"
    state = duel(defender=suika)
    with scripted(1, 1, 1, 1):
        _, events = act_events(state, "attack", combatant="a", attack="danmaku", target="suika")
    assert events_of(events, "cannot_dodge")
    assert events_of(events, "roll") == []


def test_a_plastered_drunken_master_halves_power_to_hit_and_doubles_damage():
    """Drunken Master: "every level ... adds an extra 1d ... bare fists, for a maximum of 3d";
    plastered: "power is treated as halved for all attack rolls ... X2 damage" (4dX2+24)."""
    suika = character("suika", position=(0, 0), controller="p1")
    suika.drunkenness = "plastered"
    state = battle(suika, fighter("b", (1, 0), side="b", speed=1))
    with scripted(4, 4, 4, 4, 1, 1, 1, 1, 1, 2, 3, 4):
        _, events = act_events(
            state, "attack", combatant="suika", player="p1", attack="bare_fists", target="b"
        )
    rounds = events_of(events, "versus")[0]["result"]["rounds"][0]["results"]
    to_hit = next(r["result"] for r in rounds if r["participant"] == "suika")
    assert (to_hit["dice"], to_hit["modifier"]) == (4, 0)  # ceil(24 / 2) = 12: 4d, no -4
    roll = events_of(events, "damage_roll")[0]["roll"]
    assert (roll["notation"], roll["total"]) == ("4dX2+24", 44)


def test_a_mace_hit_can_stun_on_a_failed_charisma_roll():
    """Weapons: Maces "successful attack can cause 1-turn stun"; Status Effects: Stun "the
    target must make a check against their charisma. If they fail, they become stunned"."""
    state = duel(fighter("a", (0, 0), speed=10, weapons=("mace",)))
    with scripted(5, 5, 4, 4, 1, 1, 2, 2, 1, 1, 1, 1, 2, 2):
        state = act(state, "attack", combatant="a", attack="mace", target="b")
    assert state.combatants["b"].has("stun")
    state = act(state, "end_turn", combatant="a")
    assert state.current == "a" and state.round == 2  # b's turn was lost
    assert not state.combatants["b"].has("stun")


def test_stunning_note_stuns_for_two_turns():
    """Shot-types: Stunning Note "inflicts a 2-turn stun if the defender does not succeed her
    charisma roll"."""
    state = duel(fighter("a", (0, 0), speed=10, traits=("stunning_note",)))
    with scripted(1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1):
        state = act(state, "attack", combatant="a", attack="danmaku", target="b")
    stun = state.combatants["b"].effect("stun")
    assert stun is not None and stun.ends is not None and stun.ends.count == 2


def test_a_gohei_hit_destroys_buffs():
    """Improvised Weapons: Gohei "successful attack destroys buffs"."""
    b = fighter("b", (1, 0), side="b")
    b.effects.append(Effect("e99", "stat", "Read a book", "b", {"stat": "int", "amount": 6}))
    state = duel(fighter("a", (0, 0), speed=10, weapons=("gohei",), traits=()), b)
    with scripted(5, 5, 4, 4, 1, 1, 2, 2, 1, 1):
        state = act(state, "attack", combatant="a", attack="gohei", target="b")
    assert state.combatants["b"].effects == []


def test_manipulation_of_ice_freezes_on_a_critical_basic_attack():
    """Abilities: Manipulation of Ice "freezes their target on any critical basic attack";
    RULINGS 2: 22-24 on 4d is a critical success."""
    state = duel(fighter("a", (0, 0), speed=10, traits=("manipulation_of_ice",)))
    with scripted(6, 6, 6, 6, 1, 1, 1, 1, 1):
        state = act(state, "attack", combatant="a", attack="bare_fists", target="b")
    assert state.combatants["b"].has("freeze")


def test_an_attack_out_of_range_is_refused_with_a_reason():
    """Attacking and Dodging: "a target must first be within range (1 space for physical)"."""
    state = duel(defender=fighter("b", (2, 0), side="b"))
    with pytest.raises(IllegalAction, match="within range"):
        act(state, "attack", combatant="a", attack="bare_fists", target="b")


@pytest.mark.parametrize(
    ("pwr", "intel", "weapon", "dice", "physical", "danmaku"),
    [
        (8, 13, "gohei", (6, 6, 1, 1, 1), "2d", "4d"),
        (9, 14, "bare_fists", (6, 6, 6, 1, 1), "1d+4", "4d"),
    ],
)
def test_the_items_worked_example_follows_the_text_not_its_numbers(
    pwr, intel, weapon, dice, physical, danmaku
):
    """Items: "a character wielding a gohei with a power of 8 and intelligence of 13 would deal
    3d+8 ... and 6d ... bare fists with power of 9 and intelligence of 14 would deal 1d+9 ...
    and 7d" - RULINGS 4: the text wins: weapon dice + floor(PWR / 2) (a gohei is improvised:
    −4 for a non-pony) and floor(INT / 3) dice."""
    a = fighter("a", (0, 0), speed=10, stats={"pwr": pwr, "int": intel}, weapons=("gohei",))
    state = duel(a, fighter("b", (1, 0), side="b", stats={"cha": 3}))
    with scripted(*dice):
        _, events = act_events(state, "attack", combatant="a", attack=weapon, target="b")
    notation = events_of(events, "damage_roll")[0]["roll"]["notation"]
    assert notation == physical
    with scripted(*[1] * 4, 4, 4, 4, 4):
        _, events = act_events(state, "attack", combatant="a", attack="danmaku", target="b")
    assert events_of(events, "damage_roll")[0]["roll"]["notation"] == danmaku
