"""Choices made face down stay secret from everyone else until they are revealed.

RULINGS Spirit War 2 (../shared/rules/RULINGS.md): "summons and Support cards are chosen face
down by both sides and revealed together; neither side sees the other's choice before revealing
its own". So when one side has chosen her Support card and the other is still choosing, two
tables that differ only in that choice (a card or none, and which card) must look the same, byte
for byte, to the other side and to every other seat and spectator: the same view (her hand size
included) and the same events. This holds by default (both choose at once), and under the
"loser first" house rule after a draw on the element chart ("In the case of an initial draw,
the decision ... shall be decided mutually", "Attack Encounter").

A card everyone has seen in her hand (a winner's Spirit, "A winner's Spirit stays known" in
docs/games/spirit-war.md) played face down must not give itself away either: until the reveal
the table keeps showing it as "in her hand or face down".
"""

from __future__ import annotations

from itertools import combinations

import pytest

from minigames.engines.spirit_war import ENGINE
from minigames.engines.spirit_war.piles import add_to_hand
from tests.engine.conformance import canonical
from tests.engine.spirit_war.helpers import (
    battle_at_support,
    card_in_hand,
    new,
    play,
    rig,
)
from westernroses.protocol import event_visible


def seen(state, events, seat):
    """Everything ``seat`` (None: a spectator) gets of a table: her view and her events."""
    return canonical(
        {
            "view": ENGINE.view(state, seat),
            "events": [e for e in events if event_visible(e, seat)],
            "waiting": ENGINE.waiting_on(state),
            "legal": ENGINE.legal_actions(state, seat) if seat is not None else [],
        }
    )


def three_seat_battle(defender_summons, **options):
    """Seat 0 (Earth, Moss Tortoise) attacks seat 1, who summons ``defender_summons``; seat 2
    watches. Seat 0 holds a Bedrock Charm, a Wellspring Charm and a Stone Komainu to choose
    from; seat 1 a Mirror Pond."""
    return battle_at_support(
        ["moss_tortoise", "bedrock_charm", "wellspring_charm", "stone_komainu"],
        [defender_summons, "mirror_pond"],
        "moss_tortoise",
        defender_summons,
        seats=3,
        **options,
    )


def every_choice(state, seat):
    """What each of ``seat``'s Support moves shows the others."""
    return {
        canonical(action): (lambda s_e: s_e)(play(state, seat, action))
        for action in ENGINE.legal_actions(state, seat)
    }


@pytest.mark.parametrize(
    ("options", "defender"),
    [
        ({}, "cinder_fox"),  # the default: both at once, Earth losing to Fire
        ({}, "clay_golem"),  # the default, a draw on the chart
        ({"support_order": "together"}, "mist_carp"),  # Earth winning against Water
        ({"support_order": "loser_first"}, "clay_golem"),  # the house rule after a chart draw
    ],
)
def test_a_support_choice_made_at_the_same_time_shows_nothing_to_anyone_else(options, defender):
    s = three_seat_battle(defender, **options)
    assert ENGINE.waiting_on(s) == (0, 1)
    outcomes = every_choice(s, 0)
    assert len(outcomes) == 5  # no card, or one of her four
    for viewer in (1, 2, None):
        shown = {seen(state, events, viewer) for state, events in outcomes.values()}
        assert len(shown) == 1, f"seat {viewer!r} can tell seat 0's Support choices apart"
    state, _ = next(iter(outcomes.values()))
    other = ENGINE.view(state, 1)
    assert other["battle"]["supports"][0] == {"face_down": False, "chosen": True}
    hand = len(s["hands"][0])
    assert other["players"][0]["cards_in_hand"] == hand  # a card put down still counts
    # she sees her own choice
    for key, (state, _events) in outcomes.items():
        mine = ENGINE.view(state, 0)["battle"]["supports"][0]
        if '"pass_support"' in key:
            assert mine == {"face_down": False, "none": True}
            assert ENGINE.view(state, 0)["players"][0]["cards_in_hand"] == hand
        else:
            assert mine["id"] == state["battle"]["support"][0]
            assert ENGINE.view(state, 0)["players"][0]["cards_in_hand"] == hand - 1


