"""Playing cards and using abilities (rulebook rumbling-spell-orchestra-gameplay.txt,
"Playing Cards and Using Abilities" lines 232-268, Supports lines 124-130 and 218-224, targets
line 73) with the starter set's cards."""

from __future__ import annotations

import pytest

from minigames.engines.rso import ENGINE
from minigames.engines.rso.state import leader_stats, spell_stats
from tests.engine.rso.helpers import new_game as fresh
from tests.engine.rso.helpers import pass_window, put, started, texts

SHRINE, SCARLET, NETHER, LIBRARY = (
    "shrine-and-star",
    "scarlet-household",
    "netherworld-garden",
    "grand-library",
)


def to_preparation(state):
    state, _ = pass_window(state)
    state, _ = ENGINE.apply(state, state["attacker"], {"type": "no_attack"})
    assert state["phase"] == "preparation"
    return state


def game(first_deck, second_deck):
    return started(first=0, decks=[first_deck, second_deck])


def test_extra_cost_from_the_deck_top():
    """Line 247: an Extra Cost must be paid to play the card (Borrowed Indefinitely: the top
    card of the deck to the discard pile), here with 0 SP."""
    state = to_preparation(game(SHRINE, LIBRARY))
    card = put(state, 0, "RSO-115", "hand")
    top = state["players"][0]["deck"][0]
    deck_size = len(state["players"][0]["deck"])
    state["players"][0]["sp"] = 0
    action = {"type": "play_event", "card": card}
    assert action in ENGINE.legal_actions(state, 0)
    state, events = ENGINE.apply(state, 0, action)
    assert top in state["players"][0]["discard"]
    assert len(state["players"][0]["deck"]) == deck_size - 3  # one paid, two drawn
    assert "from the deck top into the discard pile to pay" in texts(events)


def test_hand_cost_offers_each_card_to_discard():
    """Line 71: hand costs: the player chooses which card to discard."""
    state = started(first=0, decks=[SCARLET, NETHER])
    tea = put(state, 0, "RSO-125", "hand")
    options = [a for a in ENGINE.legal_actions(state, 0) if a.get("card") == tea]
    others = [c for c in state["players"][0]["hand"] if c != tea]
    assert [a["discard"] for a in options] == [[c] for c in others]
    sp = state["players"][0]["sp"]
    state, _ = ENGINE.apply(state, 0, options[0])
    assert state["players"][0]["sp"] == sp + 2
    assert others[0] in state["players"][0]["discard"]


def test_battle_cost_is_paid_to_attack():
    """Line 251: (Battle) costs are paid when the spell attacks or intercepts; unpaid, it
    cannot (Comet Over the Forest: 1 SP)."""
    state = game(SHRINE, LIBRARY)
    comet = put(state, 0, "RSO-113", "active")
    state, _ = pass_window(state)
    state["players"][0]["sp"] = 0
    assert {"type": "attack", "spell": comet} not in ENGINE.legal_actions(state, 0)
    state["players"][0]["sp"] = 2
    state, _ = ENGINE.apply(state, 0, {"type": "attack", "spell": comet})
    assert state["players"][0]["sp"] == 1


def test_activate_cost_is_paid_on_activation():
    """Line 252: (Activate) costs are paid when the spell is activated (Eightfold Seal Garden:
    3 SP and one card from the hand)."""
    state = to_preparation(game(SHRINE, LIBRARY))
    garden = put(state, 0, "RSO-103", "reserve")
    state["players"][0]["sp"] = 3
    hand = list(state["players"][0]["hand"])
    options = [a for a in ENGINE.legal_actions(state, 0) if a.get("spell") == garden]
    assert [a["discard"] for a in options] == [[c] for c in hand]
    state["players"][0]["hand"] = []
    assert not [a for a in ENGINE.legal_actions(state, 0) if a.get("spell") == garden]


def test_awakening_is_optional_and_adds_effects():
    """Line 254: pay the Awakening cost on top of the card's own for extra effects (Cut Away
    Hesitation: Penetration; awakened also AV +2)."""
    state = game(NETHER, SHRINE)
    crescent = put(state, 0, "RSO-151", "active")
    event_card = put(state, 0, "RSO-155", "hand")
    state, _ = pass_window(state)
    state, _ = ENGINE.apply(state, 0, {"type": "attack", "spell": crescent})
    state, _ = ENGINE.apply(state, 1, {"type": "no_intercept"})
    state["players"][0]["sp"] = 3
    plain = {"type": "play_event", "card": event_card, "target": crescent}
    awake = {**plain, "awaken": True}
    assert plain in ENGINE.legal_actions(state, 0) and awake in ENGINE.legal_actions(state, 0)
    after, _ = ENGINE.apply(state, 0, plain)
    assert spell_stats(after, crescent)["av"] == 3
    after, events = ENGINE.apply(state, 0, awake)
    assert spell_stats(after, crescent)["av"] == 5 and after["players"][0]["sp"] == 0
    assert "with its Awakening" in texts(events)
    state["players"][0]["sp"] = 2
    assert awake not in ENGINE.legal_actions(state, 0)


