"""Support cards and their priority order.

Rules: ../shared/rules/spirit-war-standard-rules.txt, "Support card priority order"
("Disintegrate > Imbue fire/earth/water > Swap > Element buff > Safeguard") and "Attack
Encounter" (Support card phase); RULINGS.md "Spirit War" 1 (what each card does; two cards of
the same kind resolve attacker first) and 2 (face-down choices revealed together).
"""

from __future__ import annotations

import pytest

from minigames.engines.spirit_war import ENGINE
from minigames.engines.spirit_war.battles import PRIORITY, card_could_help, resolve
from minigames.engines.spirit_war.elements import DRAW, LOSS, WIN
from tests.engine.spirit_war.helpers import (
    battle_at_support,
    card_in_hand,
    play,
    spec,
    texts,
)


def test_priority_order_is_the_rulebooks():
    """ "Disintegrate > Imbue fire/earth/water > Swap > Element buff > Safeguard"."""
    assert sorted(PRIORITY, key=PRIORITY.get) == [
        "disintegrate",
        "imbue",
        "swap",
        "buff",
        "safeguard",
    ]


def test_disintegrate_discards_the_opponents_imbue_unresolved():
    """RULINGS Spirit War 1: Disintegrate discards the opponent's Support card unresolved.
    Fire beats Earth; the defender's Imbue water would not help, and is never resolved."""
    res = resolve(("earth", "fire"), (spec("kindling_charm"), spec("unmaking_lantern")))
    assert res.cancelled == [True, False]
    assert res.elements == ["earth", "fire"]
    assert res.result == LOSS


def test_disintegrate_cancels_an_element_buff():
    """Disintegrate comes before Element buff: the buffing Spirit is discarded unresolved."""
    res = resolve(("water", "earth"), (spec("rain_frog"), spec("unmaking_lantern")))
    assert res.buffs == [False, False]
    assert res.result == LOSS


def test_disintegrate_cancels_a_safeguard():
    res = resolve(("earth", "fire"), (spec("paper_doll_ward"), spec("unmaking_lantern")))
    assert res.safeguards == [False, False]
    assert res.result == LOSS


def test_two_disintegrates_the_attackers_resolves_first():
    """RULINGS Spirit War 1: same kind resolves attacker first, so the defender's Disintegrate
    is itself disintegrated and the chart decides."""
    res = resolve(("fire", "water"), (spec("unmaking_lantern"), spec("unmaking_lantern")))
    assert res.cancelled == [False, True]
    assert res.result == LOSS


def test_imbue_changes_the_main_spirits_element_for_the_battle():
    """Imbue fire/earth/water makes your main Spirit that element for this battle."""
    res = resolve(("earth", "fire"), (spec("wellspring_charm"), None))
    assert res.elements == ["water", "fire"]
    assert res.result == WIN


def test_imbue_resolves_before_swap():
    """Imbue comes before Swap: the attacker becomes Earth, then the defender swaps, so the
    attacker ends Water against the defender's Earth and loses."""
    res = resolve(("fire", "water"), (spec("bedrock_charm"), spec("mirror_pond")))
    assert res.elements == ["water", "earth"]
    assert res.result == LOSS


def test_swap_exchanges_the_elements():
    """Swap exchanges the two main Spirits' elements for this battle (the cards stay)."""
    res = resolve(("earth", "fire"), (spec("mirror_pond"), None))
    assert res.elements == ["fire", "earth"]
    assert res.result == WIN


def test_two_swaps_cancel_out():
    res = resolve(("earth", "fire"), (spec("mirror_pond"), spec("mirror_pond")))
    assert res.elements == ["earth", "fire"]
    assert res.result == LOSS