def test_both_choices_are_revealed_together_and_then_the_hand_counts_the_card():
    s = three_seat_battle("cinder_fox")
    charm = card_in_hand(s, 0, "wellspring_charm")
    hand = len(s["hands"][0])
    s, _ = play(s, 0, {"type": "support", "card": charm})
    s, events = play(s, 1, {"type": "pass_support"})
    text = "\n".join(e["text"] for e in events if event_visible(e, 2))
    assert (
        "The Support cards are revealed. Player 1: Wellspring Charm (a Spell card); Player 2: none."
        in text
    )
    # the card gone; Water beats Fire: her Spirit back and a card drawn
    assert ENGINE.view(s, 2)["players"][0]["cards_in_hand"] == hand - 1 + 2


def test_under_the_loser_first_house_rule_the_first_choice_is_seen_but_not_the_card():
    """The house rule's order: the losing side chooses in the open (the others see whether she
    put a card down), and which card stays hidden."""
    s = three_seat_battle("cinder_fox", support_order="loser_first")
    assert ENGINE.waiting_on(s) == (0,)
    outcomes = every_choice(s, 0)
    for viewer in (1, 2, None):
        cards = {
            seen(state, events, viewer)
            for key, (state, events) in outcomes.items()
            if '"pass_support"' not in key
        }
        assert len(cards) == 1
        passed = [seen(st, ev, viewer) for k, (st, ev) in outcomes.items() if "pass" in k]
        assert passed[0] not in cards


def known_spirit_position(**options):
    """Seat 0 won a battle with her Cinder Fox, so everyone saw it go back to her hand
    ("A winner's Spirit stays known"); she holds a Lantern Wisp too, unseen. Now she attacks
    seat 1 and summons one of them face down."""
    s = rig(
        new(3, **options),
        hands={0: ["lantern_wisp", "mirror_pond"], 1: ["moss_tortoise", "clay_golem"]},
        encounter_top=["challenge_down_the_road"],
    )
    fox = next(c for c in s["prep_deck"] if s["cards"][c] == "cinder_fox")
    s["prep_deck"].remove(fox)
    add_to_hand(s, 0, fox, public=True)
    s, _ = play(s, 0, {"type": "draw"})
    s, _ = play(s, 0, {"type": "attack", "target": 1})
    return s, fox


def test_a_known_spirit_summoned_face_down_is_not_given_away():
    """Summoning the Spirit everyone saw, or an unseen one, looks the same to everyone else:
    the seen one stays listed as "in her hand or face down" until the Spirits are revealed."""
    s, fox = known_spirit_position()
    wisp = card_in_hand(s, 0, "lantern_wisp")
    known = play(s, 0, {"type": "summon", "card": fox})
    unknown = play(s, 0, {"type": "summon", "card": wisp})
    for viewer in (1, 2, None):
        assert seen(*known, viewer) == seen(*unknown, viewer)
        shown = ENGINE.view(known[0], viewer)["players"][0]["shown_cards"]
        assert [c["id"] for c in shown] == [fox]
        assert fox not in ENGINE.hidden_from(known[0], viewer)
    # revealed: the Fox leaves the list if it was the summon, and stays if it was not
    after_known, _ = play(known[0], 1, {"type": "summon", "card": card_in_hand(s, 1, "clay_golem")})
    after_unknown, _ = play(
        unknown[0], 1, {"type": "summon", "card": card_in_hand(s, 1, "clay_golem")}
    )
    assert ENGINE.view(after_known, 1)["players"][0]["shown_cards"] == []
    assert [c["id"] for c in ENGINE.view(after_unknown, 1)["players"][0]["shown_cards"]] == [fox]