def test_doctrine_returns_non_spells_to_the_bottom_of_the_opponents_deck():
    """Line 256: Doctrine (X): X non-spell cards from the opponent's discard pile to the bottom
    of her deck (Mountain Sermon, Doctrine 2)."""
    state = to_preparation(game(NETHER, SHRINE))
    sermon = put(state, 0, "RSO-306", "hand")
    state["players"][0]["sp"] = 1
    ribbon = put(state, 1, "RSO-104", "discard")
    assert {"type": "play_event", "card": sermon} not in ENGINE.legal_actions(state, 0)
    spell_in_discard = put(state, 1, "RSO-101", "discard")
    assert {"type": "play_event", "card": sermon} not in ENGINE.legal_actions(state, 0)
    visit = put(state, 1, "RSO-105", "discard")
    state, events = ENGINE.apply(state, 0, {"type": "play_event", "card": sermon})
    foe = state["players"][1]
    assert foe["deck"][-2:] == [ribbon, visit]
    assert foe["discard"] == [spell_in_discard]
    assert ENGINE.view(state, 0)["players"][1]["deck_bottom"] == [
        "Red-White Ribbon",
        "Unannounced Shrine Visit",
    ]
    assert "Doctrine: Red-White Ribbon, Unannounced Shrine Visit go to the bottom" in texts(events)


def test_phase_and_role_restrictions():
    """Lines 236-240: cards only in their phase; /Attack and /Intercept by role. Tangled
    Puppet Strings is a Battle/Intercept event."""
    state = game(LIBRARY, SHRINE)  # Library attacks first
    strings = put(state, 0, "RSO-174", "hand")
    drizzle = put(state, 0, "RSO-141", "active")
    state["players"][0]["sp"] = 5
    assert not [a for a in ENGINE.legal_actions(state, 0) if a.get("card") == strings]
    state, _ = pass_window(state)
    state, _ = ENGINE.apply(state, 0, {"type": "attack", "spell": drizzle})
    state, _ = ENGINE.apply(state, 1, {"type": "no_intercept"})
    assert not [a for a in ENGINE.legal_actions(state, 0) if a.get("card") == strings]
    # Spells and Supports only in the Preparation phase (line 238).
    assert not [a for a in ENGINE.legal_actions(state, 0) if a["type"] in ("equip", "reserve")]


def test_intercept_role_event_is_playable_when_intercepting():
    state = game(SHRINE, LIBRARY)
    amulet = put(state, 0, "RSO-101", "active")
    strings = put(state, 1, "RSO-174", "hand")
    state["players"][1]["sp"] = 2
    state, _ = pass_window(state)
    state, _ = ENGINE.apply(state, 0, {"type": "attack", "spell": amulet})
    state, _ = ENGINE.apply(state, 1, {"type": "no_intercept"})
    state, _ = ENGINE.apply(state, 0, {"type": "pass"})
    action = {"type": "play_event", "card": strings, "target": amulet}
    assert action in ENGINE.legal_actions(state, 1)
    state, _ = ENGINE.apply(state, 1, action)
    assert spell_stats(state, amulet)["hv"] == 2


def test_untargetable_leader_refuses_the_opponents_event_and_supports():
    """Line 73: a target that cannot be targeted means the card cannot be used (Patchouli's
    leader against Call Out the Dodge and an opposing Leader Support)."""
    state = game(SCARLET, LIBRARY)  # Sakuya against Patchouli
    sakuya_spell = put(state, 0, "RSO-121", "active")
    dodge = put(state, 0, "RSO-307", "hand")
    state["players"][0]["sp"] = 5
    state, _ = pass_window(state)
    state, _ = ENGINE.apply(state, 0, {"type": "attack", "spell": sakuya_spell})
    state, _ = ENGINE.apply(state, 1, {"type": "no_intercept"})
    assert not [a for a in ENGINE.legal_actions(state, 0) if a.get("card") == dodge]
    state, _ = pass_window(state)
    apron = put(state, 0, "RSO-124", "hand")
    targets = [a.get("target") for a in ENGINE.legal_actions(state, 0) if a.get("card") == apron]
    assert targets == [state["players"][0]["leader"]]


