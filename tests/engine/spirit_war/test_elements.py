"""The element chart and every Element buff case of the rulebook.

Rules: ../shared/rules/spirit-war-standard-rules.txt, "Spirit Elements chart" ("Fire wins> Earth
wins> Water wins> Fire") and "Element buff" (its four bullets). Sides: 0 the attacker, 1 the
defender; ``resolve`` is the engine's own resolution of a battle's Support cards.
"""

from __future__ import annotations

import pytest

from minigames.engines.spirit_war import ENGINE
from minigames.engines.spirit_war.battles import resolve
from minigames.engines.spirit_war.elements import BEATS, DRAW, LOSS, WIN, chart, outcome
from tests.engine.spirit_war.helpers import battle_at_support, card_in_hand, play, spec

SPIRIT_OF = {"fire": "cinder_fox", "earth": "moss_tortoise", "water": "mist_carp"}


def test_chart_fire_beats_earth_beats_water_beats_fire():
    """ "Spirit Elements chart": Fire wins> Earth wins> Water wins> Fire."""
    assert BEATS == {"fire": "earth", "earth": "water", "water": "fire"}
    assert chart("fire", "earth") == WIN
    assert chart("earth", "water") == WIN
    assert chart("water", "fire") == WIN
    assert chart("earth", "fire") == LOSS
    assert chart("water", "earth") == LOSS
    assert chart("fire", "water") == LOSS


@pytest.mark.parametrize("element", ["fire", "earth", "water"])
def test_chart_same_element_is_a_draw(element):
    """Two Spirits of one element: neither wins ("If the battle is a draw")."""
    assert chart(element, element) == DRAW
    assert resolve((element, element), (None, None)).result == DRAW


def test_buff_rulebook_example_water_with_water_support_beats_earth():
    """ "Element buff", example: "A Water element main Spirit with a Water element Spirit
    Support card shall win against an Earth element Spirit"."""
    res = resolve(("water", "earth"), (spec("rain_frog"), None))
    assert res.buffs == [True, False]
    assert res.result == WIN
    # The same from the defender's side.
    res = resolve(("earth", "water"), (None, spec("kappa_scout")))
    assert res.result == LOSS


@pytest.mark.parametrize(
    ("mine", "theirs"), [("earth", "fire"), ("water", "earth"), ("fire", "water")]
)
def test_buff_wins_against_the_element_it_would_normally_lose_to(mine, theirs):
    """ "Element buff", first bullet: the buff "lets you win against an element that you would
    normally lose" — for every element of the chart."""
    assert chart(mine, theirs) == LOSS
    res = resolve((mine, theirs), (spec(SPIRIT_OF[mine]), None))
    assert res.result == WIN
    assert outcome(mine, True, theirs, False) == WIN


@pytest.mark.parametrize(
    ("mine", "theirs"), [("fire", "earth"), ("earth", "water"), ("water", "fire")]
)
def test_buff_against_an_element_already_beaten_still_wins(mine, theirs):
    """ "Element buff", first bullet: a buff never turns a win into anything else."""
    res = resolve((mine, theirs), (spec(SPIRIT_OF[mine]), None))
    assert res.buffs == [True, False]
    assert res.result == WIN


@pytest.mark.parametrize(
    ("mine", "theirs", "expected"),
    [
        ("fire", "earth", WIN),
        ("earth", "fire", LOSS),
        ("water", "fire", WIN),
        ("earth", "water", WIN),
    ],
)
def test_both_buffed_the_chart_decides(mine, theirs, expected):
    """ "Element buff", second bullet: "In the case where both you and your opponent gain the
    Element buff, the outcome of the battle will follow the Spirit Elements chart"."""
    res = resolve((mine, theirs), (spec(SPIRIT_OF[mine]), spec(SPIRIT_OF[theirs])))
    assert res.buffs == [True, True]
    assert res.result == expected == chart(mine, theirs)


def test_both_buffed_with_the_same_element_is_a_draw():
    """ "Element buff", second bullet, with equal elements: the chart gives a draw."""
    res = resolve(("fire", "fire"), (spec("ember_crane"), spec("furnace_oni")))
    assert res.buffs == [True, True]
    assert res.result == DRAW


@pytest.mark.parametrize("element", ["fire", "earth", "water"])
def test_buff_against_the_same_element_without_buff_is_a_draw(element):
    """ "Element buff", third bullet: "you gain an Element buff but your Spirit's element is the
    same as your opponent's spirit without Element buff, the outcome ... will be a draw"."""
    res = resolve((element, element), (spec(SPIRIT_OF[element]), None))
    assert res.buffs == [True, False]
    assert res.result == DRAW
    res = resolve((element, element), (None, spec(SPIRIT_OF[element])))
    assert res.result == DRAW


@pytest.mark.parametrize(
    ("mine", "theirs"), [("earth", "fire"), ("fire", "earth"), ("water", "water")]
)
def test_support_spirit_of_another_element_has_no_effect(mine, theirs):
    """ "Element buff", fourth bullet: "You can use a different element Spirit as your support
    card but it will have no effect" (a bluff): the chart alone decides."""
    other = next(e for e in ("fire", "earth", "water") if e != mine)
    res = resolve((mine, theirs), (spec(SPIRIT_OF[other]), None))
    assert res.buffs == [False, False]
    assert res.result == chart(mine, theirs)
    assert "no effect" in " ".join(res.steps)


def test_buff_in_a_played_battle_the_loser_buffs_and_wins():
    """The rulebook example played through the engine: the attacker's Water Spirit against the
    defender's Earth Spirit (Water loses on the chart). The attacker, the losing side, chooses
    first and adds a Water Spirit; she wins, keeps her Spirit and draws one card; the Support
    Spirit and the loser's Spirit go to the Abyss ("Attack Encounter", the last four steps)."""
    s = battle_at_support(
        ["mist_carp", "rain_frog", "unmaking_lantern"],
        ["moss_tortoise", "clay_golem"],
        "mist_carp",
        "moss_tortoise",
        support_order="loser_first",
    )
    # Water loses to Earth on the chart, so the attacker (the losing side) chooses first.
    assert ENGINE.waiting_on(s) == (0,)
    frog = card_in_hand(s, 0, "rain_frog")
    carp = s["battle"]["summon"][0]
    tortoise = s["battle"]["summon"][1]
    hand_before = len(s["hands"][0])
    s, events = play(s, 0, {"type": "support", "card": frog})
    assert ENGINE.waiting_on(s) == (1,)
    s, events = play(s, 1, {"type": "pass_support"})
    assert carp in s["hands"][0] and carp in s["known"]
    assert frog in s["abyss"] and tortoise in s["abyss"]
    # Kept her Spirit (+1) and drew one Preparation card (+1), having put the support down (-1).
    assert len(s["hands"][0]) == hand_before + 1
    assert "Element buff" in " ".join(e["text"] for e in events)