@pytest.mark.parametrize("options", [{}, {"support_order": "loser_first"}])
def test_a_known_card_put_down_as_support_is_not_given_away(options):
    """Fire against Earth: seat 0's known Cinder Fox as her Support card (an Element buff) or
    her unseen Lantern Wisp (the same): no other seat can tell which, in either order of
    choosing (under the house rule the Earth side chooses first and seat 0 answers, and the
    reveal follows at once; so here seat 1 answers after seat 0 chose under the default)."""
    s, fox = known_spirit_position(**options)
    s, _ = play(s, 0, {"type": "summon", "card": card_in_hand(s, 0, "lantern_wisp")})
    s, _ = play(s, 1, {"type": "summon", "card": card_in_hand(s, 1, "moss_tortoise")})
    assert fox in s["hands"][0] and fox in s["known"]
    if options:  # Fire beats Earth: the Earth side first, then seat 0's choice ends it
        s, _ = play(s, 1, {"type": "pass_support"})
        assert ENGINE.waiting_on(s) == (0,)
        return
    pond = card_in_hand(s, 0, "mirror_pond")
    plays = [
        play(s, 0, {"type": "support", "card": fox}),
        play(s, 0, {"type": "support", "card": pond}),
        play(s, 0, {"type": "pass_support"}),
    ]
    for viewer in (1, 2, None):
        assert len({seen(st, ev, viewer) for st, ev in plays}) == 1
        assert [c["id"] for c in ENGINE.view(plays[0][0], viewer)["players"][0]["shown_cards"]] == [
            fox
        ]


def test_a_known_card_put_down_first_under_the_house_rule_is_not_given_away():
    """Under "loser first" the losing side's card is seen going down, not which: her known
    Spirit or an unseen card look alike."""
    s = rig(
        new(3, support_order="loser_first"),
        hands={0: ["cinder_fox"], 1: ["moss_tortoise", "wellspring_charm"]},
        prep_top=["paper_doll_ward"],
        encounter_top=["challenge_down_the_road"],
    )
    golem = next(c for c in s["prep_deck"] if s["cards"][c] == "clay_golem")
    s["prep_deck"].remove(golem)
    add_to_hand(s, 1, golem, public=True)
    s, _ = play(s, 0, {"type": "draw"})
    s, _ = play(s, 0, {"type": "attack", "target": 1})
    s, _ = play(s, 0, {"type": "summon", "card": card_in_hand(s, 0, "cinder_fox")})
    s, _ = play(s, 1, {"type": "summon", "card": card_in_hand(s, 1, "moss_tortoise")})
    assert ENGINE.waiting_on(s) == (1,)  # Earth loses to Fire: seat 1 first
    charm = card_in_hand(s, 1, "wellspring_charm")
    a = play(s, 1, {"type": "support", "card": golem})
    b = play(s, 1, {"type": "support", "card": charm})
    for viewer in (0, 2, None):
        assert seen(*a, viewer) == seen(*b, viewer)


def test_determinize_deals_a_hidden_choice_anew():
    """The search bot's worlds for seat 1 deal seat 0's hidden choice anew (a card or none),
    so a bot learns nothing from them either; her view is the same in every world."""
    s = three_seat_battle("cinder_fox")
    s, _ = play(s, 0, {"type": "support", "card": card_in_hand(s, 0, "bedrock_charm")})
    kinds = set()
    for seed in range(40):
        world = ENGINE.determinize(s, 1, seed)
        assert canonical(ENGINE.view(world, 1)) == canonical(ENGINE.view(s, 1))
        kinds.add(world["battle"]["support"][0] is None)
    assert kinds == {True, False}


def test_determinize_keeps_a_known_card_in_her_hand_or_face_down():
    s, fox = known_spirit_position()
    s, _ = play(s, 0, {"type": "summon", "card": fox})
    where = set()
    for seed in range(40):
        world = ENGINE.determinize(s, 1, seed)
        assert canonical(ENGINE.view(world, 1)) == canonical(ENGINE.view(s, 1))
        where.add("summon" if world["battle"]["summon"][0] == fox else "hand")
        assert fox in world["hands"][0] or world["battle"]["summon"][0] == fox
    assert where == {"summon", "hand"}


def test_two_choices_pairwise():
    """Every pair of seat 0's five choices, by default: identical for seat 2 and spectators."""
    s = three_seat_battle("cinder_fox")
    outcomes = list(every_choice(s, 0).values())
    for (s1, e1), (s2, e2) in combinations(outcomes, 2):
        for viewer in (1, 2, None):
            assert seen(s1, e1, viewer) == seen(s2, e2, viewer)