def test_unaffected_leader_is_targeted_but_unchanged():
    """Line 73: an unaffected card can be targeted, but the effect does nothing to it."""
    state = game(SCARLET, NETHER)
    appetite = put(state, 1, "RSO-165", "discard")
    state["players"][1]["discard"].remove(appetite)
    state["players"][1]["supports"].append(appetite)
    knife = put(state, 0, "RSO-121", "active")
    dodge = put(state, 0, "RSO-307", "hand")
    state["players"][0]["sp"] = 5
    state, _ = pass_window(state)
    state, _ = ENGINE.apply(state, 0, {"type": "attack", "spell": knife})
    state, _ = ENGINE.apply(state, 1, {"type": "no_intercept"})
    foe_leader = state["players"][1]["leader"]
    action = {"type": "play_event", "card": dodge, "target": foe_leader}
    assert action in ENGINE.legal_actions(state, 0)
    ev = leader_stats(state, 1)["ev"]
    state, events = ENGINE.apply(state, 0, action)
    assert leader_stats(state, 1)["ev"] == ev
    assert "is unaffected by Call Out the Dodge" in texts(events)


def test_only_the_leaders_specials_and_once_per_turn():
    """Line 264: only the Leader's Specials may be used (Reimu leads; Marisa's Special is not
    offered). Our ruling: each Special once per turn."""
    state = game(SHRINE, LIBRARY)
    amulet = put(state, 0, "RSO-101", "active")
    state["players"][0]["sp"] = 5
    state, _ = pass_window(state)
    state, _ = ENGINE.apply(state, 0, {"type": "attack", "spell": amulet})
    state, _ = ENGINE.apply(state, 1, {"type": "no_intercept"})
    specials = [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "use_special"]
    assert specials == [
        {
            "type": "use_special",
            "card": state["players"][0]["leader"],
            "ability": 0,
            "target": amulet,
        }
    ]
    state, _ = ENGINE.apply(state, 0, specials[0])
    state, _ = ENGINE.apply(state, 1, {"type": "pass"})
    assert not [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "use_special"]


def test_support_limits():
    """Lines 222-224: one Support per spell; no two Supports of one name on a leader; either
    player's cards; one Scene, the old one discarded."""
    state = to_preparation(game(SHRINE, SCARLET))
    state["players"][0]["sp"] = 20
    mine = put(state, 0, "RSO-101", "active")
    theirs = put(state, 1, "RSO-121", "reserve")
    tune = put(state, 0, "RSO-114", "hand")
    targets = {a["target"] for a in ENGINE.legal_actions(state, 0) if a.get("card") == tune}
    assert targets == {mine, theirs}
    state, _ = ENGINE.apply(state, 0, {"type": "equip", "card": tune, "target": mine})
    assert spell_stats(state, mine)["av"] == 3
    tune2 = put(state, 0, "RSO-114", "hand")
    targets = {a["target"] for a in ENGINE.legal_actions(state, 0) if a.get("card") == tune2}
    assert targets == {theirs}
    ribbon = put(state, 0, "RSO-104", "hand")
    me, foe = state["players"][0]["leader"], state["players"][1]["leader"]
    state, _ = ENGINE.apply(state, 0, {"type": "equip", "card": ribbon, "target": me})
    ribbon2 = put(state, 0, "RSO-104", "hand")
    targets = {a["target"] for a in ENGINE.legal_actions(state, 0) if a.get("card") == ribbon2}
    assert targets == {foe}
    assert leader_stats(state, 0)["ev"] == 4
    grove = put(state, 0, "RSO-305", "hand")
    state, _ = ENGINE.apply(state, 0, {"type": "equip", "card": grove})
    assert state["scene"] == grove
    assert spell_stats(state, mine)["basic"]["unfocused"] == 1


