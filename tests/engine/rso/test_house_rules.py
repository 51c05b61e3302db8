"""RSO's house rules (docs/games/rso.md, "House rules"): the choices the rulebook
(rumbling-spell-orchestra-gameplay.txt) leaves open, each with the tavern's reading as its
default and the other readings a table may pick."""

from __future__ import annotations

import pytest

from minigames.engines.rso import ENGINE
from tests.engine.rso.helpers import (
    character,
    deck,
    new_game,
    pass_window,
    put,
    spell,
    start,
    started,
)
from tests.engine.rso.test_costs_and_targets import NETHER, SHRINE, to_preparation


def preset_game(**options):
    """Shrine and Star (seat 0, first) against Netherworld Garden, with these house rules."""
    return started(first=0, decks=[SHRINE, NETHER], options=options)


def test_each_house_rule_and_its_default():
    """Today's readings are the defaults: the rulebook says none of them otherwise."""
    defaults = {rule.key: rule.default for rule in ENGINE.house_rules()}
    assert defaults == {
        "deck_out": "draw",
        "first_player": "random",
        "both_fall": "draw",
        "special_uses": 1,
        "doctrine": "oldest",
        "border_order": "attacker",
    }
    assert ENGINE.new_game(seats=2, seed=1)["options"] == defaults


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"first_player": "loser"}, "Who goes first must be one of: Decided at random"),
        ({"special_uses": 0}, "Uses of each Special per turn must be a whole number from 1 to 3"),
        ({"special_uses": True}, "must be a whole number"),
        ({"special_uses": "2"}, "must be a whole number"),
        ({"border": "attacker"}, "no house rule called 'border'"),
    ],
)
def test_a_bad_house_rule_is_refused_in_words(options, message):
    with pytest.raises(ValueError, match=message):
        ENGINE.new_game(seats=2, seed=1, options=options)


@pytest.mark.parametrize(("rule", "first"), [("first", 0), ("second", 1)])
def test_who_goes_first(rule, first):
    """Line 33: "select one player to go first, either randomly or by mutual consensus": at
    random by default, or a seat the table agreed on."""
    for seed in range(4):
        state = start(new_game(seed=seed, options={"first_player": rule}))
        assert state["first"] == state["attacker"] == first
    firsts = {start(new_game(seed=seed))["first"] for seed in range(12)}
    assert firsts == {0, 1}


def both_hit_to_zero(options):
    """Seat 0 attacks, seat 1 intercepts, both Leaders (20 HP) are hit for 20."""
    x = spell("T-X", "Example Shot A", av=20, iv=0, hv=9)
    y = spell("T-Y", "Example Shot B", av=0, iv=20, hv=9)
    p1, p2 = character("T-P1", "Pia"), character("T-P2", "Quin")
    decks = [deck(["T-P1"] * 4, {"T-X": 1}), deck(["T-P2"] * 4, {"T-Y": 1})]
    options = {"first_player": "first", **options}
    state = start(new_game([p1, p2, x, y], decks, options=options))
    xi, yi = put(state, 0, "T-X", "active"), put(state, 1, "T-Y", "active")
    state, _ = pass_window(state)
    state, _ = ENGINE.apply(state, 0, {"type": "attack", "spell": xi})
    state, _ = ENGINE.apply(state, 1, {"type": "intercept", "spell": yi})
    state, _ = pass_window(state)
    assert [p["hp"] for p in state["players"]] == [0, 0]
    return state


@pytest.mark.parametrize(
    ("rule", "returns"),
    [("draw", [0.0, 0.0]), ("attacker", [1.0, -1.0]), ("intercepting", [-1.0, 1.0])],
)
def test_both_leaders_falling_at_once(rule, returns):
    """Line 61 says a Leader at 0 HP loses, not who wins when both fall in one battle: a draw
    by default, or the attacking or the intercepting player wins."""
    state = both_hit_to_zero({"both_fall": rule})
    assert ENGINE.is_terminal(state)
    assert ENGINE.returns(state) == returns
    if rule != "draw":
        role = "attacking" if rule == "attacker" else "intercepting"
        assert f"the house rule gives the game to the {role} player" in state["reason"]


