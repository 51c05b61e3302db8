"""The odds the battle screen shows come from the engine and equal the probability module's
exact numbers for the very rolls the attack makes ("Attacking and Dodging", RULINGS 4): a
physical attack is PWR versus CHA (ties re-rolled), danmaku is dodged by an insight check
against 12; a logged roll carries the odds it faced."""

from __future__ import annotations

from fractions import Fraction

from tests.engine.battle.helpers import battle, fighter
from westernroses import probability
from westernroses.battle import legal_actions, view
from westernroses.battle.odds import roll_odds


def _exact(share: dict) -> Fraction:
    return Fraction(share["exact"])


def _options(state) -> list:
    """What the screen gets: the view's legal actions (the odds are added there only)."""
    return view(state, "gm")["you"]["legal_actions"]


def _attack(state, slug: str) -> dict:
    return next(o for o in _options(state) if o["type"] == "attack" and o["attack"] == slug)


def _duel():
    a = fighter("a", (0, 0), speed=10, weapons=("sword",))
    b = fighter("b", (1, 0), side="b", stats={"cha": 15, "ins": 9})
    state = battle(a, b)
    if state.current != "a":  # the test acts as a: make it her turn whatever the order
        state.current = "a"
    return state


def test_physical_odds_are_pwr_versus_cha_and_the_weapon_damage():
    """Sword at PWR 12 (4 dice) against CHA 15 (5 dice); damage 3d + floor(12 / 2) = 3d+6."""
    option = _attack(_duel(), "sword")
    odds = option["odds"]["b"]
    assert _exact(odds["hit"]) == probability.versus_odds(4, 0, 5, 0).a_wins
    assert odds["damage"]["notation"] == "3d+6"
    expected = probability.total_distribution((3, 6))
    assert [(t, _exact(p)) for t, p in odds["damage"]["totals"]] == list(expected.items())
    assert sum(_exact(p) for _, p in odds["damage"]["totals"]) == 1


def test_danmaku_odds_are_one_minus_the_insight_dodge():
    """INS 9 rolls 3 dice against the dodge target 12; damage floor(INT 12 / 3) = 4 dice."""
    state = _duel()
    danmaku = next(o for o in _options(state) if o["type"] == "attack" and o["kind"] == "danmaku")
    odds = danmaku["odds"]["b"]
    assert _exact(odds["hit"]) == 1 - probability.check_odds(3, 0, 12).any_success
    assert odds["damage"]["notation"] == "4d"
    assert odds["damage"]["average"] == 14.0


def test_every_logged_roll_carries_the_odds_it_faced():
    state = _duel()
    from westernroses.battle import apply

    target_b = {"type": "attack", "player": "gm", "combatant": "a", "target": "b"}
    danmaku = _attack(
        state,
        next(
            o["attack"]
            for o in legal_actions(state, "gm")
            if o["type"] == "attack" and o["kind"] == "danmaku"
        ),
    )
    state, _ = apply(state, {**target_b, "attack": danmaku["attack"]})
    rolls = [
        e for entry in view(state, "gm")["log"] for e in entry["events"] if e["type"] == "roll"
    ]
    assert rolls, "the dodge is a logged roll"
    for e in rolls:
        r = e["result"]
        exact = probability.check_odds(r["dice"], r["modifier"], r["target"])
        assert _exact(e["odds"]["success"]) == exact.any_success
        assert _exact(e["odds"]["critical_failure"]) == exact.critical_failure
    assert roll_odds({"dice": 2}, state_rules()) is None


def test_a_logged_versus_carries_each_sides_chance():
    state = _duel()
    from westernroses.battle import apply

    state, _ = apply(
        state,
        {"type": "attack", "player": "gm", "combatant": "a", "target": "b", "attack": "sword"},
    )
    found = [
        e for entry in view(state, "gm")["log"] for e in entry["events"] if e["type"] == "versus"
    ]
    wins = found[0]["odds"]["wins"]
    exact = probability.versus_odds(4, 0, 5, 0)
    assert (_exact(wins["a"]), _exact(wins["b"])) == (exact.a_wins, exact.b_wins)


def state_rules():
    from westernroses.house_rules import DEFAULT_HOUSE_RULES

    return DEFAULT_HOUSE_RULES


def test_an_attack_cards_odds_are_its_to_hit_times_the_failed_insight_dodge():
    """ "Dodging for spellcards": insight against the caster's max(INT, PWR) (12 here); "Roll
    against intelligence": a failed roll misses whatever the target rolls (target 12); damage
    is the card's attack power (3d+2)."""
    from westernroses.spellcards import AttackPower, CardType, SpellcardDraft, ToHit

    card = SpellcardDraft(
        name="Icicle",
        type=CardType.ATTACK,
        attack_power=AttackPower(3, 2),
        to_hit=ToHit.ROLL_VS_INT,
    )
    a = fighter("a", (0, 0), speed=9, deck=[("x", card, 1)], hand=["x"])
    b = fighter("b", (1, 0), side="b", stats={"ins": 9})
    state = battle(a, b)
    state.current = "a"
    option = next(o for o in _options(state) if o["type"] == "use_spellcard")
    assert "odds" not in next(o for o in legal_actions(state, "gm") if o["type"] == "use_spellcard")
    odds = option["odds"]
    to_hit = probability.check_odds(4, 0, 12).any_success
    assert _exact(odds["to_hit"]) == to_hit
    assert _exact(odds["hit"]["b"]) == to_hit * (1 - probability.check_odds(3, 0, 12).any_success)
    assert "a" not in odds["hit"]  # never the caster
    assert odds["damage"]["notation"] == "3d+2"


def test_odds_name_only_the_combatants_the_view_shows():
    """Whoever the asker's view leaves out (fog of war) is left out of the odds too."""
    from westernroses.battle.actions import context
    from westernroses.battle.odds import with_odds

    state = _duel()
    options = with_odds(context(state, "gm"), legal_actions(state, "gm"), {"a"})
    attacks = [o for o in options if o["type"] == "attack"]
    assert attacks and all(o["odds"] == {} for o in attacks)