def test_a_leaders_supports_are_told_apart_by_name_whatever_its_case_and_spaces():
    """Line 128: "no two Supports of the same name can be equipped to the same Leader", and
    names are compared as the copy rule compares them (line 15): a GM's " red-white RIBBON "
    is the same Support as Red-White Ribbon."""
    from tests.engine.rso.helpers import deck

    twin = {**fresh_card("RSO-104"), "number": "GM-104", "name": " red-white RIBBON "}
    state = started(
        [twin],
        first=0,
        decks=[deck(["RSO-001"] * 4, {"RSO-104": 1, "GM-104": 1}), deck(["T-C2"] * 4, {})],
    )
    state = to_preparation(state)
    state["players"][0]["sp"] = 5
    me, foe = state["players"][0]["leader"], state["players"][1]["leader"]
    ribbon = put(state, 0, "RSO-104", "hand")
    state, _ = ENGINE.apply(state, 0, {"type": "equip", "card": ribbon, "target": me})
    other = put(state, 0, "GM-104", "hand")
    targets = {a["target"] for a in ENGINE.legal_actions(state, 0) if a.get("card") == other}
    assert targets == {foe}


def fresh_card(number):
    from minigames.engines.rso import starter_card_set

    return dict(starter_card_set()[number])


def test_a_new_scene_discards_the_old_one():
    """Line 130/224: one Scene on the Boundary; a new one discards the old."""
    state = to_preparation(game(NETHER, SHRINE))
    state["players"][0]["sp"] = 5
    first = put(state, 0, "RSO-164", "hand")
    state, _ = ENGINE.apply(state, 0, {"type": "equip", "card": first})
    second = put(state, 0, "RSO-164", "hand")
    state, events = ENGINE.apply(state, 0, {"type": "equip", "card": second})
    assert state["scene"] == second and first in state["players"][0]["discard"]
    assert "The Scene Netherworld Gate Garden is discarded." in texts(events)


def test_remove_support_event():
    state = to_preparation(game(LIBRARY, SHRINE))
    ribbon = put(state, 1, "RSO-104", "discard")
    state["players"][1]["discard"].remove(ribbon)
    state["players"][1]["supports"].append(ribbon)
    curfew = put(state, 0, "RSO-145", "hand")
    state["players"][0]["sp"] = 1
    state, _ = ENGINE.apply(state, 0, {"type": "play_event", "card": curfew, "target": ribbon})
    assert ribbon in state["players"][1]["discard"] and not state["players"][1]["supports"]


def test_triggers_fire_at_the_start_of_a_phase():
    """Line 161: effects triggered by the start of the phase go first (Remilia drains 1 SP
    when her Replenish phase starts)."""
    # Remilia must lead: choose her instead of Sakuya.
    state = None
    for seed in range(50):
        s = fresh(decks=[SHRINE, SCARLET], seed=seed)
        s, _ = ENGINE.apply(s, 0, ENGINE.legal_actions(s, 0)[0])
        s, _ = ENGINE.apply(s, 1, ENGINE.legal_actions(s, 1)[1])  # Remilia
        s, _ = ENGINE.apply(s, 0, {"type": "keep"})
        s, _ = ENGINE.apply(s, 1, {"type": "keep"})
        if s["first"] == 0:
            state = s
            break
    assert state is not None
    state["players"][0]["sp"] = 3
    state, _ = pass_window(state)
    state, _ = ENGINE.apply(state, 0, {"type": "no_attack"})
    state, events = ENGINE.apply(state, 0, {"type": "done"})
    assert state["players"][0]["sp"] == 2
    assert "Player A loses 1 SP (Remilia Scarlet)." in texts(events)


@pytest.mark.parametrize("kind", ["play_event", "use_special"])
def test_refused_plays_leave_the_state(kind):
    state = game(SHRINE, LIBRARY)
    before = ENGINE.to_json(state)
    with pytest.raises(Exception, match="not allowed"):
        ENGINE.apply(state, 0, {"type": kind, "card": "rso-card-1"})
    assert ENGINE.to_json(state) == before


def gm_event(number, name, effects, target=None, phases=("preparation",)):
    card = {
        "number": number,
        "name": name,
        "kind": "event",
        "cost": 0,
        "phases": list(phases),
        "effects": effects,
    }
    if target:
        card["target"] = target
    return card