def reimus_special_offered(**options):
    """How many times in a row Reimu's Battle Special (1 SP: Focused Movement (1) on her
    battle spell) is offered, used each time, in one turn."""
    state = preset_game(**options)
    amulet = put(state, 0, "RSO-101", "active")
    state["players"][0]["sp"] = 5
    state, _ = pass_window(state)
    state, _ = ENGINE.apply(state, 0, {"type": "attack", "spell": amulet})
    state, _ = ENGINE.apply(state, 1, {"type": "no_intercept"})
    offered = []
    for _ in range(3):
        specials = [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "use_special"]
        offered.append(len(specials))
        if not specials:
            break
        state, _ = ENGINE.apply(state, 0, specials[0])
        state, _ = ENGINE.apply(state, 1, {"type": "pass"})
    return offered


@pytest.mark.parametrize(("uses", "offered"), [(None, [1, 0]), (2, [1, 1, 0]), (3, [1, 1, 1])])
def test_uses_of_each_special_per_turn(uses, offered):
    """The rulebook prints no limit on Specials; the tavern's default is once per turn, and a
    table may allow two or three uses (never unbounded: a Special that gains more SP than it
    costs would loop for ever)."""
    options = {} if uses is None else {"special_uses": uses}
    assert reimus_special_offered(**options) == offered


@pytest.mark.parametrize(("rule", "taken"), [("oldest", (0, 1)), ("newest", (2, 1))])
def test_which_cards_doctrine_takes(rule, taken):
    """Line 256: Doctrine (X) puts X non-spell cards of the opponent's discard pile under her
    deck; which ones is the house rule (the oldest by default, or the newest). Mountain
    Sermon's Doctrine 2 against three Supports and Events discarded in turn."""
    state = to_preparation(started(first=0, decks=[NETHER, SHRINE], options={"doctrine": rule}))
    sermon = put(state, 0, "RSO-306", "hand")
    state["players"][0]["sp"] = 1
    discarded = [put(state, 1, number, "discard") for number in ("RSO-104", "RSO-105", "RSO-104")]
    state, _ = ENGINE.apply(state, 0, {"type": "play_event", "card": sermon})
    assert state["players"][1]["deck"][-2:] == [discarded[i] for i in taken]


@pytest.mark.parametrize(("rule", "order"), [("attacker", (0, 1)), ("intercepting", (1, 0))])
def test_who_answers_the_border_value_first(rule, order):
    """Line 188: a tied Leader may pay her Border Value; when both are tied one answers first
    and the other sees it: the attacker by default, or the intercepting player."""
    x = spell("T-X", "Example Shot A", av=3, iv=1, hv=2)
    y = spell("T-Y", "Example Shot B", av=1, iv=2, hv=2)
    p1, p2 = character("T-P1", "Pia", ev=2), character("T-P2", "Quin", ev=2)
    decks = [deck(["T-P1"] * 4, {"T-X": 1}), deck(["T-P2"] * 4, {"T-Y": 1})]
    options = {"first_player": "first", "border_order": rule}
    state = start(new_game([p1, p2, x, y], decks, options=options))
    xi, yi = put(state, 0, "T-X", "active"), put(state, 1, "T-Y", "active")
    for seat in (0, 1):
        state["players"][seat]["sp"] = 5
    state, _ = pass_window(state)
    state, _ = ENGINE.apply(state, 0, {"type": "attack", "spell": xi})
    state, _ = ENGINE.apply(state, 1, {"type": "intercept", "spell": yi})
    state, _ = pass_window(state)
    answered = []
    while state["step"] == "border":
        (seat,) = ENGINE.waiting_on(state)
        answered.append(seat)
        state, _ = ENGINE.apply(state, seat, {"type": "pay_border"})
    assert tuple(answered) == order