def test_swap_resolves_before_the_element_buff():
    """Swap comes before Element buff, and a buff compares with the main Spirit's element as
    it stands then (our ruling). Water beats Fire; the defender swaps, so the attacker's Spirit
    is Fire against Water: a Fire support Spirit buffs it and wins, a Water one does not."""
    res = resolve(("water", "fire"), (spec("cinder_fox"), spec("mirror_pond")))
    assert res.elements == ["fire", "water"]
    assert any("now Fire against Water" in step for step in res.steps)
    assert res.buffs == [True, False]
    assert res.result == WIN
    res = resolve(("water", "fire"), (spec("mist_carp"), spec("mirror_pond")))
    assert res.buffs == [False, False]
    assert res.result == LOSS


def test_imbue_resolves_before_the_element_buff():
    """Imbue comes before Element buff: the attacker's Water buffed by a Water Spirit would
    beat Earth, but the defender imbues her Spirit into Water first, and a buffed Spirit against
    the same element without buff is a draw ("Element buff", third bullet)."""
    res = resolve(("water", "earth"), (spec("rain_frog"), spec("wellspring_charm")))
    assert res.elements == ["water", "water"]
    assert res.buffs == [True, False]
    assert res.result == DRAW
    # elements in words as the rules write them, capitalised like the page's
    assert any("makes the main Spirit Water for this battle" in step for step in res.steps)


def test_safeguard_returns_the_losing_spirit_to_the_hand():
    """RULINGS Spirit War 1: Safeguard returns your main Spirit to your hand instead of the
    Abyss when it loses. Played through the engine: Earth (attacker) loses to Fire."""
    s = battle_at_support(
        ["moss_tortoise", "stone_komainu"],
        ["cinder_fox", "lantern_wisp"],
        "moss_tortoise",
        "cinder_fox",
    )
    tortoise = s["battle"]["summon"][0]
    fox = s["battle"]["summon"][1]
    ward = card_in_hand(s, 0, "paper_doll_ward")
    s, _ = play(s, 0, {"type": "support", "card": ward})
    s, events = play(s, 1, {"type": "pass_support"})
    assert tortoise in s["hands"][0] and tortoise in s["known"]
    assert fox in s["hands"][1]
    assert ward in s["abyss"]
    assert "safeguarded" in texts(events)


def test_safeguard_does_not_save_a_spirit_in_a_draw():
    """A draw sends both Spirits to the Abyss ("If the battle is a draw..."); Safeguard acts
    only when the Spirit loses (RULINGS Spirit War 1)."""
    s = battle_at_support(["moss_tortoise"], ["clay_golem"], "moss_tortoise", "clay_golem")
    a, d = s["battle"]["summon"]
    ward = card_in_hand(s, 0, "paper_doll_ward")
    s, _ = play(s, 0, {"type": "support", "card": ward})
    s, events = play(s, 1, {"type": "pass_support"})
    assert a in s["abyss"] and d in s["abyss"] and ward in s["abyss"]
    assert "draw" in texts(events)


def test_support_cards_go_to_the_abyss_whatever_the_outcome():
    """ "All Support cards used are sent to the Abyss regardless of the battle outcome"."""
    s = battle_at_support(
        ["cinder_fox", "unmaking_lantern"],
        ["moss_tortoise", "mirror_pond"],
        "cinder_fox",
        "moss_tortoise",
        support_order="loser_first",
    )
    # Fire beats Earth: the defender is losing and chooses first (the house rule).
    assert ENGINE.waiting_on(s) == (1,)
    pond = card_in_hand(s, 1, "mirror_pond")
    lantern = card_in_hand(s, 0, "unmaking_lantern")
    s, _ = play(s, 1, {"type": "support", "card": pond})
    s, events = play(s, 0, {"type": "support", "card": lantern})
    assert pond in s["abyss"] and lantern in s["abyss"]
    assert "disintegrates" in texts(events)
    # The Swap never resolved: Fire still beat Earth and the attacker keeps her Spirit.
    assert any(s["cards"][c] == "cinder_fox" for c in s["hands"][0])