def test_every_effect_word_is_interpreted():
    """The vocabulary's effects on a GM's cards: damage, heal, drain, gain, draw, to_reserve."""
    from tests.engine.rso.helpers import deck

    cards = [
        gm_event("GM-E1", "Test Jab", [{"do": "damage", "amount": 3}], "opponent_leader"),
        gm_event("GM-E2", "Test Salve", [{"do": "heal", "amount": 5}], "own_leader"),
        gm_event("GM-E3", "Test Leech", [{"do": "drain_sp", "amount": 4}]),
        gm_event(
            "GM-E4", "Test Study", [{"do": "draw", "amount": 2}, {"do": "gain_sp", "amount": 1}]
        ),
        gm_event("GM-E5", "Test Recall", [{"do": "to_reserve"}], "opposing_spell"),
    ]
    mine = deck(["T-C1"] * 4, {c["number"]: 1 for c in cards})
    state = to_preparation(started(cards, first=0, decks=[mine, deck(["T-C2"] * 4, {})]))
    p0, p1 = 0, 1
    state["players"][p1]["sp"] = 3
    state["players"][p0]["hp"] = 10
    foe_spell = put(state, p1, "T-F00", "active")
    hand = {n: put(state, p0, n, "hand") for n in ("GM-E1", "GM-E2", "GM-E3", "GM-E4", "GM-E5")}
    foe_leader, my_leader = state["players"][p1]["leader"], state["players"][p0]["leader"]
    state, _ = ENGINE.apply(
        state, 0, {"type": "play_event", "card": hand["GM-E1"], "target": foe_leader}
    )
    assert state["players"][p1]["hp"] == 17
    state, _ = ENGINE.apply(
        state, 0, {"type": "play_event", "card": hand["GM-E2"], "target": my_leader}
    )
    assert state["players"][p0]["hp"] == 15
    state, events = ENGINE.apply(state, 0, {"type": "play_event", "card": hand["GM-E3"]})
    assert state["players"][p1]["sp"] == 0 and "Player B loses 3 SP" in texts(events)
    size = len(state["players"][p0]["hand"])
    sp = state["players"][p0]["sp"]
    state, _ = ENGINE.apply(state, 0, {"type": "play_event", "card": hand["GM-E4"]})
    assert len(state["players"][p0]["hand"]) == size + 1 and state["players"][p0]["sp"] == sp + 1
    state, _ = ENGINE.apply(
        state, 0, {"type": "play_event", "card": hand["GM-E5"], "target": foe_spell}
    )
    assert foe_spell in state["players"][p1]["reserve"]
    assert state["players"][p0]["hp"] <= state["players"][p0]["max_hp"]


@pytest.mark.parametrize("phase", ["replenish", "battle", "preparation"])
def test_end_of_phase_triggers(phase):
    """Lines 161, 204, 226: abilities triggered by the end of a phase go into effect then."""
    from tests.engine.rso.helpers import character, deck

    leader = character(
        "T-C9",
        "Cora",
        abilities=[
            {
                "kind": "trigger",
                "when": f"{phase}_end",
                "role": "attack",
                "effects": [{"do": "gain_sp", "amount": 2}],
            }
        ],
    )
    state = started([leader], first=0, decks=[deck(["T-C9"] * 4, {}), deck(["T-C2"] * 4, {})])
    assert state["players"][0]["sp"] == 1
    state, events = pass_window(state)
    if phase == "replenish":
        assert state["players"][0]["sp"] == 3
        return
    state, events = ENGINE.apply(state, 0, {"type": "no_attack"})
    if phase == "battle":
        assert state["players"][0]["sp"] == 3 and "Player A gains 2 SP (Cora)" in texts(events)
        return
    assert state["players"][0]["sp"] == 1
    state, events = ENGINE.apply(state, 0, {"type": "done"})
    assert state["players"][0]["sp"] == 3


def test_field_cost_sends_one_of_your_supports_away():
    """Line 71: costs may discard cards on your field (Burned-Out Talisman: one of your
    Supports in play)."""
    from tests.engine.rso.helpers import deck

    state = started(
        first=0,
        decks=[deck(["RSO-001"] * 4, {"RSO-309": 1, "RSO-104": 2}), deck(["T-C2"] * 4, {})],
    )
    talisman = put(state, 0, "RSO-309", "hand")
    assert not [a for a in ENGINE.legal_actions(state, 0) if a.get("card") == talisman]
    ribbons = [put(state, 0, "RSO-104", "discard") for _ in range(2)]
    for ribbon in ribbons:
        state["players"][0]["discard"].remove(ribbon)
    state["players"][0]["supports"].append(ribbons[0])
    state["players"][1]["supports"].append(ribbons[1])  # hers, on the opponent's leader
    options = [a for a in ENGINE.legal_actions(state, 0) if a.get("card") == talisman]
    assert [a["sacrifice"] for a in options] == [[ribbons[0]], [ribbons[1]]]
    sp = state["players"][0]["sp"]
    assert str(ENGINE.describe_action(state, 0, options[1])).endswith(
        "sending Red-White Ribbon to the discard pile"
    )
    state, _ = ENGINE.apply(state, 0, options[1])
    assert state["players"][0]["sp"] == sp + 3
    assert ribbons[1] in state["players"][0]["discard"] and not state["players"][1]["supports"]