def test_a_card_put_down_before_the_other_side_chose_enters_its_players_record_at_the_reveal():
    """The public record the search bot reads (``support_record``: cards put down without
    knowing the other side's choice that could help, and that could not). Under the "loser
    first" house rule Earth (seat 0) loses to Fire and chooses first: an Imbue of Water turns
    the battle ("Support card priority order": the Imbue makes her Spirit Water, which beats
    Fire), so it could help. Nothing is counted before the reveal (it would tell which card
    lies face down), and the answering side's card, chosen after hers was down, is not
    counted."""
    s = battle_at_support(
        ["moss_tortoise", "wellspring_charm"],
        ["cinder_fox", "lantern_wisp"],
        "moss_tortoise",
        "cinder_fox",
        support_order="loser_first",
    )
    assert s["support_record"] == [[0, 0], [0, 0]]
    s, _ = play(s, 0, {"type": "support", "card": card_in_hand(s, 0, "wellspring_charm")})
    assert s["support_record"] == [[0, 0], [0, 0]]
    nothing = {"could_help": 0, "could_not_help": 0}
    for seat in (0, 1, None):
        assert ENGINE.view(s, seat)["players"][0]["support_record"] == nothing
    s, _ = play(s, 1, {"type": "support", "card": card_in_hand(s, 1, "lantern_wisp")})
    assert s["support_record"] == [[1, 0], [0, 0]]
    # public once revealed: every seat and a spectator see the same record
    for seat in (0, 1, None):
        players = ENGINE.view(s, seat)["players"]
        assert players[0]["support_record"] == {"could_help": 1, "could_not_help": 0}
        assert players[1]["support_record"] == nothing


def test_chosen_at_the_same_time_both_cards_enter_the_record():
    """By default both sides choose at the same time (RULINGS Spirit War 2): neither saw the
    other's choice, so both cards count at the reveal: the Imbue of Water could help Earth
    against Fire; the Fire Spirit (an Element buff for the winning side) could not better a
    battle already won."""
    s = battle_at_support(
        ["moss_tortoise", "wellspring_charm"],
        ["cinder_fox", "lantern_wisp"],
        "moss_tortoise",
        "cinder_fox",
    )
    s, _ = play(s, 1, {"type": "support", "card": card_in_hand(s, 1, "lantern_wisp")})
    s, _ = play(s, 0, {"type": "support", "card": card_in_hand(s, 0, "wellspring_charm")})
    assert s["support_record"] == [[1, 0], [0, 1]]


def test_a_bluff_enters_the_record_as_a_card_that_could_not_help():
    """ "You can use a different element Spirit as your support card but it will have no
    effect, however, you do get to 'bluff' your opponent": a Water Spirit under a losing
    Earth Spirit could not help."""
    s = battle_at_support(
        ["moss_tortoise", "mist_carp"],
        ["cinder_fox"],
        "moss_tortoise",
        "cinder_fox",
    )
    s, _ = play(s, 0, {"type": "support", "card": card_in_hand(s, 0, "mist_carp")})
    s, _ = play(s, 1, {"type": "pass_support"})
    assert s["support_record"] == [[0, 1], [0, 0]]


@pytest.mark.parametrize(
    ("key", "helps"),
    [
        ("wellspring_charm", True),  # Imbue of Water: Water beats Fire
        ("bedrock_charm", False),  # Imbue of Earth: she is Earth already
        ("kindling_charm", True),  # Imbue of Fire: a draw instead of a loss
        ("mirror_pond", True),  # Swap: she gets Fire against Earth
        ("paper_doll_ward", True),  # Safeguard: her losing Spirit goes back to her hand
        ("unmaking_lantern", False),  # Disintegrate: nothing to cancel
        ("stone_komainu", True),  # Element buff: Earth with a buff beats Fire
        ("mist_carp", False),  # a Spirit of another element: a bluff
    ],
)
def test_which_cards_could_help_a_losing_earth_spirit_against_fire(key, helps):
    assert card_could_help(("earth", "fire"), 0, spec(key)) is helps
    # the same battle seen from the defender's side
    assert card_could_help(("fire", "earth"), 1, spec(key)) is helps
